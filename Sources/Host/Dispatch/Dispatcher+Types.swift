import HostModel
import HostIntents

/// Which types run, and what a typed name or an item's type runs.
extension Dispatcher {
    public static func runnableTypes(registry: ActionRegistry, routines: [Routine]) -> [String] {
        registry.actions.filter { !$0.isNamespace }.map(\.type) + routines.map(\.type)
    }

    /// Whether a menu item of `type` runs (the menu prunes it otherwise, and doctor says so): a
    /// plugin handles it exactly or by namespace, a routine has it, or it is a static item of
    /// the app's own prefix that runs by its last component (step 5; dynamic items name the
    /// types their providers' plugins handle). The manifest's fallback does not count.
    public static func runs(_ type: String, registry: ActionRegistry, routines: [Routine], staticItemTypes: Set<String>) -> Bool {
        target(of: type, registry: registry, routines: routines, staticItemTypes: staticItemTypes) != nil
    }

    /// The type a menu item of `type` runs, as `runs` decides it: `type` itself when a plugin
    /// handles it or a routine has it, the registered type of its last component for a static
    /// item of the app's own prefix (step 5), nil when nothing runs it. The menu counts two items
    /// that run the same type with the same userInfo as one quick action.
    public static func target(of type: String, registry: ActionRegistry, routines: [Routine], staticItemTypes: Set<String>) -> String? {
        if registry.handler(for: type) != nil || routines.contains(where: { $0.type == type }) { return type }
        guard staticItemTypes.contains(type) else { return nil }
        return byLastComponent(of: type, among: runnableTypes(registry: registry, routines: routines))
    }

    /// The one type of `runnable` whose last component is `type`'s, case-insensitively, when
    /// `type` is a full type (has a dot) of another prefix; nil when none or several are.
    public static func byLastComponent(of type: String, among runnable: [String]) -> String? {
        guard type.contains(".") else { return nil }
        let last = Suggester.lastComponent(of: type).lowercased()
        let matches = Set(runnable.filter { Suggester.lastComponent(of: $0).lowercased() == last })
        return matches.count == 1 ? matches.first : nil
    }
}
