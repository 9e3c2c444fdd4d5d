import Foundation
import Glibc
import Testing
import TestSupport

/// Questions on Xfce's notification server (issue 51): xfce4-notifyd 0.7 has no `persistence`
/// and expires a notification after its own timeout (here 2 seconds, set in its settings), closes
/// a bubble clicked anywhere but on a button, and draws each bubble as a GTK window, read and
/// pressed here through AT-SPI (Tests/Fixtures/Desktop/bubbles.py) as a screen reader would.
extension DesktopBusTests {
    /// Xvfb, the accessibility bus, xfconfd (with xfce4-notifyd's timeout at 2 s) and
    /// xfce4-notifyd on `bus`, each in a group of its own; the returned environment is theirs
    /// (the display's). Nothing is left running when one does not start.
    static func startXfceNotifications(_ sandbox: HostSandbox, bus: SessionBus) throws -> (groups: [pid_t], environment: [String: String]) {
        let channel = sandbox.root.appendingPathComponent("config/xfce4/xfconf/xfce-perchannel-xml/xfce4-notifyd.xml")
        try FileManager.default.createDirectory(at: channel.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <channel name="xfce4-notifyd" version="1.0"><property name="expire-timeout" type="int" value="2"/></channel>

            """.utf8).write(to: channel)
        let display = try #require(VirtualDisplay.free(), "no free X display number")
        var environment = bus.environment
        environment["DISPLAY"] = ":\(display)"
        var groups: [pid_t] = []
        func start(_ tool: ExternalTool, _ arguments: [String], log: String) throws {
            guard let group = spawnInBackground(tool.path, arguments, environment: environment,
                                                log: sandbox.root.appendingPathComponent(log), ownGroup: true) else {
                groups.forEach(endGroup)
                throw Failure("\(tool.path) did not start")
            }
            groups.append(group)
        }
        try start(.xvfb, [":\(display)", "-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"], log: "xvfb.log")
        guard eventually(20, { runProcess(ExternalTool.xdotool.url, arguments: ["getdisplaygeometry"], environment: environment).status == 0 }) else {
            groups.forEach(endGroup)
            throw Failure("Xvfb did not start; \(sandbox.logs("xvfb.log"))")
        }
        try start(.atSpiBusLauncher, ["--launch-immediately"], log: "at-spi.log")
        try start(.xfconfd, [], log: "xfconfd.log")
        guard eventually(20, { bus.owner(of: "org.a11y.Bus") != nil && bus.owner(of: "org.xfce.Xfconf") != nil }) else {
            groups.forEach(endGroup)
            throw Failure("the accessibility bus or xfconfd did not take its name; \(sandbox.logs("at-spi.log", "xfconfd.log"))")
        }
        try start(.xfce4Notifyd, [], log: "xfce4-notifyd.log")
        guard eventually(20, { bus.owner(of: "org.freedesktop.Notifications") != nil }) else {
            groups.forEach(endGroup)
            throw Failure("xfce4-notifyd did not take the notification name; \(sandbox.logs("xfce4-notifyd.log"))")
        }
        return (groups, environment)
    }

    /// xfce4-notifyd's bubbles as a screen reader reads them: "summary | body | [buttons]",
    /// a body's line breaks as `\n`.
    static func xfceBubbles(_ environment: [String: String]) -> [String] {
        let read = runProcess(ExternalTool.python3.url, arguments: [Fixtures.directory.appendingPathComponent("Desktop/bubbles.py").path,
                                                                    "xfce4-notifyd", "read"], environment: environment)
        guard read.status == 0 else { return ["(bubbles.py: \(read))"] }
        return read.stdout.split(separator: "\n").map(String.init)
    }

    @Test("on xfce4-notifyd (no persistence): the question outlives xfce's own timeout with its three buttons, Push-Ups pressed through AT-SPI logs 20 push-ups and the outcome replaces the question; a question clicked away says 'Not run: no answer.' and logs nothing",
          .needs(.dbusDaemon, .gapplication, .xvfb, .xdotool, .atSpiBusLauncher, .xfconfd, .xfce4Notifyd, .python3, .pyatspi, .sqlite3))
    func onXfce() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        let (groups, environment) = try Self.startXfceNotifications(sandbox, bus: bus)
        defer { groups.reversed().forEach(endGroup) }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <20>}"]).status == 0)
        let question = "Log Exercise | Which exercise? | [Squats, Push-Ups, Plank]"
        #expect(eventually { Self.xfceBubbles(environment) == [question] }, "\(Self.xfceBubbles(environment)) \(Self.serverLog(sandbox))")
        // Past xfce4-notifyd's own 2-second timeout the question is still there: it asked for none.
        Thread.sleep(forTimeInterval: 3)
        #expect(Self.xfceBubbles(environment) == [question])
        #expect(Self.logged(sandbox) == "")

        let press = runProcess(ExternalTool.python3.url, arguments: [Fixtures.directory.appendingPathComponent("Desktop/bubbles.py").path,
                                                                     "xfce4-notifyd", "press", "Push-Ups"], environment: environment)
        #expect(press.status == 0, "\(press)")
        #expect(eventually { Self.logged(sandbox) == "pushups|20\n" }, "\(Self.serverLog(sandbox))")
        #expect(eventually { Self.xfceBubbles(environment) == ["Log Exercise | Logged 20 push-ups · +30 XP\\nAchievement unlocked: First log | []"] },
                "\(Self.xfceBubbles(environment))")

        // Asked again and clicked away: a click on the bubble, not on a button, closes it in xfce.
        #expect(eventually(10) { Self.xfceBubbles(environment) == [] }, "the outcome did not expire: \(Self.xfceBubbles(environment))")
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <5>}"]).status == 0)
        #expect(eventually { Self.xfceBubbles(environment) == ["Log Exercise | Which exercise? | [Push-Ups, Squats, Plank]"] },
                "\(Self.xfceBubbles(environment))")
        let window = runProcess(ExternalTool.xdotool.url, arguments: ["search", "--onlyvisible", "--class", "xfce4-notifyd"], environment: environment)
        let bubble = try #require(window.stdout.split(separator: "\n").last.map(String.init), "no bubble window: \(window)")
        #expect(runProcess(ExternalTool.xdotool.url, arguments: ["mousemove", "--window", bubble, "30", "30", "click", "1"], environment: environment).status == 0)
        #expect(eventually { Self.xfceBubbles(environment) == ["Log Exercise | Not run: no answer. | []"] }, "\(Self.xfceBubbles(environment))")
        #expect(Self.logged(sandbox) == "pushups|20\n")
    }
}
