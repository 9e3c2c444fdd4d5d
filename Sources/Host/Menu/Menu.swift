import HostModel

/// The merged quick actions in menu order, with why each is where it is.
///
/// Rules, in order:
/// 1. Static items first, in manifest order, then the plugins' default items in plugin load
///    order. A static item whose identity (type plus userInfo) an earlier static item has is
///    shadowed by it: the manifest overrides a plugin's default.
/// 2. Then dynamic items by rank: the n-th item of every source comes before any source's
///    (n+1)-th, and at equal rank the script list (`dynamic set`) comes before the providers,
///    which follow plugin load order. So each source's best item gets a place first.
/// 3. A dynamic item with the identity of a static item takes that item's place and replaces
///    its title, subtitle and icon (it is the newer word on the same action: "View Streak"
///    becomes "View Streak — 5 days"); with the identity of an earlier dynamic item it is
///    shadowed by that one.
/// 4. Pruned, never shown: items whose type no plugin handles (exactly or by namespace), and
///    every item of a provider whose plugin is gone or changed version since it answered.
/// 5. The first `limit` remaining items are shown; the rest are cut.
public struct Menu: Sendable {
    public struct Entry: Sendable, Equatable {
        public var item: ShortcutItem
        /// The dynamic rank (1-based, within its source); nil for a static item.
        public var rank: Int?
        /// Why the item is never shown, or nil.
        public var pruned: String?
        public var withinLimit: Bool
        /// Items with the same identity that this one shadowed or replaced.
        public var shadowed: [ShortcutItem]

        public var available: Bool { pruned == nil }
    }

    public var entries: [Entry]
    public var limit: Int

    /// The items a menu shows: not pruned and within the limit.
    public var visible: [Entry] { entries.filter { $0.available && $0.withinLimit } }

    /// The default number of items shown, as on iOS.
    public static let defaultLimit = HostConfig.defaultMenuLimit

    /// The menu of `staticItems` and the stored `dynamic` sources, by the menu's rules: the
    /// script list first, then providers in plugin load order (`plugins`: id and version, in
    /// load order); a provider's items are pruned when its plugin is gone or changed version.
    public init(staticItems: [ShortcutItem], dynamic: [DynamicSource], plugins: [(id: String, version: String)],
                isHandled: (String) -> Bool, limit: Int) {
        var order: [String: Int] = [:], versions: [String: String] = [:]
        for (index, plugin) in plugins.enumerated() where order[plugin.id] == nil {
            order[plugin.id] = index
            versions[plugin.id] = plugin.version
        }
        let rank = { (source: DynamicSource) in source.source == DynamicSource.script ? -1 : (order[source.source] ?? Int.max) }
        let sources = dynamic.sorted { (rank($0), $0.source) < (rank($1), $1.source) }
        self.init(staticItems: staticItems, dynamic: sources, isHandled: isHandled,
                  prune: { Menu.staleness(of: $0, versions: versions) }, limit: limit)
    }

    /// Why all of `source`'s items are pruned, or nil: its plugin is gone, or changed version
    /// since it answered. The script list is never stale.
    public static func staleness(of source: DynamicSource, versions: [String: String]) -> String? {
        guard source.source != DynamicSource.script else { return nil }
        guard let version = versions[source.source] else {
            return "plugin \(source.source), which provided it, is gone"
        }
        if let stored = source.pluginVersion, stored != version {
            return "plugin \(source.source) changed version (\(stored) → \(version)) since it provided it; run 'standfit-host refresh'"
        }
        return nil
    }

    /// - Parameters:
    ///   - dynamic: each source's items, script list first, then providers in load order.
    ///   - prune: why a source's items are all pruned (its plugin is gone or changed), or nil.
    public init(staticItems: [ShortcutItem], dynamic: [DynamicSource] = [],
                isHandled: (String) -> Bool, prune: (DynamicSource) -> String? = { _ in nil },
                limit: Int = Menu.defaultLimit) {
        self.limit = limit
        entries = []
        var index: [ShortcutItem.Identity: Int] = [:]
        for item in staticItems {
            if let earlier = index[item.identity] {
                entries[earlier].shadowed.append(item)
            } else {
                index[item.identity] = entries.count
                entries.append(Entry(item: item, rank: nil, pruned: nil, withinLimit: false, shadowed: []))
            }
        }
        var ranked: [(rank: Int, order: Int, item: ShortcutItem)] = []
        var prunedEntries: [Entry] = []
        for (order, source) in dynamic.enumerated() {
            let reason = prune(source)
            for (offset, item) in source.items.enumerated() {
                if let reason {
                    prunedEntries.append(Entry(item: item, rank: offset + 1, pruned: reason, withinLimit: false, shadowed: []))
                } else {
                    ranked.append((offset + 1, order, item))
                }
            }
        }
        ranked.sort { ($0.rank, $0.order) < ($1.rank, $1.order) }
        for (rank, _, item) in ranked {
            if let earlier = index[item.identity] {
                if entries[earlier].rank == nil {
                    // Rule 3: the dynamic item takes the static item's place.
                    let replaced = entries[earlier].item
                    entries[earlier].item = item
                    entries[earlier].rank = rank
                    entries[earlier].shadowed.insert(replaced, at: 0)
                } else {
                    entries[earlier].shadowed.append(item)
                }
            } else {
                index[item.identity] = entries.count
                entries.append(Entry(item: item, rank: rank, pruned: nil, withinLimit: false, shadowed: []))
            }
        }
        entries += prunedEntries
        var shown = 0
        for position in entries.indices {
            if entries[position].pruned == nil && !isHandled(entries[position].item.type) {
                entries[position].pruned = "no plugin handles \(entries[position].item.type)"
            }
            guard entries[position].available else { continue }
            entries[position].withinLimit = shown < limit
            if shown < limit { shown += 1 }
        }
    }

    /// Adds `item` at the end when the menu has room for it and shows nothing like it.
    public mutating func offer(_ item: ShortcutItem) {
        guard visible.count < limit, !entries.contains(where: { $0.item.identity == item.identity }) else { return }
        entries.append(Entry(item: item, rank: nil, pruned: nil, withinLimit: true, shadowed: []))
    }
}
