/// The merged quick actions in menu order, each marked with whether it can run and whether the
/// display limit shows it.
///
/// Rules: the manifest's items first, in manifest order; then plugins' default static items, in
/// plugin load order; then dynamic items, in provider order. An item whose identity (type plus
/// userInfo) an earlier item already has is dropped: the manifest overrides a plugin's default,
/// and a static item overrides a dynamic twin. An item is available when a plugin handles its
/// type exactly or through a namespace. The first `limit` available items are shown.
public struct Menu: Sendable {
    public struct Entry: Sendable, Equatable {
        public var item: ShortcutItem
        public var available: Bool
        public var withinLimit: Bool
    }

    public var entries: [Entry]

    /// The items a menu shows: available and within the limit.
    public var visible: [Entry] { entries.filter { $0.available && $0.withinLimit } }

    /// The default number of items shown, as on iOS.
    public static let defaultLimit = 4

    public init(items: [ShortcutItem], isHandled: (String) -> Bool, limit: Int = Menu.defaultLimit) {
        var seen = Set<String>()
        var shown = 0
        entries = []
        for item in items where seen.insert(item.identity).inserted {
            let available = isHandled(item.type)
            let withinLimit = available && shown < limit
            if withinLimit { shown += 1 }
            entries.append(Entry(item: item, available: available, withinLimit: withinLimit))
        }
    }
}
