import Foundation
import Glibc
import Testing
import TestSupport

/// Questions on Xfce's notification server (issue 51): xfce4-notifyd 0.7 has no `persistence`
/// and expires a notification after its own timeout (here 2 seconds, set in its settings), closes
/// a bubble clicked anywhere but on a button, and draws each bubble as a GTK window, read and
/// pressed here through AT-SPI (Tests/Fixtures/Desktop/bubbles.py) as a screen reader would.
extension DesktopBusTests {
    /// Programs of a desktop started one after another on a virtual display of their own, each
    /// in a group of its own and awaited before the next; `end` ends them, newest first. A
    /// program that does not start or get ready ends them all and fails the test with its log.
    final class DesktopPrograms {
        let sandbox: HostSandbox
        private(set) var environment: [String: String]
        private var groups: [pid_t] = []

        /// Starts Xvfb for `bus`, with `environment` added to the bus's.
        init(_ sandbox: HostSandbox, bus: SessionBus, environment added: [String: String] = [:]) throws {
            self.sandbox = sandbox
            let display = try #require(VirtualDisplay.free(), "no free X display number")
            environment = bus.environment.merging(added) { $1 }
            environment["DISPLAY"] = ":\(display)"
            let environment = environment
            try start(.xvfb, [":\(display)", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"], log: "xvfb.log") {
                runProcess(ExternalTool.xdotool.url, arguments: ["getdisplaygeometry"], environment: environment).status == 0
            }
        }

        func start(_ tool: ExternalTool, _ arguments: [String], log: String, within seconds: Double = 30, ready: () -> Bool) throws {
            guard let group = spawnInBackground(tool.path, arguments, environment: environment,
                                                log: sandbox.root.appendingPathComponent(log), ownGroup: true) else {
                end()
                throw Failure("\(tool.path) did not start")
            }
            groups.append(group)
            guard eventually(seconds, ready) else {
                end()
                throw Failure("\(tool.path) was not ready within \(Int(seconds)) s; \(sandbox.logs(log))")
            }
        }

        func end() {
            groups.reversed().forEach(endGroup)
            groups = []
        }

        /// Tests/Fixtures/Desktop/bubbles.py for `application` with `arguments`.
        func bubbles(_ application: String, _ arguments: String...) -> ProcessResult {
            runProcess(ExternalTool.python3.url, arguments: [Fixtures.directory.appendingPathComponent("Desktop/bubbles.py").path, application] + arguments,
                       environment: environment)
        }

        /// `application`'s bubbles as a screen reader reads them: "summary | body | [buttons]",
        /// a body's line breaks as `\n`.
        func read(_ application: String) -> [String] {
            let read = bubbles(application, "read")
            guard read.status == 0 else { return ["(bubbles.py: \(read))"] }
            return read.stdout.split(separator: "\n").map(String.init)
        }

        func xdotool(_ arguments: String...) -> ProcessResult {
            runProcess(ExternalTool.xdotool.url, arguments: arguments, environment: environment)
        }
    }

    /// Xvfb, the accessibility bus, xfconfd (with xfce4-notifyd's timeout at 2 s) and
    /// xfce4-notifyd on `bus`.
    static func startXfceNotifications(_ sandbox: HostSandbox, bus: SessionBus) throws -> DesktopPrograms {
        let channel = sandbox.root.appendingPathComponent("config/xfce4/xfconf/xfce-perchannel-xml/xfce4-notifyd.xml")
        try FileManager.default.createDirectory(at: channel.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <channel name="xfce4-notifyd" version="1.0"><property name="expire-timeout" type="int" value="2"/></channel>

            """.utf8).write(to: channel)
        let desktop = try DesktopPrograms(sandbox, bus: bus)
        try desktop.start(.atSpiBusLauncher, ["--launch-immediately"], log: "at-spi.log") { bus.owner(of: "org.a11y.Bus") != nil }
        try desktop.start(.xfconfd, [], log: "xfconfd.log") { bus.owner(of: "org.xfce.Xfconf") != nil }
        try desktop.start(.xfce4Notifyd, [], log: "xfce4-notifyd.log") { bus.owner(of: "org.freedesktop.Notifications") != nil }
        return desktop
    }

    @Test("on xfce4-notifyd (no persistence): the question outlives xfce's own timeout with its three buttons, Push-Ups pressed through AT-SPI logs 20 push-ups and the outcome replaces the question; a question clicked away says 'Not run: no answer.' and logs nothing",
          .needs(.dbusDaemon, .gapplication, .xvfb, .xdotool, .atSpiBusLauncher, .xfconfd, .xfce4Notifyd, .python3, .pyatspi, .sqlite3))
    func onXfce() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        let desktop = try Self.startXfceNotifications(sandbox, bus: bus)
        defer { desktop.end() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <20>}"]).status == 0)
        let question = "Log Exercise | Which exercise? | [Squats, Push-Ups, Plank]"
        #expect(eventually { desktop.read("xfce4-notifyd") == [question] }, "\(desktop.read("xfce4-notifyd")) \(Self.serverLog(sandbox))")
        // Past xfce4-notifyd's own 2-second timeout the question is still there: it asked for none.
        Thread.sleep(forTimeInterval: 3)
        #expect(desktop.read("xfce4-notifyd") == [question])
        #expect(Self.logged(sandbox) == "")

        let press = desktop.bubbles("xfce4-notifyd", "press", "Push-Ups")
        #expect(press.status == 0, "\(press)")
        #expect(eventually { Self.logged(sandbox) == "pushups|20\n" }, "\(Self.serverLog(sandbox))")
        #expect(eventually { desktop.read("xfce4-notifyd") == ["Log Exercise | Logged 20 push-ups · +30 XP\\nAchievement unlocked: First log | []"] },
                "\(desktop.read("xfce4-notifyd"))")

        // Asked again and clicked away: a click on the bubble, not on a button, closes it in xfce.
        #expect(eventually(10) { desktop.read("xfce4-notifyd") == [] }, "the outcome did not expire: \(desktop.read("xfce4-notifyd"))")
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <5>}"]).status == 0)
        #expect(eventually { desktop.read("xfce4-notifyd") == ["Log Exercise | Which exercise? | [Push-Ups, Squats, Plank]"] },
                "\(desktop.read("xfce4-notifyd"))")
        let window = desktop.xdotool("search", "--onlyvisible", "--class", "xfce4-notifyd")
        let bubble = try #require(window.stdout.split(separator: "\n").last.map(String.init), "no bubble window: \(window)")
        #expect(desktop.xdotool("mousemove", "--window", bubble, "30", "30", "click", "1").status == 0)
        #expect(eventually { desktop.read("xfce4-notifyd") == ["Log Exercise | Not run: no answer. | []"] }, "\(desktop.read("xfce4-notifyd"))")
        #expect(Self.logged(sandbox) == "pushups|20\n")
    }
}
