import Foundation
import HostMenu
import HostModel
import Testing

@Suite("Menu", .timeLimit(.minutes(10)))
struct MenuTests {
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

    @Test("dynamic items interleave by rank, script list first at equal rank")
    func dynamicRank() {
        let script = DynamicSource(source: "script", pluginVersion: nil, items: [
            ShortcutItem(type: "a.one", title: "S1", userInfo: ["s": .int(1)], source: .dynamic, origin: "script"),
            ShortcutItem(type: "a.one", title: "S2", userInfo: ["s": .int(2)], source: .dynamic, origin: "script"),
        ])
        let provider = DynamicSource(source: "p", pluginVersion: "1", items: [
            ShortcutItem(type: "a.two", title: "P1", source: .dynamic, origin: "p"),
            ShortcutItem(type: "a.two", title: "P2", userInfo: ["n": .int(2)], source: .dynamic, origin: "p"),
        ])
        let menu = menu([], [script, provider], limit: 10)
        #expect(menu.entries.map(\.item.title) == ["S1", "P1", "S2", "P2"])
        #expect(menu.entries.map(\.rank) == [1, 1, 2, 2])
    }

    @Test("a provider whose plugin is gone or changed is pruned whole")
    func prunedProvider() {
        let provider = DynamicSource(source: "old", pluginVersion: "1", items: [
            ShortcutItem(type: "a.one", title: "Stale", userInfo: ["x": .int(1)], source: .dynamic, origin: "old"),
        ])
        let menu = menu([], [provider], prune: { $0.source == "old" ? "plugin old is gone" : nil })
        #expect(menu.visible.isEmpty)
        #expect(menu.entries.map(\.pruned) == ["plugin old is gone"])
    }

    @Test("dynamic sources rank the script list first, then providers in plugin load order; stale ones are pruned with the reason")
    func sourceOrderAndStaleness() {
        func source(_ name: String, _ version: String?, _ type: String) -> DynamicSource {
            DynamicSource(source: name, pluginVersion: version, items: [ShortcutItem(type: type, title: type, source: .dynamic)])
        }
        let menu = Menu(staticItems: [],
                        dynamic: [source("p2", "1", "a.two"), source("gone", "1", "a.one"), source("script", nil, "ns.x"),
                                  source("p1", "1", "a.one"), source("old", "1", "a.two")],
                        plugins: [(id: "p1", version: "1"), (id: "p2", version: "1"), (id: "old", version: "2")],
                        isHandled: { registry.handler(for: $0) != nil }, limit: 10)
        #expect(menu.visible.map(\.item.title) == ["ns.x", "a.one", "a.two"])
        #expect(menu.entries.compactMap(\.pruned) == [
            "plugin old changed version (1 → 2) since it provided it; run 'standfit-host refresh'",
            "plugin gone, which provided it, is gone",
        ])
    }

    @Test("the first registration of a type wins")
    func duplicatePolicy() {
        var registry = ActionRegistry()
        let first = RegisteredAction(type: "a.b", title: "First", pluginID: "one")
        let second = RegisteredAction(type: "a.b", title: "Second", pluginID: "two")
        #expect(registry.register(first) == nil)
        #expect(registry.register(second)?.pluginID == "one")
        #expect(registry.action(exactly: "a.b")?.title == "First")
    }
}
