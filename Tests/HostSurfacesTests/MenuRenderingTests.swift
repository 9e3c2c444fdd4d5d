import Foundation
import HostMenu
import HostModel
import HostSurfaces
import Testing

/// A menu as the terminal shows it (`list`, `list --all --explain`): the rules of HostMenu, said.
@Suite("Menu rendering", .timeLimit(.minutes(10)))
struct MenuRenderingTests {
    let registry = ActionRegistry([
        RegisteredAction(type: "a.one", title: "", pluginID: "p"),
        RegisteredAction(type: "a.two", title: "", pluginID: "p"),
        RegisteredAction(type: "ns.*", title: "", pluginID: "p"),
    ])

    func menu(_ statics: [ShortcutItem], _ dynamic: [DynamicSource] = [], limit: Int = 3,
              prune: @escaping (DynamicSource) -> String? = { _ in nil }) -> Menu {
        Menu(staticItems: statics, dynamic: dynamic, isHandled: { registry.handler(for: $0) != nil },
             prune: prune, limit: limit)
    }

    @Test("static order, identity, pruning of unhandled types and the limit")
    func rules() {
        let menu = menu([
            ShortcutItem(type: "a.one", title: "One", origin: "/m/Info.plist"),
            ShortcutItem(type: "gone.x", title: "Gone", origin: "/m/Info.plist"),
            ShortcutItem(type: "a.two", title: "Two", userInfo: ["k": .int(1)], origin: "/m/Info.plist"),
            ShortcutItem(type: "a.two", title: "Two again", userInfo: ["k": .int(1)], origin: "p"),
            ShortcutItem(type: "a.two", title: "Two, other", userInfo: ["k": .int(2)], origin: "p"),
            ShortcutItem(type: "ns.deep.thing", title: "Namespaced", origin: "p"),
        ])
        #expect(menu.entries.map(\.item.title) == ["One", "Gone", "Two", "Two, other", "Namespaced"])
        #expect(menu.entries.map(\.available) == [true, false, true, true, true])
        #expect(menu.entries[2].shadowed.map(\.title) == ["Two again"])
        #expect(menu.visible.map(\.item.title) == ["One", "Two", "Two, other"])
        #expect(menu.textLines(all: true, timeZone: TimeZone(identifier: "UTC")!) == [
            "1. One  (a.one)",
            "-  Gone  (gone.x)  pruned: no plugin handles gone.x",
            "2. Two  (a.two)",
            "3. Two, other  (a.two)",
            "-  Namespaced  (ns.deep.thing)  cut: beyond the limit of 3",
        ])
    }

    @Test("a dynamic twin replaces a static item in place; a later dynamic twin is shadowed")
    func replacement() {
        let statics = [
            ShortcutItem(type: "a.one", title: "Log", origin: "p"),
            ShortcutItem(type: "a.two", title: "View Streak", origin: "p"),
        ]
        let provider = DynamicSource(source: "p", pluginVersion: "1", items: [
            ShortcutItem(type: "a.one", title: "Log Squats", userInfo: ["e": .string("squats")], source: .dynamic, origin: "p"),
            ShortcutItem(type: "a.two", title: "View Streak", subtitle: "1 day", source: .dynamic, origin: "p"),
        ])
        let script = DynamicSource(source: "script", pluginVersion: nil, items: [
            ShortcutItem(type: "a.two", title: "Streak!", source: .dynamic, origin: "script"),
        ])
        let menu = menu(statics, [script, provider], limit: 2)
        #expect(menu.entries.map(\.item.title) == ["Log", "Streak!", "Log Squats"])
        #expect(menu.entries[1].shadowed.map(\.title) == ["View Streak", "View Streak"])
        #expect(menu.textLines(all: false, explain: true, timeZone: TimeZone(identifier: "UTC")!) == [
            "1. Log  (a.one)",
            "     default item of plugin p",
            "2. Streak!  (a.two)",
            "     dynamic, from the script list (dynamic set), rank 1; replaces 'View Streak' (default item of plugin p); shadows 'View Streak' (dynamic, from plugin p's provider)",
            "-  Log Squats  (a.one)  cut: beyond the limit of 2",
            "     dynamic, from plugin p's provider, rank 1",
        ])
    }

    @Test("each app has a menu of its own: the limit counts per app, apps in the order of their first item, a manifest item of the app's prefix is the same quick action as the type it runs")
    func menuPerApp() {
        let mine = MenuApp(id: "p", name: "Mine"), other = MenuApp(id: "q", name: "Other")
        let statics = [
            ShortcutItem(type: "q.hello", title: "Hello", origin: "q"),
            ShortcutItem(type: "app.one", title: "One (manifest)", origin: "/m/Info.plist"),
            ShortcutItem(type: "a.two", title: "Two", origin: "p"),
        ]
        let provider = DynamicSource(source: "p", pluginVersion: "1", items: [
            ShortcutItem(type: "a.one", title: "One — live", source: .dynamic, origin: "p"),
            ShortcutItem(type: "a.two", title: "Two — live", userInfo: ["n": .int(2)], source: .dynamic, origin: "p"),
        ])
        let menu = Menu(staticItems: statics, dynamic: [provider], isHandled: { _ in true },
                        canonicalType: { $0 == "app.one" ? "a.one" : $0 },
                        app: { $0.type.hasPrefix("q.") ? other : mine }, limit: 2)
        // Other's one item does not take one of Mine's two places; One's live twin takes the
        // manifest item's place.
        #expect(menu.entries.map(\.item.title) == ["Hello", "One — live", "Two", "Two — live"])
        #expect(menu.visible.map(\.item.title) == ["Hello", "One — live", "Two"])
        #expect(menu.apps == [other, mine])
        #expect(menu.only(mine).entries.map(\.item.title) == ["One — live", "Two", "Two — live"])
        #expect(menu.textLines(all: true, timeZone: TimeZone(identifier: "UTC")!) == [
            "Other (q)",
            "1. Hello  (q.hello)",
            "",
            "Mine (p)",
            "2. One — live  (a.one)",
            "3. Two  (a.two)",
            "-  Two — live  (a.two)  cut: beyond the limit of 2",
        ])
        // A suggestion takes a slot of its own after its app's items, even where they fill the
        // limit, and never hides one of them; an item the menu shows already is not suggested.
        var offered = menu
        offered.offer(ShortcutItem(type: "q.bye", title: "Bye", source: .suggestion), app: other)
        offered.offer(ShortcutItem(type: "a.three", title: "Three", source: .suggestion), app: mine)
        offered.offer(ShortcutItem(type: "a.one", title: "One again", source: .suggestion), app: mine)
        #expect(offered.visible.map(\.item.title) == ["Hello", "Bye", "One — live", "Two", "Three"])
    }
}
