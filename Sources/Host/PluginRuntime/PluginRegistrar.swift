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
    /// Open only while the plugin's `init` runs.
    var acceptsRegistrations = false
    /// What the plugin registered, in order, as data.
    private(set) var actions: [RegisteredAction] = []
    private(set) var staticItems: [ShortcutItem] = []
    private(set) var provider: DynamicProvider?
    private(set) var entities: [EntityProvider] = []
    /// The code behind it, called in this process: each action's handler by type, the
    /// provider, and each entity's queries by entity id.
    private(set) var code = LoadedPlugin.Code()
    /// Sentences about what it registered that the host did not take.
    private(set) var warnings: [String] = []
    private var dataDirectoryCString: UnsafeMutablePointer<CChar>?

    init(pluginID: String, path: String, logger: Logger, dataDirectory: URL, language: String,
         pluginFile: String) {
        self.pluginID = pluginID
        self.path = path
        self.logger = logger
        self.dataDirectory = dataDirectory
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
    }

    func registerAction(_ pointer: UnsafePointer<standfit_action>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_action") }
        let action: RegisteredAction, call: HandlerCall
        switch ActionDescriptor.read(pointer, pluginID: pluginID) {
        case .failure(let problem):
            warnings.append("Plugin '\(pluginID)' (\(path)): \(problem.message).")
            return STANDFIT_ERR_INVALID_ARGUMENT
        case .success(let read):
            (action, call) = read
        }
        if actions.contains(where: { $0.type == action.type }) {
            warnings.append("Plugin '\(pluginID)' (\(path)) registers shortcut type '\(action.type)' twice; the first registration is kept.")
            return STANDFIT_ERR_DUPLICATE
        }
        actions.append(action)
        code.handlers[action.type] = call
        return STANDFIT_OK
    }

    func registerStaticItem(_ pointer: UnsafePointer<standfit_item>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_static_item") }
        switch ItemDescriptor.read(pointer, source: .static, origin: pluginID) {
        case .failure(let problem):
            warnings.append("Plugin '\(pluginID)' (\(path)): static item not registered: \(problem.message).")
            return STANDFIT_ERR_INVALID_ARGUMENT
        case .success(let item):
            staticItems.append(item)
            return STANDFIT_OK
        }
    }

    func registerProvider(_ pointer: UnsafePointer<standfit_dynamic_provider>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_dynamic_provider") }
        guard let pointer else { return STANDFIT_ERR_INVALID_ARGUMENT }
        if let problem = pointer.pointee.abi.problem(minimumSize: MemoryLayout<standfit_dynamic_provider>.size) {
            warnings.append("Plugin '\(pluginID)' (\(path)): its dynamic provider \(problem).")
            return STANDFIT_ERR_INVALID_ARGUMENT
        }
        guard let provide = pointer.pointee.provide else {
            warnings.append("Plugin '\(pluginID)' (\(path)): its dynamic provider has no provide function.")
            return STANDFIT_ERR_INVALID_ARGUMENT
        }
        let id = pluginID
        provider = DynamicProvider(pluginID: id)
        code.provide = { locale in ItemSink.collect(from: provide, pluginID: id, locale: locale) }
        return STANDFIT_OK
    }

    // MARK: standfit.intents/1

    func registerEntity(_ pointer: UnsafePointer<standfit_entity>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_entity") }
        guard let pointer else { return reject("register_entity was called with NULL") }
        let raw = pointer.pointee
        if let problem = raw.abi.problem(minimumSize: MemoryLayout<standfit_entity>.size) {
            return reject("an entity table \(problem)")
        }
        guard let id = CText.string(raw.id), PluginID.isValid(id) else {
            return reject("an entity has id \(CText.quoted(raw.id)), which is not a reverse-DNS id such as com.example.exercise")
        }
        guard let title = CText.string(raw.title), !title.isEmpty else {
            return reject("entity '\(id)' has no title; give it one (\"Exercise\")")
        }
        guard let lookup = raw.lookup, let match = raw.match, let suggest = raw.suggest else {
            return reject("entity '\(id)' lacks one of its lookup, match and suggest functions; set all three")
        }
        guard !entities.contains(where: { $0.record.id == id }) else {
            warnings.append("Plugin '\(pluginID)' (\(path)) registers entity '\(id)' twice; the first registration is kept.")
            return STANDFIT_ERR_DUPLICATE
        }
        let record = EntityRecord(id: id, title: title)
        let pluginID = pluginID
        // Rationale: the plugin's own pointer, handed back to its code on the main thread only.
        nonisolated(unsafe) let entityData = raw.plugin_data
        entities.append(EntityProvider(record: record, pluginID: pluginID))
        code.queries[id] = { query, locale in
            EntitySink.collect(entity: record, pluginID: pluginID, locale: locale, entityData: entityData) { sink in
                switch query {
                case .lookup(let id): id.withCString { lookup(sink, $0) }
                case .match(let text): text.withCString { match(sink, $0) }
                case .suggest: suggest(sink)
                }
            }
        }
        return STANDFIT_OK
    }

    /// Sets what `param` of `type` knows beyond its kind: where its values come from, or the
    /// question that asks for it.
    func describeParameter(_ function: String, type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?,
                           _ change: (inout ParameterSpec, String, String) -> String?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit(function) }
        guard let type = CText.string(type), let index = actions.firstIndex(where: { $0.type == type }) else {
            return reject("\(function) names action \(CText.quoted(type)), which it has not registered; register the action first")
        }
        guard let name = CText.string(param),
              let parameter = actions[index].parameters.firstIndex(where: { $0.name == name }) else {
            return reject("\(function) names parameter \(CText.quoted(param)) of '\(type)', which declares no such parameter")
        }
        if let problem = change(&actions[index].parameters[parameter], type, name) {
            return reject(problem)
        }
        return STANDFIT_OK
    }

    func setParameterEntity(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?, entity: UnsafePointer<CChar>?) -> Int32 {
        describeParameter("set_parameter_entity", type: type, param: param) { spec, type, name in
            guard spec.kind == .string else { return "parameter '\(name)' of '\(type)' is not a string, so it cannot name an entity" }
            guard let id = CText.string(entity), entities.contains(where: { $0.record.id == id }) else {
                return "set_parameter_entity names entity \(CText.quoted(entity)) for '\(type)', which this plugin has not registered; register the entity first"
            }
            spec.domain = .entity(id)
            return nil
        }
    }

    func setParameterChoices(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?,
                             values: UnsafePointer<standfit_entity_value>?, count: UInt32) -> Int32 {
        describeParameter("set_parameter_choices", type: type, param: param) { spec, type, name in
            guard spec.kind == .string else { return "parameter '\(name)' of '\(type)' is not a string, so it cannot have choices" }
            guard count > 0, let values else { return "the choices of '\(name)' of '\(type)' are empty; pass at least one value" }
            var choices: [EntityValue] = []
            var raw = UnsafeRawPointer(values)
            for index in 0..<Int(count) {
                switch EntityValueDescriptor.read(raw) {
                case .failure(let problem): return "choice \(index) of '\(name)' of '\(type)': \(problem.message)"
                case .success(let value):
                    guard !choices.contains(where: { $0.id == value.id }) else {
                        return "the choices of '\(name)' of '\(type)' list '\(value.id)' twice"
                    }
                    choices.append(value)
                }
                raw += Int(raw.load(as: standfit_abi_header.self).struct_size)
            }
            spec.domain = .choices(choices)
            return nil
        }
    }

    func setParameterPrompt(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?, prompt: UnsafePointer<CChar>?) -> Int32 {
        describeParameter("set_parameter_prompt", type: type, param: param) { spec, type, name in
            guard let text = CText.string(prompt), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                return "the prompt of '\(name)' of '\(type)' is empty or not UTF-8"
            }
            spec.prompt = text
            return nil
        }
    }

    func registerPhrase(type: UnsafePointer<CChar>?, language: UnsafePointer<CChar>?, phrase: UnsafePointer<CChar>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_phrase") }
        guard let type = CText.string(type), let index = actions.firstIndex(where: { $0.type == type }) else {
            return reject("register_phrase names action \(CText.quoted(type)), which it has not registered; register the action first")
        }
        guard let template = CText.string(phrase) else {
            return reject("a phrase of '\(type)' is NULL or not UTF-8")
        }
        let phrase = Phrase(language: CText.string(language).flatMap { $0.isEmpty ? nil : $0 }, template: template)
        let names = Set(actions[index].parameters.map(\.name))
        var words = 0
        for part in phrase.parts {
            switch part {
            case .word: words += 1
            case .placeholder(let name) where !names.contains(name):
                return reject("the phrase \"\(template)\" of '\(type)' has placeholder {\(name)}, which is not one of its parameters")
            case .placeholder: continue
            }
        }
        guard words > 0 else {
            return reject("the phrase \"\(template)\" of '\(type)' has no words besides placeholders; add one (\"log {count} {exercise}\")")
        }
        if !actions[index].phrases.contains(phrase) { actions[index].phrases.append(phrase) }
        return STANDFIT_OK
    }

    private func reject(_ problem: String) -> Int32 {
        warnings.append("Plugin '\(pluginID)' (\(path)): \(problem).")
        return STANDFIT_ERR_INVALID_ARGUMENT
    }

    /// The plugin's data directory as a C string owned by the registrar; created on first call.
    func dataDirectoryPath() -> UnsafePointer<CChar>? {
        if let dataDirectoryCString { return UnsafePointer(dataDirectoryCString) }
        do {
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            logger.error("Cannot create the data directory \(dataDirectory.path) of plugin '\(pluginID)': \(error.localizedDescription); check the permissions of \(dataDirectory.deletingLastPathComponent().path).")
            return nil
        }
        dataDirectoryCString = strdup(dataDirectory.path)
        return UnsafePointer(dataDirectoryCString)
    }

    private func refuseOutsideInit(_ function: String) -> Int32 {
        logger.warning("Plugin '\(pluginID)' (\(path)) called \(function) outside init; register everything inside init.")
        return STANDFIT_ERR_NOT_IN_INIT
    }
}
