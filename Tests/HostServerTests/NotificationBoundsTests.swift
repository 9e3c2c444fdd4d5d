import HostSurfaces
@testable import HostServer
import Testing

/// What the server sends a notification server, whatever a plugin said (issue 50).
@Suite("Notifications within bounds", .timeLimit(.minutes(10)))
struct NotificationBoundsTests {
    @Test("a 300 KB message, a 100 KB title and labels of 100 KB with markup and line breaks are cut with an ellipsis, each label on one line; keys and the rest are kept")
    func bounded() {
        let markup = "<a href=\"file:///etc/passwd\">x</a><img src=\"/etc/passwd\">\n" + String(repeating: "y", count: 100_000)
        let hostile = DesktopNotification(summary: String(repeating: "T", count: 100_000), body: String(repeating: "x", count: 300_000),
                                          icon: "list-add", buttons: [.init(key: "default", label: markup), .init(key: "squats", label: "Squats")])
        let shown = DesktopBus.bounded(hostile)
        #expect(shown.summary == String(repeating: "T", count: 119) + "…")
        #expect(shown.body == String(repeating: "x", count: 999) + "…")
        #expect(shown.buttons.map(\.key) == ["default", "squats"])
        #expect(shown.buttons[0].label.count == 48 && shown.buttons[0].label.hasSuffix("…") && !shown.buttons[0].label.contains("\n"))
        #expect(shown.buttons[1].label == "Squats")
        #expect(shown.icon == "list-add")
        // A label is plain text to every notification server: markup in it is shown as written.
        let plain = DesktopBus.bounded(DesktopNotification(summary: "s", body: "<b>b</b>", icon: "list-add",
                                                           buttons: [.init(key: "1", label: "<b>Squats</b> & more")]))
        #expect(plain.buttons[0].label == "<b>Squats</b> & more")
    }
}
