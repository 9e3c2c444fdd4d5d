import Logging
import HostModel

/// Puts plugins together in load order: a second plugin with an id already taken is refused,
/// and a type two plugins register stays with the one that loaded first. The bundled plugins'
/// ids and types are reserved before any plugin is added: a plugin that is not bundled and
/// claims one is refused whole, wherever it is on the search path, so that no user plugin can
/// answer for StandFit or take its data directory.
struct PluginSetBuilder {
    private(set) var set = PluginSet()
    let logger: Logger
    /// The run's words: its warnings are logged, and plugins' warnings kept, in its language.
    let text: HostText
    /// The bundled plugins' ids and types, with the plugin that owns each (id and path).
    private var reservedIDs: [String: String] = [:]
    private var reservedTypes: [String: (id: String, path: String)] = [:]

    /// Reserves a bundled plugin's id and types.
    mutating func reserve(_ record: PluginRecord, path: String) {
        reservedIDs[record.id] = path
        for action in record.actions where reservedTypes[action.type] == nil {
            reservedTypes[action.type] = (record.id, path)
        }
    }

    /// Why a plugin that is not bundled may not be added, or nil when it may.
    func reservation(against info: PluginInfo, types: [String]) -> HostText.Phrase? {
        if let owner = reservedIDs[info.id] {
            return HostText.Phrase("plugin.bundledID", ["path": info.path, "id": info.id, "owner": owner])
        }
        if let type = types.first(where: { reservedTypes[$0] != nil }), let owner = reservedTypes[type] {
            return HostText.Phrase("plugin.bundledType", ["path": info.path, "id": info.id, "type": type, "owner": owner.id,
                                                        "ownerPath": owner.path])
        }
        return nil
    }

    init(logger: Logger, language: String = "en") {
        self.logger = logger
        text = HostText(language: language)
    }

    mutating func refuse(_ refusal: PluginRefusal) {
        set.refusals.append(refusal)
    }

    /// Adds one plugin's registrations; `info.types` becomes the types it keeps, and its
    /// `warnings` are said in the run's language.
    mutating func add(info: PluginInfo, actions: [RegisteredAction], staticItems: [ShortcutItem],
                      provider: DynamicProvider?, entities: [EntityProvider] = [], warnings: [HostText.Phrase]) {
        if let other = set.plugins.first(where: { $0.id == info.id }) {
            refuse(PluginRefusal(path: info.path, sentence: HostText.Phrase("plugin.idTaken", ["path": info.path, "id": info.id, "other": other.path])))
            return
        }
        var kept: [String] = []
        for action in actions {
            if let existing = set.registry.register(action) {
                let other = set.plugins.first { $0.id == existing.pluginID }?.path ?? "?"
                let warning = text("plugin.typeTaken", ["type": action.type, "first": existing.pluginID, "firstPath": other,
                                                        "id": info.id, "path": info.path])
                logger.warning("\(warning)")
            } else {
                kept.append(action.type)
            }
        }
        let said = warnings.map { $0.text(text) }
        for warning in said { logger.warning("\(warning)") }
        var info = info
        info.types = kept
        info.warnings = said
        set.plugins.append(info)
        set.staticItems += staticItems
        if let provider { set.providers.append(provider) }
        for entity in entities where !set.entities.contains(where: { $0.record.id == entity.record.id && $0.pluginID == entity.pluginID }) {
            set.entities.append(entity)
        }
    }

    mutating func add(_ plugin: LoadedPlugin) {
        add(info: plugin.info, actions: plugin.actions, staticItems: plugin.staticItems,
            provider: plugin.provider, entities: plugin.entities, warnings: plugin.warnings)
    }
}
