import CStandFitABI
import Foundation
import Logging

/// Finds plugins on the search path, loads each once and lets it register.
///
/// Candidates are the `*.so` files of each search directory in file-name order (a search
/// entry may also name one file). Each is opened with `RTLD_NOW | RTLD_LOCAL` once per inode
/// and never closed: unloading Swift code is unsupported, and a refused plugin stays mapped
/// rather than risk it. A refusal names the file and the fix; the other plugins load on. The
/// loader only collects refusals: the command decides whether to warn or to list them.
public struct PluginLoader {
    public var searchPath: [URL]
    public var paths: HostPaths
    public var logger: Logger
    /// The language plugins are told through the `standfit.locale/1` extension.
    public var language: String

    public init(searchPath: [URL], paths: HostPaths, logger: Logger, language: String = "en") {
        self.searchPath = searchPath
        self.paths = paths
        self.logger = logger
        self.language = language
    }

    public func load() -> PluginSet {
        let session = LoadSession(paths: paths, logger: logger, language: language)
        logger.debug("Plugin search path: \(searchPath.map(\.path).joined(separator: ":"))")
        for candidate in candidates() {
            session.load(candidate)
        }
        return session.pluginSet
    }

    /// The plugin files on the search path, in load order.
    public func candidates() -> [String] {
        var files: [String] = []
        for entry in searchPath {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: entry.path, isDirectory: &isDirectory)
            if exists, !isDirectory.boolValue {
                files.append(entry.path)
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: entry.path)
            } catch {
                // A directory of the default path that does not exist (yet) is normal.
                logger.debug("Plugin directory \(entry.path) is not readable: \(error.localizedDescription)")
                continue
            }
            files += names.filter { $0.hasSuffix(".so") && !$0.hasPrefix(".") }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                .map { entry.appendingPathComponent($0).path }
        }
        return files
    }
}

/// One pass of loading: the plugins found so far and the files already opened.
final class LoadSession {
    var pluginSet = PluginSet()
    private let paths: HostPaths
    private let logger: Logger
    private let language: String
    private struct FileID: Hashable { var device: UInt64; var inode: UInt64 }
    private var loadedFiles: [FileID: String] = [:]

    init(paths: HostPaths, logger: Logger, language: String) {
        self.paths = paths
        self.logger = logger
        self.language = language
    }

    func path(ofPlugin id: String) -> String? {
        pluginSet.plugins.first { $0.id == id }?.path
    }

    func load(_ path: String) {
        switch open(path) {
        case .success(let plugin?):
            logger.debug("Loaded plugin '\(plugin.id)' \(plugin.version) from \(path): \(plugin.types.joined(separator: ", "))")
            pluginSet.plugins.append(plugin)
        case .success(nil): break
        case .failure(let refusal):
            pluginSet.refusals.append(refusal)
        }
    }

    /// Loads one file; nil when it is a second path to a file already loaded.
    private func open(_ path: String) -> Result<PluginInfo?, PluginRefusal> {
        func refuse(_ reason: String) -> Result<PluginInfo?, PluginRefusal> {
            .failure(PluginRefusal(path: path, reason: reason))
        }
        guard let resolved = realpath(path, nil) else {
            return refuse("Plugin \(path) is a symbolic link to a file that does not exist; remove the link or reinstall the plugin.")
        }
        let realPath = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(realPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return refuse("Plugin \(path) is not a regular file; plugins must be shared-object files.")
        }
        let fileID = FileID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if let first = loadedFiles[fileID] {
            logger.debug("Plugin \(path) is the same file as \(first), which is already loaded")
            return .success(nil)
        }
        loadedFiles[fileID] = path
        guard let handle = dlopen(realPath, RTLD_NOW | RTLD_LOCAL) else {
            let detail = dlerror().map { String(cString: $0) } ?? "unknown error"
            return refuse("Cannot load plugin \(path): \(detail); rebuild it as a shared library for this machine or remove it from the plugin path.")
        }
        guard let symbol = dlsym(handle, STANDFIT_ENTRY_SYMBOL) else {
            return refuse("Plugin \(path) does not export \(STANDFIT_ENTRY_SYMBOL); export it with STANDFIT_EXPORT (C) or @_cdecl(\"\(STANDFIT_ENTRY_SYMBOL)\") (Swift).")
        }
        let entryFunction = unsafeBitCast(symbol, to: standfit_plugin_entry_fn.self)
        guard let entry = entryFunction() else {
            return refuse("Plugin \(path) returned no entry table from \(STANDFIT_ENTRY_SYMBOL); it refuses to load, so check its own documentation or log.")
        }
        if let problem = entry.pointee.abi.problem(minimumSize: MemoryLayout<standfit_plugin_entry>.size) {
            return refuse("Plugin \(path) \(problem).")
        }
        let raw = entry.pointee
        guard let id = CText.string(raw.id), PluginID.isValid(id) else {
            return refuse("Plugin \(path) has id \(CText.quoted(raw.id)), which is not a reverse-DNS id such as com.example.tools; fix the entry table's id.")
        }
        if let other = self.path(ofPlugin: id) {
            return refuse("Plugin \(path) has id '\(id)', which \(other) already uses; remove one of the two.")
        }
        guard let initialize = raw.`init` else {
            return refuse("Plugin \(path) ('\(id)') has no init function in its entry table; set one.")
        }
        let registrar = PluginRegistrar(pluginID: id, path: path, logger: logger,
                                        dataDirectory: paths.pluginDataDirectory(for: id), language: language,
                                        session: self)
        let host = HostTable.make(for: registrar)
        let registeredBefore = pluginSet.registry.actions.count
        let itemsBefore = pluginSet.staticItems.count
        registrar.acceptsRegistrations = true
        let status = initialize(host)
        registrar.acceptsRegistrations = false
        guard status == STANDFIT_OK else {
            pluginSet.registry.removeAll(fromPlugin: id)
            pluginSet.staticItems.removeSubrange(itemsBefore...)
            pluginSet.providers.removeAll { $0.pluginID == id }
            return refuse("Plugin \(path) ('\(id)') failed to initialise (status \(status)); see its log lines above, or run with --verbose.")
        }
        let types = pluginSet.registry.actions[registeredBefore...].map(\.type)
        return .success(PluginInfo(
            id: id, name: CText.string(raw.name) ?? id, version: CText.string(raw.version) ?? "?",
            abiMajor: raw.abi.abi_major, abiMinor: raw.abi.abi_minor, path: path, types: types))
    }
}

/// What a plugin id may look like: a reverse-DNS name, safe as a directory name.
enum PluginID {
    static func isValid(_ id: String) -> Bool {
        TypeName.isValid(id) && !id.hasSuffix(".*") && !id.hasPrefix(".")
    }
}
