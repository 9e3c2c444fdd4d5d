/// Every registered shortcut type, in registration order.
///
/// Policy for a type registered twice: the first registration wins. Plugins load in search-path
/// order, then by file name within a directory, so which one wins is stable and documented; the
/// later plugin still loads without that type, and a warning names both plugins.
public struct ActionRegistry {
    public private(set) var actions: [RegisteredAction] = []
    private var indexByType: [String: Int] = [:]

    public init(_ actions: [RegisteredAction] = []) {
        for action in actions { _ = register(action) }
    }

    /// Adds `action`, or answers the registration it collides with.
    public mutating func register(_ action: RegisteredAction) -> RegisteredAction? {
        if let existing = indexByType[action.type] { return actions[existing] }
        indexByType[action.type] = actions.count
        actions.append(action)
        return nil
    }

    /// Takes `phrase` from the action registered for `type` (a phrase another app owns).
    public mutating func removePhrase(_ phrase: Phrase, of type: String) {
        guard let index = indexByType[type] else { return }
        actions[index].phrases.removeAll { $0 == phrase }
    }

    /// The action registered for exactly `type`.
    public func action(exactly type: String) -> RegisteredAction? {
        indexByType[type].map { actions[$0] }
    }

    /// The namespace handler with the longest prefix that covers `type`.
    public func namespaceHandler(for type: String) -> RegisteredAction? {
        actions
            .filter { $0.isNamespace && type.hasPrefix($0.type.dropLast()) && type.count > $0.type.count - 1 }
            .max { $0.type.count < $1.type.count }
    }

    /// The handler for `type`: exact, else a namespace handler.
    public func handler(for type: String) -> RegisteredAction? {
        action(exactly: type) ?? namespaceHandler(for: type)
    }
}
