import Foundation
import Testing
import TestSupport

/// Questions on KDE Plasma 5.27's own notification server (issue 51): plasmashell, which keeps
/// notifications (`persistence`), takes typed replies (`inline-reply`) and pops a notification
/// down after its own timeout (here 4 seconds, set in plasmanotifyrc). Its popups are read and
/// pressed through AT-SPI (Tests/Fixtures/Desktop/bubbles.py); a reply is typed as a user types
/// it, after a click on Reply.
extension DesktopBusTests {
    @Test("on Plasma 5.27: the question outlives Plasma's popup timeout with Squats, Push-Ups, Plank and Reply; Push-Ups pressed logs 20 push-ups; Close says 'Not run: no answer.'; '12 squats' typed after Reply logs 12 squats",
          .needs(.dbusDaemon, .gdbus, .gapplication, .xvfb, .xdotool, .atSpiBusLauncher, .kactivitymanagerd, .plasmashell, .python3, .pyatspi, .sqlite3))
    func onPlasma() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        let settings = sandbox.root.appendingPathComponent("config/plasmanotifyrc")
        try FileManager.default.createDirectory(at: settings.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[Notifications]\nPopupTimeout=4000\n".utf8).write(to: settings)
        let desktop = try DesktopPrograms(sandbox, bus: bus, environment: [
            "QT_QPA_PLATFORM": "xcb", "QT_QUICK_BACKEND": "software", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1", "QT_ACCESSIBILITY": "1",
        ])
        defer { desktop.end() }
        try desktop.start(.atSpiBusLauncher, ["--launch-immediately"], log: "at-spi.log") { bus.owner(of: "org.a11y.Bus") != nil }
        try desktop.start(.kactivitymanagerd, [], log: "kactivitymanagerd.log") { bus.owner(of: "org.kde.ActivityManager") != nil }
        try desktop.start(.plasmashell, ["--no-respawn"], log: "plasmashell.log", within: 90) {
            bus.owner(of: "org.freedesktop.Notifications") != nil
        }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)

        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <20>}"]).status == 0)
        let question = "Log Exercise | Which exercise? | [Squats, Push-Ups, Plank, Reply]"
        #expect(eventually(30) { desktop.read("plasmashell") == [question] }, "\(desktop.read("plasmashell")) \(Self.serverLog(sandbox))")
        // Past Plasma's own 4-second popup timeout the question is still there: it is resident.
        Thread.sleep(forTimeInterval: 5)
        #expect(desktop.read("plasmashell") == [question])
        #expect(Self.logged(sandbox) == "")
        let pressed = desktop.bubbles("plasmashell", "press", "Push-Ups")
        #expect(pressed.status == 0, "\(pressed)")
        #expect(eventually { Self.logged(sandbox) == "pushups|20\n" }, "\(Self.serverLog(sandbox))")
        #expect(eventually { desktop.read("plasmashell") == ["Log Exercise | Logged 20 push-ups · +30 XP\\nAchievement unlocked: First log | []"] },
                "\(desktop.read("plasmashell"))")

        // Asked again and closed with the popup's own Close button.
        #expect(eventually(10) { desktop.read("plasmashell") == [] }, "the outcome did not pop down: \(desktop.read("plasmashell"))")
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <5>}"]).status == 0)
        #expect(eventually(30) { desktop.read("plasmashell") == ["Log Exercise | Which exercise? | [Push-Ups, Squats, Plank, Reply]"] },
                "\(desktop.read("plasmashell"))")
        #expect(desktop.bubbles("plasmashell", "press", "Close").status == 0)
        #expect(eventually { desktop.read("plasmashell") == ["Log Exercise | Not run: no answer. | []"] }, "\(desktop.read("plasmashell"))")
        #expect(Self.logged(sandbox) == "pushups|20\n")

        // Asked again and answered in words: Reply clicked, "12 squats" typed, Enter.
        #expect(eventually(10) { desktop.read("plasmashell") == [] }, "\(desktop.read("plasmashell"))")
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <5>}"]).status == 0)
        #expect(eventually(30) { desktop.read("plasmashell") == ["Log Exercise | Which exercise? | [Push-Ups, Squats, Plank, Reply]"] },
                "\(desktop.read("plasmashell"))")
        let reply = desktop.bubbles("plasmashell", "where", "Reply").stdout.split(separator: " ").map(String.init)
        try #require(reply.count == 2, "no Reply button: \(desktop.read("plasmashell"))")
        #expect(desktop.xdotool("mousemove", reply[0], reply[1].trimmingCharacters(in: .whitespacesAndNewlines), "click", "1").status == 0)
        #expect(eventually { desktop.read("plasmashell").first?.contains("Send") == true }, "\(desktop.read("plasmashell"))")
        #expect(desktop.xdotool("type", "--delay", "30", "12 squats").status == 0)
        #expect(desktop.xdotool("key", "Return").status == 0)
        #expect(eventually { Self.logged(sandbox) == "pushups|20\nsquats|12\n" }, "\(Self.serverLog(sandbox))")
        #expect(eventually { desktop.read("plasmashell") == ["Log Exercise | Logged 12 squats · +12 XP | []"] }, "\(desktop.read("plasmashell"))")
    }
}
