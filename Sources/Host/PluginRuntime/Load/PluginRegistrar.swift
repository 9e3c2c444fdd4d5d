import CStandFitABI
import Foundation
import Logging
import HostModel

/// One plugin's side of the host table: what `host_data` points to. It checks and copies what
/// the plugin registers, and lives for the process, since a plugin may keep the host table.
///
/// It keeps one plugin's registrations only: which plugin keeps a type two plugins register is
/// decided when the plugins are put together (`PluginSetBuilder`), so that each plugin can be
/// scanned, cached and loaded on its own.
final class PluginRegistrar {
    let pluginID: String
    let path: String
    let logger: Logger
    let dataDirectory: URL
    /// The `standfit.locale/1` extension table; made once, never freed (plugins may keep it).
    let localeExtension: UnsafePointer<standfit_locale_ext>
    /// The `standfit.plugin-file/1` extension table; made once, never freed.
    let pluginFileExtension: UnsafePointer<standfit_plugin_file_ext>
    /// The `standfit.intents/1` table; one for every plugin, since it carries no state.
    nonisolated(unsafe) static let intentsExtension = IntentsTable.make()
    /// The `standfit.action-traits/1` table; one for every plugin, which it finds by `host_data`.
    nonisolated(unsafe) static let actionTraitsExtension = ActionTraitsTable.make()
    /// The `standfit.action-traits/2` table (`STANDFIT_TRAIT_CONFIRM` too).
    nonisolated(unsafe) static let actionTraitsExtension2 = ActionTraitsTable.makeSecond()
    /// The `standfit.item-lifetime/1` table; one for every plugin, since it acts on the sink.
    nonisolated(unsafe) static let itemLifetimeExtension = ItemSink.lifetimeTable()
    /// The `standfit.donations/1` table; one for every plugin, since it acts on the invocation.
    nonisolated(unsafe) static let donationsExtension = HandlerCall.donationsTable()
    /// The `standfit.parameter-checks/1` table; one for every plugin.
    nonisolated(unsafe) static let parameterChecksExtension = ParameterChecksTable.make()
    /// The `standfit.clock/1` table; one for every plugin.
    nonisolated(unsafe) static let clockExtension = ClockTable.make()
    nonisolated(unsafe) static let replyExtension = HandlerCall.replyTable()
    nonisolated(unsafe) static let parameterTraitsExtension = ParameterTraitsTable.make()
    /// The `standfit.programs/1` table; one for every plugin, which it finds by `host_data`.
    nonisolated(unsafe) static let programsExtension = ProgramsTable.make()
    /// Open only while the plugin's `init` runs.
    var acceptsRegistrations = false
    /// False while a sandboxed scan runs `init`: the sandbox grants no data directory then.
    var hasDataDirectory = true
    /// What the plugin registered, in order, as data.
    var actions: [RegisteredAction] = []
    /// Each registered type's place in `actions`, so that registering n actions costs O(n).
    var actionIndex: [String: Int] = [:]
    private(set) var staticItems: [ShortcutItem] = []
    private(set) var provider: DynamicProvider?
    var entities: [EntityProvider] = []
    /// The programs it declared it starts, in order, each once.
    private(set) var programs: [String] = []
    /// The code behind it, called in this process: each action's handler by type, the
    /// provider, and each entity's queries by entity id.
    let code = PluginCode()
    /// Sentences about what it registered that the host did not take, as the host's words.
    var warnings: [HostText.Phrase] = []
    /// Why the host refused each registration it refused, in order: a problem and its fix,
    /// without the plugin's name ("parameter 'ml' of 'com.example.water.log' has default …"),
    /// as the host's words. An init that fails says the first as its reason; one that goes on
    /// regardless is warned.
    var refusedRegistrations: [HostText.Phrase] = []
    /// What the plugin logged at warning or error level while its init ran: an init that fails
    /// without a refused registration gives the last of these as its reason.
    var initComplaints: [String] = []
    private var dataDirectoryCString: UnsafeMutablePointer<CChar>?
    /// The run's words, for what the host logs about the plugin as it goes.
    let text: HostText

    init(pluginID: String, path: String, logger: Logger, dataDirectory: URL, language: String,
         pluginFile: String) {
        self.pluginID = pluginID
        self.path = path
        self.logger = logger
        self.dataDirectory = dataDirectory
        text = HostText(language: language)
        let table = UnsafeMutablePointer<standfit_locale_ext>.allocate(capacity: 1)
        table.initialize(to: standfit_locale_ext(abi: .host(for: standfit_locale_ext.self),
                                                 language: UnsafePointer(strdup(language))))
        localeExtension = UnsafePointer(table)
        let file = UnsafeMutablePointer<standfit_plugin_file_ext>.allocate(capacity: 1)
        file.initialize(to: standfit_plugin_file_ext(abi: .host(for: standfit_plugin_file_ext.self),
                                                     path: UnsafePointer(strdup(pluginFile))))
        pluginFileExtension = UnsafePointer(file)
    }

    /// The host extension named `id` ("name/rev"), or nil when this host has none by that id.
    func hostExtension(_ id: String) -> UnsafeRawPointer? {
        switch id {
        case STANDFIT_EXT_LOCALE: UnsafeRawPointer(localeExtension)
        case STANDFIT_EXT_PLUGIN_FILE: UnsafeRawPointer(pluginFileExtension)
        case STANDFIT_EXT_INTENTS: UnsafeRawPointer(PluginRegistrar.intentsExtension)
        case STANDFIT_EXT_ITEM_LIFETIME: UnsafeRawPointer(PluginRegistrar.itemLifetimeExtension)
        case STANDFIT_EXT_ACTION_TRAITS: UnsafeRawPointer(PluginRegistrar.actionTraitsExtension)
        case STANDFIT_EXT_ACTION_TRAITS_2: UnsafeRawPointer(PluginRegistrar.actionTraitsExtension2)
        case STANDFIT_EXT_DONATIONS: UnsafeRawPointer(PluginRegistrar.donationsExtension)
        case STANDFIT_EXT_PARAMETER_CHECKS: UnsafeRawPointer(PluginRegistrar.parameterChecksExtension)
        case STANDFIT_EXT_CLOCK: UnsafeRawPointer(PluginRegistrar.clockExtension)
        case STANDFIT_EXT_PROGRAMS: UnsafeRawPointer(PluginRegistrar.programsExtension)
        case STANDFIT_EXT_REPLY: UnsafeRawPointer(PluginRegistrar.replyExtension)
        case STANDFIT_EXT_PARAMETER_TRAITS: UnsafeRawPointer(PluginRegistrar.parameterTraitsExtension)
        default: nil
        }
    }

    static func from(_ host: UnsafePointer<standfit_host>?) -> PluginRegistrar? {
        guard let hostData = host?.pointee.host_data else { return nil }
        return Unmanaged<PluginRegistrar>.fromOpaque(hostData).takeUnretainedValue()
    }

    func log(level: Int32, message: String) {
        let level: Logger.Level = switch level {
        case STANDFIT_LOG_DEBUG: .debug
        case STANDFIT_LOG_INFO: .info
        case STANDFIT_LOG_WARNING: .warning
        default: .error
        }
        logger.log(level: level, "\(message)", metadata: ["plugin": "\(pluginID)"])
        if acceptsRegistrations && level >= .warning { initComplaints.append(message) }
    }

    func registerAction(_ pointer: UnsafePointer<standfit_action>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_action") }
        let action: RegisteredAction, call: HandlerCall
        switch ActionDescriptor.read(pointer, pluginID: pluginID) {
        case .failure(let problem):
            return reject(problem.words)
        case .success(let read):
            (action, call) = read
        }
        if actionIndex[action.type] != nil {
            warnings.append(HostText.Phrase("plugin.typeTwice", ["id": pluginID, "path": path, "type": action.type]))
            return STANDFIT_ERR_DUPLICATE
        }
        actionIndex[action.type] = actions.count
        actions.append(action)
        code.handlers[action.type] = call
        return STANDFIT_OK
    }

    func registerStaticItem(_ pointer: UnsafePointer<standfit_item>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_static_item") }
        switch ItemDescriptor.read(pointer, source: .static, origin: pluginID) {
        case .failure(let problem):
            return reject(problem.words)
        case .success(let item):
            staticItems.append(item)
            return STANDFIT_OK
        }
    }

    func registerProvider(_ pointer: UnsafePointer<standfit_dynamic_provider>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_dynamic_provider") }
        guard let pointer else { return reject("plugin.registration.providerNull") }
        if let problem = pointer.pointee.abi.abiProblem(minimumSize: MemoryLayout<standfit_dynamic_provider>.size) {
            return reject("plugin.registration.providerABI", parts: ["problem": problem])
        }
        guard let provide = pointer.pointee.provide else {
            return reject("plugin.registration.noProvide")
        }
        let id = pluginID
        provider = DynamicProvider(pluginID: id)
        code.provide = { locale in ItemSink.collect(from: provide, pluginID: id, locale: locale) }
        return STANDFIT_OK
    }

    /// Refuses a registration: `problem` says what is wrong and how to fix it.
    func reject(_ problem: HostText.Phrase) -> Int32 {
        refusedRegistrations.append(problem)
        return STANDFIT_ERR_INVALID_ARGUMENT
    }

    /// Refuses a registration with the host's words `key` (`plugin.registration.*`).
    func reject(_ key: String, _ values: [String: String] = [:], parts: [String: HostText.Phrase] = [:]) -> Int32 {
        reject(HostText.Phrase(key, values, parts: parts))
    }

    /// What to say about the refused registrations once `init` returned `status`: the reason the
    /// plugin is refused when it failed, else a warning for each registration it went on without.
    func outcomeOfInit(status: Int32) -> (refusal: HostText.Phrase?, warnings: [HostText.Phrase]) {
        let failed = ["path": path, "id": pluginID, "status": "\(status)"]
        guard status == STANDFIT_OK else {
            if let first = refusedRegistrations.first {
                let more = refusedRegistrations.count > 1
                    ? HostText.Phrase("plugin.initFailed.more", ["count": "\(refusedRegistrations.count - 1)"]) : .verbatim("")
                return (HostText.Phrase("plugin.initFailed.refused", failed, parts: ["problem": first, "more": more]), [])
            }
            if let said = initComplaints.last {
                let shown = VisibleText.line(said)
                let quoted = "\"\(shown.count > 300 ? shown.prefix(299) + "…" : shown)\""
                return (HostText.Phrase("plugin.initFailed.logged", failed.merging(["said": quoted]) { $1 }), [])
            }
            return (HostText.Phrase("plugin.initFailed.silent", failed), [])
        }
        let ignored = refusedRegistrations.map {
            HostText.Phrase("plugin.refusedIgnored", ["id": pluginID, "path": path], parts: ["problem": $0])
        }
        return (nil, ignored)
    }

    /// The plugin's data directory as a C string owned by the registrar; created on first call.
    func dataDirectoryPath() -> UnsafePointer<CChar>? {
        if let dataDirectoryCString { return UnsafePointer(dataDirectoryCString) }
        guard hasDataDirectory else {
            let warning = HostText.Phrase("plugin.noDataDirectory", ["id": pluginID, "path": path])
            if !warnings.contains(warning) { warnings.append(warning) }
            return nil
        }
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            let problem = text("plugin.dataDirectoryFailed", ["path": dataDirectory.path, "id": pluginID, "error": error.localizedDescription,
                                                              "parent": dataDirectory.deletingLastPathComponent().path])
            logger.error("\(problem)")
            return nil
        }
        dataDirectoryCString = strdup(dataDirectory.path)
        return UnsafePointer(dataDirectoryCString)
    }

    /// `standfit.programs/1`'s `declare_program`.
    func declareProgram(_ pointer: UnsafePointer<CChar>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("declare_program") }
        guard let path = CText.string(pointer), ProgramPath.isValid(path) else {
            return reject("plugin.registration.programPath", ["limit": "\(ProgramPath.byteLimit)"], parts: ["given": CText.shown(pointer)])
        }
        if programs.contains(path) { return STANDFIT_OK }
        guard programs.count < Int(STANDFIT_MAX_PROGRAMS) else {
            return reject("plugin.registration.tooManyPrograms", ["path": path, "limit": "\(STANDFIT_MAX_PROGRAMS)"])
        }
        programs.append(path)
        return STANDFIT_OK
    }

    func refuseOutsideInit(_ function: String) -> Int32 {
        logger.warning("\(text("plugin.outsideInit", ["id": pluginID, "path": path, "function": function]))")
        return STANDFIT_ERR_NOT_IN_INIT
    }
}
