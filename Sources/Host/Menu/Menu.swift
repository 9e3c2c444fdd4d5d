import HostModel

/// The app a menu item belongs to. As on iOS, where each app's icon has its own quick actions,
/// every plugin is an app with a menu of its own, and so are the user's routines ("Shortcuts").
public struct MenuApp: Hashable, Sendable {
    /// The plugin's id, or `MenuApp.routinesID` for the user's routines.
    public var id: String
    /// What a person reads: the plugin's name, or "Shortcuts".
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The id of the routines' app: their types are `user.NAME`.
    public static let routinesID = "user"
}

/// The merged quick actions in menu order, with why each is where it is.
///
/// Each item belongs to one app (`MenuApp`): a plugin's default and provided items to that
/// plugin, a manifest item or a script-list item to the plugin whose action it runs (an iOS
/// manifest's `$(PRODUCT_BUNDLE_IDENTIFIER).viewstreak` to the app that handles `viewstreak`),
/// a routine to the routines' app. Every app has a menu of its own, so one app's items never
/// push another app's off the menu; apps follow in the order their first item comes.
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
///    shadowed by that one. An item's identity is the type it runs (`canonicalType`: a manifest
///    item named with the app's own prefix runs the plugin's type) and its userInfo.
/// 4. Pruned, never shown: items whose type no plugin handles (exactly or by namespace), and
///    every item of a provider whose plugin is gone or changed version since it answered.
/// 5. The first `limit` remaining items of each app are shown; the rest are cut.
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
        /// The app whose menu it is in.
        public var app: MenuApp

        public var available: Bool { pruned == nil }
    }

    /// Every item, grouped by app (apps in the order their first item comes), each app's in
    /// its menu order.
    public var entries: [Entry]
    /// How many items each app's menu shows.
    public var limit: Int

    /// The items a menu shows: not pruned and within their app's limit, grouped by app.
    public var visible: [Entry] { entries.filter { $0.available && $0.withinLimit } }

    /// The apps with at least one item, in menu order.
    public var apps: [MenuApp] {
        var seen = Set<MenuApp>()
        return entries.map(\.app).filter { seen.insert($0).inserted }
    }

    /// The app of each item shown, by the item's identity: what a surface that lists the
    /// shown items alone (rofi, KRunner) heads or labels them with.
    public var appsOfVisibleItems: [ShortcutItem.Identity: MenuApp] {
        Dictionary(visible.map { ($0.item.identity, $0.app) }, uniquingKeysWith: { first, _ in first })
    }

    /// The app of the single-app menus of tests and of callers that group nothing.
    public static let anyApp = MenuApp(id: "", name: "")

    /// Only `app`'s items.
    public func only(_ app: MenuApp) -> Menu {
        var menu = self
        menu.entries = entries.filter { $0.app == app }
        return menu
    }

    /// The default number of items shown, as on iOS.
    public static let defaultLimit = HostConfig.defaultMenuLimit

    /// The menu of `staticItems` and the stored `dynamic` sources, by the menu's rules: the
    /// script list first, then providers in plugin load order (`plugins`: id and version, in
    /// load order); a provider's items are pruned when its plugin is gone or changed version.
    public init(staticItems: [ShortcutItem], dynamic: [DynamicSource], plugins: [(id: String, version: String)],
                isHandled: (String) -> Bool, canonicalType: (String) -> String = { $0 },
                app: (ShortcutItem) -> MenuApp = { _ in Menu.anyApp }, limit: Int, language: String = "en") {
        var order: [String: Int] = [:], versions: [String: String] = [:]
        for (index, plugin) in plugins.enumerated() where order[plugin.id] == nil {
            order[plugin.id] = index
            versions[plugin.id] = plugin.version
        }
        let rank = { (source: DynamicSource) in source.source == DynamicSource.script ? -1 : (order[source.source] ?? Int.max) }
        let sources = dynamic.sorted { (rank($0), $0.source) < (rank($1), $1.source) }
        self.init(staticItems: staticItems, dynamic: sources, isHandled: isHandled, canonicalType: canonicalType,
                  app: app, prune: { Menu.staleness(of: $0, versions: versions, language: language) }, limit: limit, language: language)
    }

    /// Why all of `source`'s items are pruned, or nil: its plugin is gone, or changed version
    /// since it answered. The script list is never stale.
    public static func staleness(of source: DynamicSource, versions: [String: String], language: String = "en") -> String? {
        guard source.source != DynamicSource.script else { return nil }
        let text = HostText(language: language)
        guard let version = versions[source.source] else {
            return text("list.pluginGone", ["plugin": source.source])
        }
        if let stored = source.pluginVersion, stored != version {
            return text("list.pluginChanged", ["plugin": source.source, "stored": stored, "version": version])
        }
        return nil
    }

    /// - Parameters:
    ///   - dynamic: each source's items, script list first, then providers in load order.
    ///   - canonicalType: the type an item's type runs (the identity's type): itself, or for a
    ///     manifest item named with the app's own prefix the plugin's type it runs.
    ///   - app: the app an item belongs to.
    ///   - prune: why a source's items are all pruned (its plugin is gone or changed), or nil.
    public init(staticItems: [ShortcutItem], dynamic: [DynamicSource] = [],
                isHandled: (String) -> Bool, canonicalType: (String) -> String = { $0 },
                app: (ShortcutItem) -> MenuApp = { _ in Menu.anyApp },
                prune: (DynamicSource) -> String? = { _ in nil }, limit: Int = Menu.defaultLimit, language: String = "en") {
        self.limit = limit
        entries = []
        func identity(_ item: ShortcutItem) -> ShortcutItem.Identity {
            ShortcutItem.Identity(type: canonicalType(item.type), userInfo: item.userInfo)
        }
        func entry(_ item: ShortcutItem, _ rank: Int?, _ pruned: String?) -> Entry {
            Entry(item: item, rank: rank, pruned: pruned, withinLimit: false, shadowed: [], app: app(item))
        }
        var index: [ShortcutItem.Identity: Int] = [:]
        for item in staticItems {
            if let earlier = index[identity(item)] {
                entries[earlier].shadowed.append(item)
            } else {
                index[identity(item)] = entries.count
                entries.append(entry(item, nil, nil))
            }
        }
        var ranked: [(rank: Int, order: Int, item: ShortcutItem)] = []
        var prunedEntries: [Entry] = []
        for (order, source) in dynamic.enumerated() {
            let reason = prune(source)
            for (offset, item) in source.items.enumerated() {
                if let reason {
                    prunedEntries.append(entry(item, offset + 1, reason))
                } else {
                    ranked.append((offset + 1, order, item))
                }
            }
        }
        ranked.sort { ($0.rank, $0.order) < ($1.rank, $1.order) }
        for (rank, _, item) in ranked {
            if let earlier = index[identity(item)] {
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
                index[identity(item)] = entries.count
                entries.append(entry(item, rank, nil))
            }
        }
        entries += prunedEntries
        // Each app's items together, apps in the order their first item comes (a stable sort).
        var appOrder: [MenuApp: Int] = [:]
        for entry in entries where appOrder[entry.app] == nil { appOrder[entry.app] = appOrder.count }
        entries = entries.enumerated()
            .sorted { (appOrder[$0.element.app]!, $0.offset) < (appOrder[$1.element.app]!, $1.offset) }
            .map(\.element)
        var shown: [MenuApp: Int] = [:]
        for position in entries.indices {
            if entries[position].pruned == nil && !isHandled(entries[position].item.type) {
                entries[position].pruned = HostText(language: language)("list.unhandled", ["type": entries[position].item.type])
            }
            guard entries[position].available else { continue }
            let count = shown[entries[position].app, default: 0]
            entries[position].withinLimit = count < limit
            shown[entries[position].app] = count + 1
        }
    }

    /// Adds the suggestion `item` to `app`'s menu in a slot of its own after its other items,
    /// as iOS shows a Siri Suggestion apart from the app's own quick actions: beyond the limit,
    /// so it never takes an app item's place; not when any menu shows an item like it.
    public mutating func offer(_ item: ShortcutItem, app: MenuApp) {
        guard !visible.contains(where: { $0.item.identity == item.identity }) else { return }
        let position = (entries.lastIndex { $0.app == app }).map { $0 + 1 } ?? entries.endIndex
        entries.insert(Entry(item: item, rank: nil, pruned: nil, withinLimit: true, shadowed: [], app: app), at: position)
    }
}
