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
    func reservation(against info: PluginInfo, types: [String]) -> String? {
        if let owner = reservedIDs[info.id] {
            return "Plugin \(info.path) has id '\(info.id)', which the bundled plugin at \(owner) uses; a plugin that is not bundled cannot take a bundled plugin's id, so remove it or change its id."
        }
        if let type = types.first(where: { reservedTypes[$0] != nil }), let owner = reservedTypes[type] {
            return "Plugin \(info.path) ('\(info.id)') registers shortcut type '\(type)', which belongs to the bundled plugin '\(owner.id)' (\(owner.path)); a plugin that is not bundled cannot take a bundled plugin's types, so remove it or change its type."
        }
        return nil
    }

    init(logger: Logger) {
        self.logger = logger
    }

    mutating func refuse(_ refusal: PluginRefusal) {
        set.refusals.append(refusal)
    }

    /// Adds one plugin's registrations; `info.types` becomes the types it keeps.
    mutating func add(info: PluginInfo, actions: [RegisteredAction], staticItems: [ShortcutItem],
                      provider: DynamicProvider?, entities: [EntityProvider] = [], warnings: [String]) {
        if let other = set.plugins.first(where: { $0.id == info.id }) {
            refuse(PluginRefusal(path: info.path, reason: "Plugin \(info.path) has id '\(info.id)', which \(other.path) already uses; remove one of the two."))
            return
        }
        var kept: [String] = []
        for action in actions {
            if let existing = set.registry.register(action) {
                let other = set.plugins.first { $0.id == existing.pluginID }?.path ?? "?"
                logger.warning("Shortcut type '\(action.type)' is registered by both '\(existing.pluginID)' (\(other)) and '\(info.id)' (\(info.path)); '\(existing.pluginID)' loaded first and keeps it, so remove one of the two or change its type.")
            } else {
                kept.append(action.type)
            }
        }
        for warning in warnings { logger.warning("\(warning)") }
        var info = info
        info.types = kept
        info.warnings = warnings
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
