import Foundation

/// Builds the plugin's C entry table; call it from the one exported function:
///
/// ```swift
/// @_cdecl("standfit_plugin_entry_v1")
/// public func standfitPluginEntry() -> UnsafePointer<standfit_plugin_entry>? { export(Greeter.self) }
/// ```
///
/// The table and its strings live for the life of the process, as the ABI requires.
public func export<P: Plugin>(_ plugin: P.Type) -> UnsafePointer<standfit_plugin_entry>? {
    if let entry = SDKState.entry { return entry }
    SDKState.pluginType = plugin
    let entry = UnsafeMutablePointer<standfit_plugin_entry>.allocate(capacity: 1)
    entry.initialize(to: standfit_plugin_entry(
        abi: .current(for: standfit_plugin_entry.self),
        id: UnsafePointer(strdup(P.id)),
        name: UnsafePointer(strdup(P.name)),
        version: UnsafePointer(strdup(P.version)),
        init: pluginInit,
        get_extension: nil
    ))
    SDKState.entry = UnsafePointer(entry)
    return SDKState.entry
}

extension standfit_abi_header {
    /// The header for a table of type `T` compiled against this SDK's ABI.
    static func current<T>(for _: T.Type) -> standfit_abi_header {
        standfit_abi_header(
            abi_major: UInt32(STANDFIT_ABI_MAJOR), abi_minor: UInt32(STANDFIT_ABI_MINOR),
            struct_size: UInt32(MemoryLayout<T>.size))
    }
}

/// `init` of the entry table: registers every action, static item and the provider.
/// Idempotent: the prepared handlers are made once and registered again on a second call.
private let pluginInit: @convention(c) (UnsafePointer<standfit_host>?) -> Int32 = { table in
    guard let table, let plugin = SDKState.pluginType else { return STANDFIT_ERR_INVALID_ARGUMENT }
    let host = PluginHost(table: table)
    SDKState.host = host
    let prepared: [PreparedAction]
    if let cached = SDKState.preparedActions {
        prepared = cached
    } else {
        do {
            prepared = try plugin.actions.map(PreparedAction.init)
        } catch {
            host.log(.error, "\(error)")
            return STANDFIT_ERR_INVALID_ARGUMENT
        }
        SDKState.preparedActions = prepared
    }
    // A refused registration (a duplicate type, say) is reported by the host and does not stop
    // the plugin's other actions from loading.
    for action in prepared {
        _ = table.pointee.register_action(table, action.descriptor)
    }
    IntentsRegistration.register(prepared, host: host)
    registerTraits(prepared, host: host)
    registerRanges(prepared, host: host)
    registerParameterTraits(prepared, host: host)
    declarePrograms(plugin.programs, host: host)
    for item in plugin.staticItems {
        do {
            _ = try item.withCItem { table.pointee.register_static_item(table, $0) }
        } catch {
            host.log(.error, "Static item '\(item.type)' was not registered: \(error)")
        }
    }
    if plugin is any DynamicItemsProvider.Type {
        var provider = standfit_dynamic_provider(
            abi: .current(for: standfit_dynamic_provider.self), provide: provideItems)
        _ = table.pointee.register_dynamic_provider(table, &provider)
    }
    return STANDFIT_OK
}

/// `provide` of the dynamic provider: asks the Swift provider and hands its items to the sink.
private let provideItems: @convention(c) (UnsafePointer<standfit_item_sink>?) -> Int32 = { sink in
    guard let sink, let provider = SDKState.pluginType as? any DynamicItemsProvider.Type else {
        return STANDFIT_ERR_INVALID_ARGUMENT
    }
    let locale = sink.pointee.locale.map { String(cString: $0) } ?? "en"
    // A host without standfit.item-lifetime/1 keeps every item until the plugin runs again.
    let lifetime = SDKState.host?.hostExtension(STANDFIT_EXT_ITEM_LIFETIME, as: standfit_item_lifetime_ext.self)
    do {
        for item in try provider.dynamicItems(ProviderContext(locale: locale)) {
            let status = try item.withCItem { cItem in
                if let until = item.validUntil, until.timeIntervalSince1970.isFinite, let addUntil = lifetime?.pointee.add_until {
                    // Seconds since 1970, whole, within what Int64 holds (a distant date is "never").
                    let seconds = min(max(until.timeIntervalSince1970.rounded(.up), -9e18), 9e18)
                    return addUntil(sink, cItem, Int64(seconds))
                }
                return sink.pointee.add(sink, cItem)
            }
            if status != STANDFIT_OK { return status }
        }
        return STANDFIT_OK
    } catch {
        SDKState.host?.log(.error, "Dynamic items failed: \(error)")
        return STANDFIT_ERR_INVALID_ARGUMENT
    }
}

extension ShortcutItem {
    /// Calls `body` with a C view of the item, valid only during the call.
    func withCItem<R>(_ body: (UnsafePointer<standfit_item>) throws -> R) throws -> R {
        let strings = CStringArena()
        var item = standfit_item(
            abi: .current(for: standfit_item.self),
            type: strings.copy(type), title: strings.copy(title),
            subtitle: strings.copy(subtitle), icon: strings.copy(icon),
            user_info_json: strings.copy(try userInfoJSON()))
        return try withUnsafePointer(to: &item) { try body($0) }
    }
}

/// C copies of Swift strings, freed together when the arena goes away.
final class CStringArena {
    private var pointers: [UnsafeMutablePointer<CChar>] = []

    func copy(_ string: String?) -> UnsafePointer<CChar>? {
        guard let string, let pointer = strdup(string) else { return nil }
        pointers.append(pointer)
        return UnsafePointer(pointer)
    }

    deinit {
        pointers.forEach { free($0) }
    }
}

/// Gives the host each `@Parameter(range:)` through `standfit.parameter-checks/1`, so that it
/// refuses a value outside it before the action runs. A host without it leaves the check to the
/// SDK (`rangeRefusal`).
private func registerRanges(_ prepared: [PreparedAction], host: PluginHost) {
    let ranged = prepared.flatMap { action in action.parameters.compactMap { parameter in
        parameter.value.range.map { (action.actionType.type, parameter.name, $0) }
    } }
    guard !ranged.isEmpty else { return }
    guard let checks = host.hostExtension(STANDFIT_EXT_PARAMETER_CHECKS, as: standfit_parameter_checks_ext.self) else {
        host.log(.debug, "This host offers no \(STANDFIT_EXT_PARAMETER_CHECKS); the SDK checks parameter ranges itself.")
        return
    }
    for (type, name, range) in ranged {
        _ = checks.pointee.set_parameter_range(host.table, type, name, range.lowerBound, range.upperBound)
    }
}

/// Tells the host, through `standfit.parameter-traits/1`, which parameters' values are not
/// suggestion material. A host without it donates every value, as before.
private func registerParameterTraits(_ prepared: [PreparedAction], host: PluginHost) {
    let unsuggested = prepared.flatMap { action in
        action.parameters.filter { !$0.value.isSuggestible }.map { (action.actionType.type, $0.name) }
    }
    guard !unsuggested.isEmpty else { return }
    guard let traits = host.hostExtension(STANDFIT_EXT_PARAMETER_TRAITS, as: standfit_parameter_traits_ext.self) else {
        host.log(.debug, "This host offers no \(STANDFIT_EXT_PARAMETER_TRAITS); every value is donated.")
        return
    }
    for (type, name) in unsuggested {
        _ = traits.pointee.set_parameter_traits(host.table, type, name, UInt32(STANDFIT_PARAM_TRAIT_NOT_SUGGESTIBLE))
    }
}

/// Declares, through `standfit.programs/1`, the programs the plugin starts. A host without it
/// has no such rule to keep.
private func declarePrograms(_ programs: [String], host: PluginHost) {
    guard !programs.isEmpty else { return }
    guard let declared = host.hostExtension(STANDFIT_EXT_PROGRAMS, as: standfit_programs_ext.self) else {
        host.log(.debug, "This host offers no \(STANDFIT_EXT_PROGRAMS); nothing to declare.")
        return
    }
    for program in programs {
        _ = declared.pointee.declare_program(host.table, program)
    }
}

/// Tells the host, through `standfit.action-traits/2` (else `/1`), which actions are not
/// suggestion material and which are confirmed before they run. A host without /2 runs every
/// action unconfirmed; one without either also donates and suggests every action, as before.
private func registerTraits(_ prepared: [PreparedAction], host: PluginHost) {
    let traited = prepared.compactMap { action -> (String, UInt32)? in
        let bits = (action.actionType.isSuggestible ? 0 : UInt32(STANDFIT_TRAIT_NOT_SUGGESTIBLE))
            | (action.actionType.confirmsBeforeRunning ? UInt32(STANDFIT_TRAIT_CONFIRM) : 0)
        return bits == 0 ? nil : (action.actionType.type, bits)
    }
    guard !traited.isEmpty else { return }
    if let traits = host.hostExtension(STANDFIT_EXT_ACTION_TRAITS_2, as: standfit_action_traits_ext.self) {
        for (type, bits) in traited { _ = traits.pointee.set_action_traits(host.table, type, bits) }
        return
    }
    guard let traits = host.hostExtension(STANDFIT_EXT_ACTION_TRAITS, as: standfit_action_traits_ext.self) else {
        host.log(.debug, "This host offers no \(STANDFIT_EXT_ACTION_TRAITS); every action may be suggested.")
        return
    }
    host.log(.debug, "This host offers no \(STANDFIT_EXT_ACTION_TRAITS_2); no action is confirmed before it runs.")
    for (type, bits) in traited where bits & UInt32(STANDFIT_TRAIT_NOT_SUGGESTIBLE) != 0 {
        _ = traits.pointee.set_action_traits(host.table, type, UInt32(STANDFIT_TRAIT_NOT_SUGGESTIBLE))
    }
}
