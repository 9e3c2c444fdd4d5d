import Foundation
import Testing
import TestSupport

/// Questions on a real notification server (issue 51): dunst, which expires a notification after
/// its own timeout unless told otherwise, closes what was acted on, and answers a button through
/// its context menu (dmenu, here a script that picks a line).
extension DesktopBusTests {
    /// dunst on `bus`, on a virtual display of its own, with a 2-second timeout of its own and
    /// a context menu that picks the first line holding `pick`; ended with the returned group.
    static func startDunst(_ sandbox: HostSandbox, bus: SessionBus, pick: String) throws -> (dunst: pid_t, xvfb: pid_t) {
        // Its files first: nothing is left running when one cannot be written.
        let picker = sandbox.root.appendingPathComponent("pick.sh")
        let menu = sandbox.root.appendingPathComponent("menu.txt")
        try writeProgram("#!/bin/sh\ntee -a '\(menu.path)' | grep -m1 -F '\(pick)'\n", to: picker)
        let configuration = sandbox.root.appendingPathComponent("dunstrc")
        try Data("[global]\n    dmenu = \(picker.path)\n    timeout = 2\n".utf8).write(to: configuration)
        let display = try #require(VirtualDisplay.free(), "no free X display number")
        var environment = bus.environment
        environment["DISPLAY"] = ":\(display)"
        let xvfb = try #require(spawnInBackground(ExternalTool.xvfb.path, [":\(display)", "-screen", "0", "800x600x24", "-nolisten", "tcp", "-noreset"],
                                                  environment: environment, log: sandbox.root.appendingPathComponent("xvfb.log"), ownGroup: true))
        guard eventually(20, { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(display)") }),
              let dunst = spawnInBackground(ExternalTool.dunst.path, ["-config", configuration.path], environment: environment,
                                            log: sandbox.root.appendingPathComponent("dunst.log"), ownGroup: true) else {
            endGroup(xvfb)
            throw Failure("Xvfb or dunst did not start; \(sandbox.logs("xvfb.log", "dunst.log"))")
        }
        guard eventually(20, { bus.run(.dunstctl, ["count", "displayed"]).status == 0 }) else {
            endGroup(dunst)
            endGroup(xvfb)
            throw Failure("dunst did not take the notification name; \(sandbox.logs("dunst.log"))")
        }
        return (dunst, xvfb)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// dunst's history (what was closed, newest first) as "summary | body" lines.
    static func dunstHistory(_ bus: SessionBus) -> [String] {
        let listed = bus.run(.dunstctl, ["history"])
        guard let object = try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any],
              let data = (object["data"] as? [[[String: Any]]])?.first else { return ["(history: \(listed))"] }
        return data.map { note in
            let field = { (name: String) in ((note[name] as? [String: Any])?["data"] as? String) ?? "?" }
            return "\(field("summary")) | \(field("body"))"
        }
    }

    @Test("on dunst: a question outlives dunst's own timeout, a button pressed through dunst's menu runs with that value and the question is closed; a question closed unanswered says 'Not run: no answer.' and logs nothing",
          .needs(.dbusDaemon, .gapplication, .xvfb, .dunst, .dunstctl, .busctl, .sqlite3))
    func onDunst() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        let (dunst, xvfb) = try Self.startDunst(sandbox, bus: bus, pick: "Squats")
        defer {
            endGroup(dunst)
            endGroup(xvfb)
        }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <20>}"]).status == 0)
        #expect(eventually { bus.run(.dunstctl, ["count", "displayed"]).stdout == "1\n" })
        // Past dunst's own 2-second timeout, the question is still there (it asked for none).
        Thread.sleep(forTimeInterval: 3)
        #expect(bus.run(.dunstctl, ["count", "displayed"]).stdout == "1\n")
        #expect(Self.logged(sandbox) == "")
        // The button, pressed through dunst's context menu.
        #expect(bus.run(.dunstctl, ["context"]).status == 0)
        #expect(eventually { Self.logged(sandbox) == "squats|20\n" }, "\(Self.serverLog(sandbox))")
        let menu = try String(contentsOf: sandbox.root.appendingPathComponent("menu.txt"), encoding: .utf8)
        #expect(menu.contains("#Squats (Log Exercise) [") && menu.contains("#Push-Ups (Log Exercise) [") && menu.contains("#Plank (Log Exercise) ["), "\(menu)")
        // The question closed when answered; the outcome, an ordinary notification, expires as dunst's do.
        #expect(eventually { Self.dunstHistory(bus).contains("Log Exercise | Which exercise?") }, "\(Self.dunstHistory(bus))")
        #expect(eventually(10) { Self.dunstHistory(bus).first == "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log" },
                "\(Self.dunstHistory(bus))")
        #expect(bus.run(.dunstctl, ["count", "displayed"]).stdout == "0\n")

        // Asked again and closed by the user (dunstctl close, as a click on its close button).
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <5>}"]).status == 0)
        #expect(eventually { bus.run(.dunstctl, ["count", "displayed"]).stdout == "1\n" })
        #expect(bus.run(.dunstctl, ["close"]).status == 0)
        #expect(eventually(10) { Self.dunstHistory(bus).first == "Log Exercise | Not run: no answer." }, "\(Self.dunstHistory(bus))")
        #expect(Self.logged(sandbox) == "squats|20\n")
    }
}
