import Foundation
import Logging
import HostModel

/// Finds plugins on the search path and loads every one into this process.
///
/// Candidates are the `*.so` files of each search directory in file-name order (a search
/// entry may also name one file), each once per inode, after the checks that run no plugin
/// code (`PluginVetting`). A refusal names the file and the fix; the other plugins load on.
/// The loader only collects refusals: the command decides whether to warn or to list them.
///
/// Commands use `PluginCatalog` instead, which answers from the registry cache and runs plugin
/// code only in a scan helper, a handler worker, or (trusted plugins) when an action runs. This
/// loader opens every plugin in this process at once, through the same `PluginImage` the helpers
/// use: for tools and tests that want the whole set in one process.
public struct PluginLoader {
    public var searchPath: [URL]
    public var paths: HostPaths
    public var logger: Logger
    /// The language plugins are told through the `standfit.locale/1` extension.
    public var language: String
    /// Where the plugins that come with the host are (real paths of directories and files).
    public var bundledLocations: Set<String>

    public init(searchPath: [URL], paths: HostPaths, logger: Logger, language: String = "en",
                bundledLocations: Set<String> = []) {
        self.searchPath = searchPath
        self.paths = paths
        self.logger = logger
        self.language = language
        self.bundledLocations = bundledLocations
    }

    var vetting: PluginVetting {
        PluginVetting(searchPath: searchPath, bundledLocations: bundledLocations, pins: [:], requireTrusted: false)
    }

    public func load() -> PluginSet {
        logger.debug("Plugin search path: \(searchPath.map(\.path).joined(separator: ":"))")
        var builder = PluginSetBuilder(logger: logger, language: language)
        var code: [String: PluginCode] = [:]
        for file in vetting.vet(logger: { logger.debug("\($0)") }) {
            switch file {
            case .refused(let refusal):
                builder.refuse(refusal)
            case .candidate(let candidate):
                switch PluginImage.open(candidate, paths: paths, logger: logger, language: language) {
                case .success(let plugin):
                    logger.debug("Loaded plugin '\(plugin.info.id)' \(plugin.info.version) from \(candidate.path): \(plugin.info.types.joined(separator: ", "))")
                    builder.add(plugin)
                    if code[plugin.info.id] == nil { code[plugin.info.id] = plugin.code }
                case .failure(let refusal):
                    builder.refuse(refusal)
                }
            }
        }
        var set = builder.set
        set.calls = .inProcess(guard: .off) { id in code[id].map { .success($0) } ?? .failure(PluginFault("fault.notLoaded")) }
        return set
    }

    /// The plugin files on the search path, in load order.
    public func candidates() -> [String] {
        vetting.files().map(\.path)
    }
}
