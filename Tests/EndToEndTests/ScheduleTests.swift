import Foundation
import Testing
import TestSupport

/// `schedule add|list|remove` (issue 34): a systemd timer and service per schedule, checked by
/// systemd's own tools; here no user manager runs, so the files are written and enabled and
/// the host says plainly that they are not active and why.
@Suite("Schedules on systemd timers", .timeLimit(.minutes(10)), .serialized)
struct ScheduleTests {
    let sandbox = HostSandbox.standFit()

    var units: URL { sandbox.root.appendingPathComponent("config/systemd/user") }
    var client: String { Fixtures.hostBinary.path }
    static let noManager = "not active: no systemd user manager runs for you (systemctl --user: offline); the timer is enabled and starts with your next session that runs one"

    func text(_ name: String) throws -> String {
        try String(contentsOf: units.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("add writes a timer and a service byte for byte, enables the timer, says it is not active and why; systemd-analyze verify finds nothing",
          .needs(.systemdAnalyze))
    func add() throws {
        #expect(sandbox.run("schedule", "add", "Mon..Fri 07:00", "logexercise", "exercise=squats", "count=20") == ProcessResult(
            status: 0, stdout: "Scheduled 1: Log Exercise (exercise=squats count=20), Mon..Fri *-*-* 07:00:00 (next Mon 2026-11-23 07:00:00 CET); \(Self.noManager).\n", stderr: ""))
        #expect(try text("org.standfit.Host.schedule-1.timer") == """
            # Written by 'standfit-host schedule add'; 'standfit-host schedule remove 1' removes it.
            [Unit]
            Description=standfit-host schedule 1: Log Exercise (exercise=squats count=20)

            [Timer]
            OnCalendar=Mon..Fri *-*-* 07:00:00
            Persistent=true

            [Install]
            WantedBy=timers.target

            """)
        #expect(try text("org.standfit.Host.schedule-1.service") == """
            # Written by 'standfit-host schedule add'; 'standfit-host schedule remove 1' removes it.
            [Unit]
            Description=standfit-host schedule 1: Log Exercise (exercise=squats count=20)
            X-StandFit-Type=com.standfit.logexercise
            X-StandFit-Title=Log Exercise
            X-StandFit-Argument=exercise=squats
            X-StandFit-Argument=count=20

            [Service]
            Type=oneshot
            ExecStart=\(client) run --notify --scheduled -- com.standfit.logexercise exercise=squats count=20

            """)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: units.appendingPathComponent("timers.target.wants/org.standfit.Host.schedule-1.timer").path)
            == "../org.standfit.Host.schedule-1.timer")
        // A second schedule, verified with the first.
        #expect(sandbox.run("schedule", "add", "daily", "logexercise", "exercise=plank", "count=30").status == 0)
        let verified = runProcess(ExternalTool.systemdAnalyze.url, arguments: ["--user", "verify",
            units.appendingPathComponent("org.standfit.Host.schedule-1.timer").path, units.appendingPathComponent("org.standfit.Host.schedule-1.service").path,
            units.appendingPathComponent("org.standfit.Host.schedule-2.timer").path, units.appendingPathComponent("org.standfit.Host.schedule-2.service").path],
            environment: ["XDG_RUNTIME_DIR": sandbox.root.appendingPathComponent("run").path, "HOME": sandbox.root.path, "PATH": "/usr/bin:/bin"])
        #expect(verified == ProcessResult(status: 0, stdout: "", stderr: ""))
    }

    @Test("a time systemd does not read, an unknown type or a bad value is refused in one sentence, and nothing is written", .needs(.systemdAnalyze))
    func refusals() throws {
        #expect(sandbox.run("schedule", "add", "someday", "logexercise", "exercise=squats") == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: error: 'someday' is not a time systemd reads; give a calendar expression such as 'Mon..Fri 07:00', 'daily' or '*-*-* 09,13,17:00' (systemd.time(7), 'Calendar Events').\n"))
        #expect(sandbox.run("schedule", "add", "daily", "nosuchtype").status == 2)
        #expect(sandbox.run("schedule", "add", "daily", "logexercise", "exercise=hurdles", "count=2").status == 3)
        // Nobody is there to ask when the timer fires: a missing value is refused now.
        #expect(sandbox.run("schedule", "add", "daily", "logexercise").status == 3)
        #expect(!FileManager.default.fileExists(atPath: units.path))
        #expect(sandbox.run("schedule", "remove", "7") == ProcessResult(status: 2, stdout: "",
            stderr: "standfit-host: error: There is no schedule 7; there are none ('standfit-host schedule add' makes one).\n"))
    }

    @Test("list shows each schedule with its next time and state; remove stops and deletes its units and the link", .needs(.systemdAnalyze))
    func listAndRemove() throws {
        #expect(sandbox.run("schedule", "list") == ProcessResult(status: 0, stdout: """
            No schedules; 'standfit-host schedule add WHEN TYPE [name=value …]' adds one, such as: standfit-host schedule add 'Mon..Fri 07:00' logexercise exercise=squats count=20.

            """, stderr: ""))
        #expect(sandbox.run("schedule", "add", "*-*-* 09,13,17:00", "viewstreak").status == 0)
        #expect(sandbox.run("schedule", "add", "Sat 10:00", "logexercise", "exercise=lunges", "count=12").status == 0)
        // Counted from the sandbox's clock (Sunday 22 November 2026, 14:05 in Amsterdam), not
        // the wall clock: the same next times whenever the test runs.
        #expect(sandbox.run("schedule", "list") == ProcessResult(status: 0, stdout: """
            1. View Streak — *-*-* 09,13,17:00:00, next Sun 2026-11-22 17:00:00 CET — \(Self.noManager)
            2. Log Exercise (exercise=lunges count=12) — Sat *-*-* 10:00:00, next Sat 2026-11-28 10:00:00 CET — \(Self.noManager)

            """, stderr: ""))
        // --json: the next time in ISO 8601 with the user's offset.
        let listed = sandbox.run("schedule", "list", "--json")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed)")
        #expect(documents.map { $0["next"] as? String } == ["2026-11-22T17:00:00+01:00", "2026-11-28T10:00:00+01:00"])
        #expect(documents.map { $0["calendar"] as? String } == ["*-*-* 09,13,17:00:00", "Sat *-*-* 10:00:00"])
        #expect(sandbox.run("schedule", "remove", "1") == ProcessResult(status: 0, stdout: "Removed schedule 1: View Streak (3 files).\n", stderr: ""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: units.path).sorted()
            == ["org.standfit.Host.schedule-2.service", "org.standfit.Host.schedule-2.timer", "timers.target.wants"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: units.appendingPathComponent("timers.target.wants").path) == ["org.standfit.Host.schedule-2.timer"])
        // The lowest free number is taken again.
        #expect(sandbox.run("schedule", "add", "daily", "viewprogress").stdout
            == "Scheduled 1: View Progress, *-*-* 00:00:00 (next Mon 2026-11-23 00:00:00 CET); \(Self.noManager).\n")
    }

    /// What `systemd-analyze verify` says of schedule `id`'s two units (nothing, when sound).
    func verify(_ id: Int) -> ProcessResult {
        runProcess(ExternalTool.systemdAnalyze.url, arguments: ["--user", "verify",
            units.appendingPathComponent("org.standfit.Host.schedule-\(id).timer").path, units.appendingPathComponent("org.standfit.Host.schedule-\(id).service").path],
            environment: ["XDG_RUNTIME_DIR": sandbox.root.appendingPathComponent("run").path, "HOME": sandbox.root.path, "PATH": "/usr/bin:/bin"])
    }

    /// The lines systemd reads in `text`: it ends a line at a line feed and at a carriage return.
    static func systemdLines(_ text: String) -> [String] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }.map(String.init)
    }

    @Test("a plugin's title, a routine's title, a value and a type a namespace handler takes cannot write a line into a unit: systemd reads the keys the host wrote and nothing else, and the timer's words are the values given",
          .needs(.systemdAnalyze))
    func hostileTextInUnits() throws {
        // An untrusted plugin whose title carries a CR, '[Service]' and an ExecStartPre=.
        var sandbox = self.sandbox
        try sandbox.pluginPath.append(FixturePlugins.zoo("unit-title.so"))
        // A namespace handler ("com.fixture.open.*") takes any type under it, quotes and all.
        try sandbox.pluginPath.append(FixturePlugins.url("kinds.so"))
        let namespaced = "com.fixture.open.a\r[Service]\rExecStartPre=/bin/touch /tmp/pwned\" 'q \\ %h $HOME"
        let routines = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: routines, withIntermediateDirectories: true)
        try Data(#"{"type": "user.evil", "title": "Evil\r[Service]\rExecStartPre=/bin/touch /tmp/pwned\n%h\u0001 $HOME \"\\", "steps": [{"type": "com.standfit.viewstreak"}]}"#.utf8)
            .write(to: routines.appendingPathComponent("evil.json"))
        let note = "a\r[Service]\rExecStartPre=/bin/touch /tmp/pwned\n\t\u{0B}\u{0C}\u{1B}[2J\u{7F}\u{85}\u{2028} %h %% $HOME ${X} \"q\" 'q' \\ end\\"
        for command in [["schedule", "add", "daily", "com.zoo.unit-title.run"], ["schedule", "add", "daily", "user.evil"],
                        ["schedule", "add", "daily", "logexercise", "exercise=squats", "count=5", "note=\(note)"],
                        ["schedule", "add", "daily", namespaced]] {
            let added = sandbox.run(command)
            #expect(added.status == 0 && added.stderr == "", "\(command): \(added)")
        }
        let expected: [(title: String, words: [String])] = [
            ("Zoo\r[Service]\rExecStartPre=/bin/touch /tmp/standfit-unit-title-pwned\n%h $HOME \"q\\", ["--", "com.zoo.unit-title.run"]),
            ("Evil\r[Service]\rExecStartPre=/bin/touch /tmp/pwned\n%h\u{1} $HOME \"\\", ["--", "user.evil"]),
            ("Log Exercise", ["--", "com.standfit.logexercise", "exercise=squats", "count=5", "note=\(note)"]),
            ("Open Anything", ["--", namespaced]),
        ]
        for (index, expectation) in expected.enumerated() {
            let id = index + 1
            #expect(verify(id) == ProcessResult(status: 0, stdout: "", stderr: ""))
            let service = try text("org.standfit.Host.schedule-\(id).service")
            let lines = Self.systemdLines(service)
            // The host's own lines, one [Service] and one ExecStart=, and not one line more.
            #expect(lines.filter { $0.hasPrefix("[") } == ["[Unit]", "[Service]"])
            #expect(lines.filter { $0.hasPrefix("Exec") }.count == 1)
            // Its keys, in order: an X-StandFit-Argument for each word after the type.
            #expect(lines.map { String($0.prefix { $0 != "=" }) }.filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("[") }
                == ["Description", "X-StandFit-Type", "X-StandFit-Title"] + Array(repeating: "X-StandFit-Argument", count: expectation.words.count - 2)
                + ["Type", "ExecStart"], "\(lines)")
            #expect(service.unicodeScalars.allSatisfy { $0 == "\n" || ($0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)) })
            // What the host reads back is what was given.
            let listed = sandbox.run("schedule", "list", "--json")
            let schedules = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            #expect(schedules.count == 4)
            #expect(schedules[index]["title"] as? String == expectation.title)
            let exec = try #require(lines.first { $0.hasPrefix("ExecStart=") })
            #expect(ExecStartWords.split(String(exec.dropFirst("ExecStart=".count))) == [client, "run", "--notify", "--scheduled"] + expectation.words)
        }
    }

    @Test("a routine's 1.1 MB title is cut with an ellipsis in the unit, which systemd loads", .needs(.systemdAnalyze))
    func oversizedTitle() throws {
        let routines = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: routines, withIntermediateDirectories: true)
        let title = String(repeating: "Long ", count: 220_000)
        try Data(#"{"type": "user.long", "title": "\#(title)", "steps": [{"type": "com.standfit.viewstreak"}]}"#.utf8)
            .write(to: routines.appendingPathComponent("long.json"))
        let added = sandbox.run("schedule", "add", "daily", "user.long")
        #expect(added.status == 0 && added.stderr == "", "\(added.stderr.prefix(300))")
        #expect(verify(1) == ProcessResult(status: 0, stdout: "", stderr: ""))
        let service = try text("org.standfit.Host.schedule-1.service")
        #expect(service.utf8.count < 2_000)
        let shown = String(title.prefix(119)) + "…"
        #expect(service == """
            # Written by 'standfit-host schedule add'; 'standfit-host schedule remove 1' removes it.
            [Unit]
            Description=standfit-host schedule 1: \(shown)
            X-StandFit-Type=user.long
            X-StandFit-Title=\(shown)

            [Service]
            Type=oneshot
            ExecStart=\(client) run --notify --scheduled -- user.long

            """)
    }

    @Test("the timer's command, run as systemd runs it, logs through the host and teaches no suggestion", .needs(.systemdAnalyze))
    func timerRun() throws {
        #expect(sandbox.run("schedule", "add", "daily", "logexercise", "exercise=squats", "count=20").status == 0)
        let service = try text("org.standfit.Host.schedule-1.service")
        let exec = try #require(service.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }).dropFirst("ExecStart=".count)
        let words = exec.split(separator: " ").map(String.init)
        #expect(words.first == client)
        // It logs; with no session bus here to show the outcome on, it says so and exits 69, so
        // that systemd marks the run as one nobody saw rather than a success.
        #expect(sandbox.run(Array(words.dropFirst())) == ProcessResult(status: 69, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n",
            stderr: "standfit-host: The outcome was not shown as a notification: there is no session bus (DBUS_SESSION_BUS_ADDRESS is unset and there is no $XDG_RUNTIME_DIR/bus); " + DesktopBusTests.notShownTail))
        #expect(sandbox.run("donations") == ProcessResult(status: 0, stdout: "No runs are recorded yet; every handled run is.\n", stderr: ""))
        // A run the user chose counts; the scheduled one did not.
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=5").status == 0)
        #expect(sandbox.run("donations").stdout == "2026-11-22 14:05:00  com.standfit.logexercise  count=5  exercise=squats\n")
        #expect(sandbox.run("run", "viewprogress").stdout == """
            This week, 22 Nov – 28 Nov 2026
            Sun 22  ██ 2
            Mon 23  · 0
            Tue 24  · 0
            Wed 25  · 0
            Thu 26  · 0
            Fri 27  · 0
            Sat 28  · 0

            By exercise
            Squats  ██ 2 logs, 25 reps

            █ = 1 log

            """)
    }
}

/// Reminders (issue 34): a schedule that asks for the value left out instead of running.
@Suite("Reminders", .timeLimit(.minutes(10)), .serialized)
struct ReminderTests {
    @Test("schedule add --remind keeps the question for the timer; one with every value is refused; the timer's run asks with the values as buttons, and the one pressed logs",
          .needs(.dbusDaemon, .python3, .pythonGI, .sqlite3, .systemdAnalyze))
    func remind() throws {
        var (sandbox, bus, record) = try DesktopBusTests.sandboxWithNotifications(press: "Push-Ups")
        defer { bus.stop() }
        #expect(sandbox.run("run", "logexercise", "exercise=pushups", "count=12").status == 0)
        #expect(sandbox.run("run", "logexercise", "exercise=plank", "count=30").status == 0)
        #expect(sandbox.run("schedule", "add", "--remind", "daily", "logexercise", "exercise=squats", "count=5") == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: error: A reminder asks for a value, and com.standfit.logexercise has every value it needs here; leave out the one it should ask for (such as exercise), or drop --remind to run it at those times.\n"))
        let added = sandbox.run("schedule", "add", "--remind", "Mon..Fri 10:00", "logexercise")
        #expect(added == ProcessResult(status: 0, stdout: "Scheduled 1: reminder: Log Exercise, Mon..Fri *-*-* 10:00:00 (next Mon 2026-11-23 10:00:00 CET); \(ScheduleTests.noManager).\n", stderr: ""))
        let service = try String(contentsOf: sandbox.root.appendingPathComponent("config/systemd/user/org.standfit.Host.schedule-1.service"), encoding: .utf8)
        let exec = try #require(service.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }).dropFirst("ExecStart=".count)
        let words = exec.split(separator: " ").map(String.init)
        #expect(Array(words.dropFirst()) == ["run", "--notify", "--scheduled", "--remind", "--", "com.standfit.logexercise"])
        // As the timer runs it, through the user's server on the session bus.
        #expect(sandbox.server.start(environment: sandbox.environment, log: sandbox.root.appendingPathComponent("server.log")) == nil)
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "required"
        #expect(sandbox.run(Array(words.dropFirst())) == ProcessResult(status: 0, stdout: "Which exercise?\n", stderr: ""))
        #expect(eventually { DesktopBusTests.logged(sandbox) == "pushups|12\nplank|30\npushups|12\n" })
        #expect(eventually { DesktopBusTests.shown(record).count == 2 })
        // The button runs as a desktop request of a server a command started: on the real clock.
        if let early = DesktopBusTests.realClockAchievements() {
            #expect(DesktopBusTests.shown(record) == [
                "Log Exercise | Which exercise? | list-add | 1 | org.standfit.Host | 1=Plank,2=Push-Ups,3=Squats",
                "Log Exercise | Logged 12 push-ups · +18 XP\(early) | list-add | 1 | org.standfit.Host | ",
            ])
        }
    }
}

/// The path taken when a user manager runs, which no container here has: `systemctl` is a
/// stand-in on PATH that answers as a running manager does and records what it was asked, so
/// the commands the host sends it (and their order) are checked; `systemd-analyze` stays real.
@Suite("Schedules with a user manager (systemctl stand-in)", .timeLimit(.minutes(10)), .serialized)
struct ScheduleManagerTests {
    let sandbox = HostSandbox.standFit()

    /// A directory with `systemctl` recording each call in `calls` and answering as a running
    /// manager: is-system-running says "running", is-active says "active".
    func withManager() throws -> (HostSandbox, URL) {
        let bin = sandbox.root.appendingPathComponent("bin"), calls = sandbox.root.appendingPathComponent("systemctl.calls")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            echo "$*" >> '\(calls.path)'
            case "$2" in
                is-system-running) echo running ;;
                is-active) echo active ;;
            esac
            exit 0

            """
        let tool = bin.appendingPathComponent("systemctl")
        try writeProgram(script, to: tool)
        var managed = sandbox
        managed.extraEnvironment["PATH"] = "\(bin.path):/usr/bin:/bin"
        return (managed, calls)
    }

    @Test("add reloads and starts the timer and says it is active; list asks whether it is; remove stops it and reloads", .needs(.systemdAnalyze))
    func managed() throws {
        let (managed, calls) = try withManager()
        let added = managed.run("schedule", "add", "daily", "viewstreak")
        #expect(added == ProcessResult(status: 0, stdout: "Scheduled 1: View Streak, *-*-* 00:00:00 (next Mon 2026-11-23 00:00:00 CET); active.\n", stderr: ""))
        #expect(managed.run("schedule", "list").stdout == "1. View Streak — *-*-* 00:00:00, next Mon 2026-11-23 00:00:00 CET — active\n")
        #expect(managed.run("schedule", "remove", "1").status == 0)
        #expect(try String(contentsOf: calls, encoding: .utf8) == """
            --user is-system-running
            --user daemon-reload
            --user start org.standfit.Host.schedule-1.timer
            --user is-active org.standfit.Host.schedule-1.timer
            --user is-system-running
            --user is-active org.standfit.Host.schedule-1.timer
            --user is-system-running
            --user stop org.standfit.Host.schedule-1.timer
            --user daemon-reload

            """)
    }

    @Test("suggestions on reloads and starts the suggestions' timer and says it is active; off stops it and reloads", .needs(.systemdAnalyze))
    func suggestionsTimer() throws {
        let (managed, calls) = try withManager()
        #expect(managed.run("suggestions", "on").stdout
            == "Suggestions on: org.standfit.Host.suggestions.timer runs 'standfit-host suggestions offer' every 15 minutes (quiet hours 22:00-08:00, at most 3 a day); active.\n")
        #expect(managed.run("suggestions").stdout == """
            Suggestions come as notifications: on, every 15 minutes (quiet hours 22:00-08:00, at most 3 a day); active.
            Offered today: 0.

            """)
        #expect(managed.run("suggestions", "off").status == 0)
        #expect(try String(contentsOf: calls, encoding: .utf8) == """
            --user is-system-running
            --user daemon-reload
            --user start org.standfit.Host.suggestions.timer
            --user is-active org.standfit.Host.suggestions.timer
            --user is-system-running
            --user is-active org.standfit.Host.suggestions.timer
            --user is-system-running
            --user stop org.standfit.Host.suggestions.timer
            --user daemon-reload

            """)
    }
}
