import CHostSystem
import CStandFitABI
import Foundation
import Logging
import HostModel

/// The calls into one loaded plugin's code, in this process. A class, so the in-process calls
/// hold it without copying the plugin's registrations on every call.
final class PluginCode {
    /// Each action's handler, by registered type.
    var handlers: [String: HandlerCall] = [:]
    /// The dynamic provider, when it has one.
    var provide: ((_ locale: String) -> Result<[ShortcutItem], ProviderFailure>)?
    /// Each entity's queries, by entity id.
    var queries: [String: (_ query: EntityQuery, _ locale: String) -> Result<[EntityValue], EntityFailure>] = [:]
}

/// One plugin loaded into this process: what it registered, as data, and the code behind it.
public struct LoadedPlugin {
    public var info: PluginInfo
    /// Its actions, in registration order, each type once.
    public var actions: [RegisteredAction]
    public var staticItems: [ShortcutItem]
    public var provider: DynamicProvider?
    public var entities: [EntityProvider]
    /// Its code, called in this process.
    let code: PluginCode
    /// Sentences about what it registered that the host did not take, as the host's words.
    public var warnings: [HostText.Phrase]
    public var initDuration: Duration

    /// The plain-value snapshot the scan helper sends and the registry cache keeps.
    public var record: PluginRecord {
        PluginRecord(
            id: info.id, name: info.name, version: info.version, abiMajor: info.abiMajor, abiMinor: info.abiMinor,
            actions: actions.map {
                ActionRecord(type: $0.type, title: $0.title, subtitle: $0.subtitle, icon: $0.icon,
                             parameters: $0.parameters, phrases: $0.phrases, suggestible: $0.suggestible, confirms: $0.confirms)
            },
            staticItems: staticItems, hasProvider: provider != nil, entities: entities.map(\.record),
            warnings: warnings,
            initMilliseconds: Double(initDuration.components.seconds) * 1000
                + Double(initDuration.components.attoseconds) / 1e15,
            programs: info.programs)
    }
}

/// Opens one vetted plugin file in this process and lets it register.
///
/// It is opened with `RTLD_NOW | RTLD_LOCAL` and never closed: unloading Swift code is
/// unsupported, and a refused plugin stays mapped rather than risk it. A pinned plugin is
/// loaded from a sealed memory file holding the exact bytes whose hash was checked, so that
/// swapping the file after the check loads nothing.
enum PluginImage {
    /// `hasDataDirectory` is false in a sandboxed scan, where the plugin's data directory is not
    /// yet known to the sandbox: asking for it then gives NULL and a sentence that says why.
    static func open(_ candidate: PluginCandidate, paths: HostPaths, logger: Logger,
                     language: String, hasDataDirectory: Bool = true) -> Result<LoadedPlugin, PluginRefusal> {
        let path = candidate.path
        func refuse(_ key: String, _ values: [String: String] = [:], parts: [String: HostText.Phrase] = [:]) -> Result<LoadedPlugin, PluginRefusal> {
            .failure(PluginRefusal(path: path, sentence: HostText.Phrase(key, values.merging(["path": path]) { $1 }, parts: parts)))
        }
        func refuse(_ sentence: HostText.Phrase) -> Result<LoadedPlugin, PluginRefusal> {
            .failure(PluginRefusal(path: path, sentence: sentence))
        }
        let entrySymbol = ["entry": STANDFIT_ENTRY_SYMBOL]
        var loadPath = candidate.realPath
        if let pin = candidate.pinnedSHA256 {
            switch SealedImage.make(realPath: candidate.realPath, expectedSHA256: pin) {
            case .success(let image): loadPath = image.path
            case .failure(let problem): return refuse("plugin.problem", parts: ["problem": problem.words])
            }
        }
        ScanTrace.note("plugin.place.linker")
        guard let handle = dlopen(loadPath, RTLD_NOW | RTLD_LOCAL) else {
            // The dynamic linker's words are its own, quoted as it says them.
            let detail = dlerror().map { String(cString: $0) } ?? "unknown error"
            let wayOut = detail.contains("libstd-") ? HostText.Phrase("plugin.wayOut.rustDylib")
                : SystemFault.errno(in: detail).flatMap(SystemFault.wayOut) ?? HostText.Phrase("plugin.rebuild")
            return refuse("plugin.cannotLoad", ["detail": detail], parts: ["wayOut": wayOut])
        }
        guard let symbol = dlsym(handle, STANDFIT_ENTRY_SYMBOL) else {
            return refuse("plugin.noEntry", entrySymbol.merging(["attribute": "@_cdecl(\"\(STANDFIT_ENTRY_SYMBOL)\")"]) { $1 })
        }
        // Calling a data symbol would jump into data: refuse it before it can crash the host.
        guard standfit_symbol_is_function(symbol) != 0 else {
            return refuse("plugin.entryIsData", entrySymbol)
        }
        let entryFunction = unsafeBitCast(symbol, to: standfit_plugin_entry_fn.self)
        ScanTrace.note("plugin.place.entry", entrySymbol)
        let returned = entryFunction()
        ScanTrace.note("plugin.place.table", entrySymbol)
        guard let entry = returned else {
            return refuse("plugin.noEntryTable", entrySymbol)
        }
        if let problem = entry.pointee.abi.abiProblem(minimumSize: MemoryLayout<standfit_plugin_entry>.size) {
            return refuse("plugin.problem", parts: ["problem": problem])
        }
        let raw = entry.pointee
        guard let id = CText.string(raw.id), PluginID.isValid(id) else {
            let shown = raw.id != nil && CText.string(raw.id) == nil ? HostText.Phrase("plugin.notUTF8") : .verbatim(CText.quoted(raw.id))
            return refuse("plugin.badID", parts: ["id": shown])
        }
        guard let initialize = raw.`init` else {
            return refuse("plugin.noInit", ["id": id])
        }
        let registrar = PluginRegistrar(pluginID: id, path: path, logger: logger,
                                        dataDirectory: paths.pluginDataDirectory(for: id), language: language,
                                        pluginFile: candidate.realPath)
        registrar.hasDataDirectory = hasDataDirectory
        let host = HostTable.make(for: registrar)
        registrar.acceptsRegistrations = true
        let clock = ContinuousClock()
        let start = clock.now
        ScanTrace.noteOwnCode()
        let status = initialize(host)
        let duration = clock.now - start
        registrar.acceptsRegistrations = false
        let outcome = registrar.outcomeOfInit(status: status)
        if let refusal = outcome.refusal { return refuse(refusal) }
        registrar.warnings += outcome.warnings
        var info = PluginInfo(id: id, name: CText.string(raw.name) ?? id, version: CText.string(raw.version) ?? "?",
                              abiMajor: raw.abi.abi_major, abiMinor: raw.abi.abi_minor, path: path,
                              types: registrar.actions.map(\.type))
        info.programs = registrar.programs
        return .success(LoadedPlugin(info: info, actions: registrar.actions, staticItems: registrar.staticItems,
                                     provider: registrar.provider, entities: registrar.entities,
                                     code: registrar.code, warnings: registrar.warnings,
                                     initDuration: duration))
    }
}

/// What a declared program's path may look like (`standfit.programs/1`): absolute, at most
/// `byteLimit` bytes of UTF-8 without control characters, no `.` or `..` part.
enum ProgramPath {
    static let byteLimit = 1024

    static func isValid(_ path: String) -> Bool {
        path.hasPrefix("/") && path.utf8.count <= byteLimit
            && !path.unicodeScalars.contains { $0.properties.generalCategory == .control }
            && !path.split(separator: "/").contains { $0 == "." || $0 == ".." }
    }
}

/// What a plugin id may look like: a reverse-DNS name, safe as a directory name.
enum PluginID {
    static func isValid(_ id: String) -> Bool {
        TypeName.isValid(id) && !id.hasSuffix(".*") && !id.hasPrefix(".")
    }
}
