import Foundation
import Glibc
import Testing
import TestSupport

/// KDE Plasma's KRunner 5.27 itself (issue 51), on a virtual display and the test's bus: the query
/// is set through KRunner's own `org.kde.krunner.App.query`, as Alt+Space and typing would; what
/// KRunner was answered is read in the server's log (a server the bus starts, at debug level),
/// and Enter in KRunner's window runs its first result.
extension DesktopBusTests {
    @Test("in KRunner 5.27: 'squats' finds 'Log 20 squats' (the count of the last log) and Enter logs it; 'log 5 burpees' finds 'Log 5 burpees' and Enter logs 5; 'log 5000 squats' and 'log -5 squats' find nothing",
          .needs(.dbusDaemon, .gdbus, .xvfb, .xdotool, .krunner, .sqlite3))
    func inKRunner() throws {
        let (sandbox, bus) = try Self.sandboxOnBus(["STANDFIT_LOG_LEVEL": "debug"])
        defer { bus.stop() }
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("export", "krunner", "--install").status == 0)

        let display = try #require(VirtualDisplay.free(), "no free X display number")
        var environment = bus.environment
        environment["DISPLAY"] = ":\(display)"
        environment["QT_QPA_PLATFORM"] = "xcb"
        func x(_ arguments: String...) -> ProcessResult { runProcess(ExternalTool.xdotool.url, arguments: arguments, environment: environment) }
        let xvfb = try #require(spawnInBackground(ExternalTool.xvfb.path, [":\(display)", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
                                                  environment: environment, log: sandbox.root.appendingPathComponent("xvfb.log"), ownGroup: true))
        defer { endGroup(xvfb) }
        try #require(eventually(20) { x("getdisplaygeometry").status == 0 }, "Xvfb did not start; \(sandbox.logs("xvfb.log"))")
        let krunner = try #require(spawnInBackground(ExternalTool.krunner.path, ["--daemon"], environment: environment,
                                                     log: sandbox.root.appendingPathComponent("krunner.log"), ownGroup: true))
        defer { endGroup(krunner) }
        try #require(eventually(30) { bus.owner(of: "org.kde.krunner") != nil }, "KRunner did not start; \(sandbox.logs("krunner.log"))")

        /// What KRunner was answered for `query`, typed into it: the server's log line of that
        /// search, after "from SENDER: ".
        func ask(_ query: String) -> String {
            let asked = bus.run(.gdbus, ["call", "--session", "--dest", "org.kde.krunner", "--object-path", "/App",
                                         "--method", "org.kde.krunner.App.query", query])
            guard asked.status == 0 else { return "(query: \(asked))" }
            var answer = "(no search for '\(query)' in the server's log)"
            _ = eventually(30) {
                guard let line = Self.serverLog(sandbox).split(separator: "\n").last(where: { $0.contains("KRunner Match '\(query)' from ") }),
                      let from = line.range(of: "' from "), let colon = line[from.upperBound...].range(of: ": ") else { return false }
                answer = String(line[colon.upperBound...])
                return true
            }
            return answer
        }
        /// Enter in KRunner's window, again only while no run was logged (the results may
        /// still be on their way when it is first pressed).
        func enter(logging expected: String) -> Bool {
            for _ in 0..<3 {
                let runs = Self.serverLog(sandbox).components(separatedBy: "KRunner Run '").count
                // KRunner shows its window again for each query, later under load: wait for it
                // (it was three half-second tries, which a loaded run could miss).
                var shown: String?
                _ = eventually(10) {
                    shown = x("search", "--onlyvisible", "--class", "krunner").stdout.split(separator: "\n").first.map(String.init)
                    return shown != nil
                }
                guard let window = shown else { continue }
                _ = x("windowfocus", "--sync", window)
                _ = x("key", "--window", window, "Return")
                if eventually(5, { Self.serverLog(sandbox).components(separatedBy: "KRunner Run '").count > runs }) { break }
            }
            return eventually(10) { Self.logged(sandbox) == expected }
        }

        #expect(ask("squats") == "Log 20 squats", "\(sandbox.logs("krunner.log"))")
        #expect(enter(logging: "squats|20\nsquats|20\n"), "\(Self.logged(sandbox)) \(Self.serverLog(sandbox))")
        #expect(ask("log 5 burpees") == "Log 5 burpees")
        #expect(enter(logging: "squats|20\nsquats|20\nburpees|5\n"), "\(Self.logged(sandbox)) \(Self.serverLog(sandbox))")
        #expect(ask("log 5000 squats") == "no match")
        #expect(ask("log -5 squats") == "no match")
        #expect(Self.logged(sandbox) == "squats|20\nsquats|20\nburpees|5\n")
    }
}
