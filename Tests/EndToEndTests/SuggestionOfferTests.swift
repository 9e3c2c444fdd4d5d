import Foundation
import Testing
import TestSupport

/// Suggestions that come to the user (issue 34): `suggestions offer`, which the timer of
/// `suggestions on` runs, shows the suggestion of the moment as a notification with three
/// buttons, over a private bus with the test notification server pressing one.
@Suite("Suggestions as notifications", .timeLimit(.minutes(10)), .serialized)
struct SuggestionOfferTests {
    /// A sandbox on a private bus whose notification server presses `press`, with push-ups
    /// logged at 09:05 (Amsterdam) on four mornings, 18–21 November.
    static func morningHabit(press: String?) throws -> (HostSandbox, SessionBus, URL) {
        let (sandbox, bus, record) = try DesktopBusTests.sandboxWithNotifications(press: press)
        logMornings(sandbox)
        return (sandbox, bus, record)
    }

    /// Ten push-ups logged at 09:05 (Amsterdam) on four mornings, 18–21 November.
    static func logMornings(_ sandbox: HostSandbox) {
        for day in 18...21 {
            #expect(at(sandbox, "2026-11-\(day)T08:05:00Z").run("run", "logexercise", "exercise=pushups", "count=10").status == 0)
        }
    }

    static func at(_ sandbox: HostSandbox, _ instant: String) -> HostSandbox {
        var moved = sandbox
        moved.extraEnvironment["STANDFIT_NOW"] = instant
        return moved
    }

    static let offer = "Log 10 Push-Ups? | You usually do this around 09:05. | list-add | 1 | org.standfit.Host | 1=Log,2=Not now,3=Stop suggesting this"

    @Test("at the usual time the offer shows 'Log 10 Push-Ups?' with Log, Not now and Stop suggesting this; Log runs it (cold: the command waits for the answer)",
          .needs(.dbusDaemon, .python3, .pythonGI, .sqlite3))
    func logCold() throws {
        let (sandbox, bus, record) = try Self.morningHabit(press: "Log")
        defer { bus.stop() }
        let nine = Self.at(sandbox, "2026-11-22T08:00:00Z")
        #expect(nine.run("suggestions", "offer") == ProcessResult(status: 0, stdout: "Offered: Log 10 Push-Ups (usually around 09:05).\n", stderr: ""))
        #expect(eventually { DesktopBusTests.shown(record).count == 2 })
        #expect(DesktopBusTests.shown(record).first == Self.offer)
        // The run's own answer (its XP hangs on the day it runs: the warm path's server runs
        // a press on the desktop's clock, not the test's moved one).
        #expect(DesktopBusTests.shown(record).last?.hasPrefix("Log Exercise | Logged 10 push-ups · +") == true)
        #expect(DesktopBusTests.logged(sandbox) == String(repeating: "pushups|10\n", count: 5))
        #expect(nine.run("suggestions").stdout == """
            Suggestions come as notifications: off; 'standfit-host suggestions on' turns them on (quiet hours 22:00-08:00, at most 3 a day).
            Offered today: 1.

            """)
    }

    @Test("warm: the server shows the offer and answers its buttons; the command's bytes and status are the cold one's",
          .needs(.dbusDaemon, .python3, .pythonGI, .sqlite3))
    func logWarm() throws {
        var (sandbox, bus, record) = try Self.morningHabit(press: "Log")
        defer { bus.stop() }
        #expect(sandbox.server.start(environment: sandbox.environment, log: sandbox.root.appendingPathComponent("server.log")) == nil)
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "required"
        #expect(Self.at(sandbox, "2026-11-22T08:00:00Z").run("suggestions", "offer")
            == ProcessResult(status: 0, stdout: "Offered: Log 10 Push-Ups (usually around 09:05).\n", stderr: ""))
        #expect(eventually { DesktopBusTests.logged(sandbox) == String(repeating: "pushups|10\n", count: 5) })
        #expect(eventually { DesktopBusTests.shown(record).count == 2 })
        #expect(DesktopBusTests.shown(record).first == Self.offer)
    }

    @Test("twelve offers at the same moment (timers that fire together) show the suggestion once; the others say it was offered already",
          .needs(.dbusDaemon, .python3, .pythonGI, .sqlite3))
    func twelveAtOnce() throws {
        let (sandbox, bus, record) = try Self.morningHabit(press: "Not now")
        defer { bus.stop() }
        let nine = Self.at(sandbox, "2026-11-22T08:00:00Z")
        if let failure = nine.serveWarmPath() { Issue.record("\(failure)") }
        let outputs = (0..<12).map { sandbox.root.appendingPathComponent("offer-\($0).out") }
        nine.checkingHandBacks("suggestions offer (twelve at once)") {
            let pids = outputs.compactMap { output in
                spawnInBackground("/bin/sh", ["-c", "exec \"$0\" suggestions offer > \"$1\"", Fixtures.hostBinary.path, output.path],
                                  environment: nine.environment, log: nil)
            }
            #expect(pids.count == 12)
            for pid in pids {
                var status: Int32 = 0
                #expect(waitpid(pid, &status, 0) == pid && status == 0)
            }
        }
        let said = outputs.map { (try? String(contentsOf: $0, encoding: .utf8)) ?? "" }.sorted()
        #expect(said == Array(repeating: "Nothing offered at 09:00: Log 10 Push-Ups was offered today already.\n", count: 11) + ["Offered: Log 10 Push-Ups (usually around 09:05).\n"])
        #expect(eventually(20) { DesktopBusTests.shown(record) == [Self.offer] })
    }

    @Test("Not now: not again that day, offered again the next morning",
          .needs(.dbusDaemon, .python3, .pythonGI, .sqlite3))
    func notNow() throws {
        let (sandbox, bus, record) = try Self.morningHabit(press: "Not now")
        defer { bus.stop() }
        #expect(Self.at(sandbox, "2026-11-22T08:00:00Z").run("suggestions", "offer").stdout == "Offered: Log 10 Push-Ups (usually around 09:05).\n")
        #expect(Self.at(sandbox, "2026-11-22T08:15:00Z").run("suggestions", "offer").stdout
            == "Nothing offered at 09:15: Log 10 Push-Ups was offered today already.\n")
        #expect(Self.at(sandbox, "2026-11-23T07:55:00Z").run("suggestions", "offer").stdout == "Offered: Log 10 Push-Ups (usually around 09:05).\n")
        #expect(DesktopBusTests.shown(record) == [Self.offer, Self.offer])
        // Nothing ran.
        #expect(DesktopBusTests.logged(sandbox) == String(repeating: "pushups|10\n", count: 4))
    }

    @Test("Stop suggesting this: remembered, shown by suggestions, donations and suggest --explain, gone from suggest (and so the menu), until unmute",
          .needs(.dbusDaemon, .python3, .pythonGI, .sqlite3))
    func stopSuggesting() throws {
        let (sandbox, bus, record) = try Self.morningHabit(press: "Stop suggesting this")
        defer { bus.stop() }
        let nine = Self.at(sandbox, "2026-11-22T08:00:00Z")
        #expect(nine.run("suggestions", "offer").stdout == "Offered: Log 10 Push-Ups (usually around 09:05).\n")
        #expect(eventually { nine.run("suggestions").stdout.contains("Not suggested") })
        let muted = """
            Not suggested (you chose 'Stop suggesting this'; 'standfit-host suggestions unmute TYPE' undoes it):
              Log 10 Push-Ups (com.standfit.logexercise count=10 exercise=pushups), since 2026-11-22 09:00:00

            """
        #expect(nine.run("suggestions").stdout == """
            Suggestions come as notifications: off; 'standfit-host suggestions on' turns them on (quiet hours 22:00-08:00, at most 3 a day).
            Offered today: 1.

            """ + muted)
        #expect(nine.run("donations").stdout == """
            2026-11-18 09:05:00  com.standfit.logexercise  count=10  exercise=pushups
            2026-11-19 09:05:00  com.standfit.logexercise  count=10  exercise=pushups
            2026-11-20 09:05:00  com.standfit.logexercise  count=10  exercise=pushups
            2026-11-21 09:05:00  com.standfit.logexercise  count=10  exercise=pushups


            """ + muted)
        #expect(nine.run("suggest", "--explain").stdout == """
            Nothing to suggest yet: suggestions come from the runs you make (see 'standfit-host donations').

            The menu shows the best that ran at least twice, on two days, and usually runs within an hour of now (an action with two times of day is two suggestions). As a notification ('standfit-host suggestions on' turns that on), one that ran at least 3 times on two days, within 15 minutes of its usual time (quiet hours 22:00-08:00, at most 3 a day, each once a day at each time of day, not when it ran today around then).

            """ + muted)
        #expect(nine.run("suggest").stdout == "Nothing to suggest yet: suggestions come from the runs you make (see 'standfit-host donations').\n")
        #expect(Self.at(sandbox, "2026-11-23T08:00:00Z").run("suggestions", "offer").stdout
            == "Nothing offered at 09:00: no suggestion usually runs around now ('standfit-host suggest' shows when each does, 'standfit-host suggestions' what you turned down).\n")
        // Under --json, when it was turned down is ISO 8601 with the user's offset.
        let status = nine.run("suggestions", "--json")
        let mutes = (try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["muted"] as? [[String: Any]]
        #expect(mutes?.count == 1 && (mutes?.first?["mutedAt"] as? String)?.wholeMatch(of: /2026-11-2\dT\d\d:\d\d:\d\d\+01:00/) != nil, "\(status)")
        #expect(nine.run("suggestions", "unmute", "logexercise", "exercise=squats") == ProcessResult(status: 2, stdout: "",
            stderr: "standfit-host: Nothing of com.standfit.logexercise was muted; 'standfit-host suggestions' lists what is.\n"))
        #expect(nine.run("suggestions", "unmute", "logexercise") == ProcessResult(status: 0,
            stdout: "Suggesting again: Log 10 Push-Ups (com.standfit.logexercise count=10 exercise=pushups).\n", stderr: ""))
        #expect(nine.run("suggest").stdout == """
            1. Log 10 Push-Ups  (com.standfit.logexercise count=10 exercise=pushups)  score 4.98
               ran 4 times (frequency 2.18); last 23 h ago (recency 0.71); usually around 09:05, now 09:00 (time of day 0.96)

            """)
        #expect(DesktopBusTests.shown(record) == [Self.offer])
        #expect(DesktopBusTests.logged(sandbox) == String(repeating: "pushups|10\n", count: 4))
        #expect(sandbox.stateIntegrity() == "ok")
    }

    @Test("quiet hours, the daily cap and a run already made today (by hand or by a schedule), with a moved clock; nothing shown for any",
          .needs(.dbusDaemon, .python3, .pythonGI, .sqlite3))
    func rules() throws {
        var (sandbox, bus, record) = try Self.morningHabit(press: "Not now")
        defer { bus.stop() }
        // Squats every evening at 18:00 too.
        for day in 18...21 {
            sandbox.extraEnvironment["STANDFIT_NOW"] = "2026-11-\(day)T17:00:00Z"
            #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        }
        sandbox.writeConfig(#"{"suggestionQuietHours": "06:00-09:30", "suggestionsPerDay": 1}"#)
        #expect(Self.at(sandbox, "2026-11-22T08:00:00Z").run("suggestions", "offer") == ProcessResult(status: 0,
            stdout: "Nothing offered: 09:00 is in the quiet hours (06:00-09:30, suggestionQuietHours in config.json).\n", stderr: ""))
        #expect(Self.at(sandbox, "2026-11-22T16:55:00Z").run("suggestions", "offer").stdout == "Offered: Log 20 Squats (usually around 18:00).\n")
        sandbox.writeConfig(#"{"suggestionQuietHours": null, "suggestionsPerDay": 1}"#)
        // The cap holds for the next one the same day.
        #expect(Self.at(sandbox, "2026-11-22T08:00:00Z").run("suggestions", "offer").stdout
            == "Nothing offered: 1 suggestion was offered today already, the most a day (suggestionsPerDay in config.json).\n")
        // The next morning push-ups were done at 08:50 already: not offered.
        let early = Self.at(sandbox, "2026-11-23T07:50:00Z")
        #expect(early.run("run", "logexercise", "exercise=pushups", "count=12").status == 0)
        #expect(Self.at(sandbox, "2026-11-23T08:00:00Z").run("suggestions", "offer", "--dry-run").stdout
            == "Nothing offered at 09:00: Log 10 Push-Ups ran today at 08:50 already.\n")
        // A schedule's run counts as done too (though it is no donation).
        #expect(Self.at(sandbox, "2026-11-24T07:58:00Z").run("run", "--scheduled", "logexercise", "exercise=pushups", "count=10").status == 0)
        #expect(Self.at(sandbox, "2026-11-24T08:00:00Z").run("suggestions", "offer", "--dry-run").stdout
            == "Nothing offered at 09:00: Log 10 Push-Ups ran today at 08:58 already.\n")
        #expect(DesktopBusTests.shown(record) == [
            "Log 20 Squats? | You usually do this around 18:00. | list-add | 1 | org.standfit.Host | 1=Log,2=Not now,3=Stop suggesting this",
        ])
        sandbox.writeConfig(#"{"suggestionQuietHours": "late"}"#)
        let config = sandbox.configDirectory.appendingPathComponent("config.json").path
        #expect(sandbox.run("suggestions", "offer") == ProcessResult(status: 5, stdout: "",
            stderr: "standfit-host: error: suggestionQuietHours in \(config) must be a span of the 24-hour clock such as \"22:00-08:00\", or null for none, got \"late\".\n"))
    }

    @Test("with no session bus the offer fails in one sentence (exit 69) and counts toward nothing")
    func noBus() throws {
        var sandbox = HostSandbox.standFit()
        Self.logMornings(sandbox)
        sandbox.extraEnvironment["STANDFIT_NOW"] = "2026-11-22T08:00:00Z"
        sandbox.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = ""
        #expect(sandbox.run("suggestions", "offer") == ProcessResult(status: 69, stdout: "",
            stderr: "standfit-host: error: suggestions offer needs a session bus to show Log 10 Push-Ups on, and there is none (DBUS_SESSION_BUS_ADDRESS); it was not offered. Run it inside your desktop session, or see 'standfit-host suggest'.\n"))
        #expect(sandbox.run("suggestions").stdout == """
            Suggestions come as notifications: off; 'standfit-host suggestions on' turns them on (quiet hours 22:00-08:00, at most 3 a day).
            Offered today: 0.

            """)
    }
}

/// `suggestions on|off`: the one user timer the host manages for suggestions.
@Suite("The suggestions' timer", .timeLimit(.minutes(10)), .serialized)
struct SuggestionTimerTests {
    let sandbox = HostSandbox.standFit()
    var units: URL { sandbox.root.appendingPathComponent("config/systemd/user") }

    @Test("on writes the timer and service byte for byte and enables them; systemd-analyze verify is clean; off removes all three files",
          .needs(.systemdAnalyze))
    func onAndOff() throws {
        #expect(sandbox.run("suggestions", "on") == ProcessResult(status: 0,
            stdout: "Suggestions on: org.standfit.Host.suggestions.timer runs 'standfit-host suggestions offer' every 15 minutes (quiet hours 22:00-08:00, at most 3 a day); \(ScheduleTests.noManager).\n", stderr: ""))
        let timer = units.appendingPathComponent("org.standfit.Host.suggestions.timer"), service = units.appendingPathComponent("org.standfit.Host.suggestions.service")
        #expect(try String(contentsOf: timer, encoding: .utf8) == """
            # Written by 'standfit-host suggestions on'; 'standfit-host suggestions off' removes it.
            [Unit]
            Description=standfit-host: suggestions at their usual time

            [Timer]
            OnCalendar=*:0/15
            AccuracySec=1min

            [Install]
            WantedBy=timers.target

            """)
        #expect(try String(contentsOf: service, encoding: .utf8) == """
            # Written by 'standfit-host suggestions on'; 'standfit-host suggestions off' removes it.
            [Unit]
            Description=standfit-host: offer the suggestion of the moment as a notification

            [Service]
            Type=oneshot
            ExecStart=\(Fixtures.hostBinary.path) suggestions offer
            TimeoutStartSec=15min

            """)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: units.appendingPathComponent("timers.target.wants/org.standfit.Host.suggestions.timer").path)
            == "../org.standfit.Host.suggestions.timer")
        let verified = runProcess(ExternalTool.systemdAnalyze.url, arguments: ["--user", "verify", timer.path, service.path],
            environment: ["XDG_RUNTIME_DIR": sandbox.root.appendingPathComponent("run").path, "HOME": sandbox.root.path, "PATH": "/usr/bin:/bin"])
        #expect(verified == ProcessResult(status: 0, stdout: "", stderr: ""))
        // Not a schedule.
        #expect(sandbox.run("schedule", "list").stdout
            == "No schedules; 'standfit-host schedule add WHEN TYPE [name=value …]' adds one, such as: standfit-host schedule add 'Mon..Fri 07:00' logexercise exercise=squats count=20.\n")
        #expect(sandbox.run("suggestions").stdout
            == "Suggestions come as notifications: on, every 15 minutes (quiet hours 22:00-08:00, at most 3 a day); \(ScheduleTests.noManager).\nOffered today: 0.\n")
        #expect(sandbox.run("suggestions", "off") == ProcessResult(status: 0,
            stdout: "Suggestions off: removed org.standfit.Host.suggestions.timer and its service (3 files); the menu still shows the suggestion of the moment.\n", stderr: ""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: units.path) == ["timers.target.wants"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: units.appendingPathComponent("timers.target.wants").path) == [])
        #expect(sandbox.run("suggestions", "off").stdout == "Suggestions are off already: no org.standfit.Host.suggestions.timer in \(units.path).\n")
    }

    @Test("under --json, on, off and unmute print one document each, a failure too (nothing muted: code nothing-muted, exit 2)")
    func json() throws {
        func document(_ result: ProcessResult) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        }
        let on = sandbox.run("suggestions", "on", "--json")
        #expect(on.status == 0 && document(on)["on"] as? Bool == true && document(on)["active"] as? Bool == false
            // (Why no manager runs differs where systemctl is not installed: the note's head is the same.)
            && (document(on)["note"] as? String)?.hasPrefix("no systemd user manager runs for you (") == true
            && (document(on)["message"] as? String)?.hasPrefix("Suggestions on: ") == true, "\(on)")
        let off = sandbox.run("suggestions", "off", "--json")
        #expect(off.status == 0 && document(off)["on"] as? Bool == false && (document(off)["removed"] as? [String])?.count == 3, "\(off)")
        let again = sandbox.run("suggestions", "off", "--json")
        #expect(again.status == 0 && (document(again)["removed"] as? [String]) == [], "\(again)")
        let unmute = sandbox.run("suggestions", "unmute", "--all", "--json")
        #expect(unmute == ProcessResult(status: 2, stdout: """
            {
              "code" : "nothing-muted",
              "message" : "Nothing of any type was muted; no suggestion is.",
              "status" : "error"
            }

            """, stderr: ""))
    }
}
