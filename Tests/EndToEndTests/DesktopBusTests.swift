import Foundation
import Glibc
import Testing
import TestSupport
import WarmWire

/// The desktop front door on a real session bus (a private `dbus-daemon` per test): the
/// installed desktop file and service file, D-Bus activation of the server by `gapplication` and
/// by GLib's own desktop launch path, `org.freedesktop.Application`'s answers, and no bus at all.
///
/// These start servers of their own, so Scripts/test runs them once (not again on the warm path).
@Suite("The desktop front door over D-Bus", .timeLimit(.minutes(10)))
struct DesktopBusTests {
    static let applicationID = "org.standfit.Host"

    /// A StandFit sandbox whose commands run cold and start no server, on its own session bus.
    /// `environment` is added to the sandbox's before the bus starts, so the servers it starts get it too.
    static func sandboxOnBus(_ environment: [String: String] = [:]) throws -> (HostSandbox, SessionBus) {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        sandbox.extraEnvironment.merge(environment) { $1 }
        let bus = try #require(SessionBus(sandbox: sandbox), "dbus-daemon did not start; \(sandbox.logs("bus.log"))")
        sandbox.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        return (sandbox, bus)
    }

    /// `sandboxOnBus` with the test notification server on the bus, recording in the returned file.
    static func sandboxWithNotifications(press: String? = nil, keeping: Bool = false, capabilities: [String] = ["actions", "body"],
                                         reply: String? = nil, dismiss: Bool = false, choose: String? = nil) throws -> (HostSandbox, SessionBus, URL) {
        let (sandbox, bus) = try sandboxOnBus()
        let record = sandbox.root.appendingPathComponent("notifications.jsonl")
        // A failure here leaves the bus to its deinit, which stops it.
        try #require(bus.startNotificationServer(record: record, press: press, keeping: keeping, capabilities: capabilities, reply: reply,
                                                 dismiss: dismiss, choose: choose),
                     "the test notification server did not start; \(sandbox.logs("notification-server.py.log"))")
        return (sandbox, bus, record)
    }

    /// What a log made now on the real clock unlocks beside a test's own achievements: a desktop
    /// request to a server that a command started runs on the real clock (its STANDFIT_NOW
    /// belonged to that command), so between 4:00 and 7:00 in Amsterdam, the sandbox's zone, a
    /// first log is an early bird's too. Nil within a minute of either edge, where a test
    /// cannot tell which side the run fell on.
    static func realClockAchievements(at instant: Date = Date()) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Amsterdam")!
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        if abs(minute - 4 * 60) <= 1 || abs(minute - 7 * 60) <= 1 { return nil }
        return (4 * 60..<7 * 60).contains(minute) ? "\nAchievement unlocked: Early bird (a log between 4:00 and 7:00)" : ""
    }

    /// StandFit's log as `exercise|count` lines, oldest first.
    static func logged(_ sandbox: HostSandbox) -> String {
        let file = sandbox.dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite")
        return runProcess(ExternalTool.sqlite3.url, arguments: [file.path, "SELECT exercise, count FROM log ORDER BY id;"]).stdout
    }

    /// StandFit's log as `exercise|count` rows, oldest first, read without a shell tool.
    static func loggedRows(_ sandbox: HostSandbox) -> [String] {
        let listed = sandbox.run("run", "history", "days=366", "--json")
        guard listed.status == 0, let data = listed.stdout.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let entries = (object["data"] as? [String: Any])?["entries"] as? [[String: Any]] else { return ["(history: \(listed))"] }
        return entries.sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }.map { "\($0["exercise"] ?? "?")|\($0["count"] ?? "?")" }
    }

    /// The server's log: the file a server the bus starts logs to, then the sandbox's own
    /// server's (on the warm path it is on the bus first).
    static func serverLog(_ sandbox: HostSandbox) -> String {
        ["state/standfit/server.log", "server.log"].map { name in
            (try? String(contentsOf: sandbox.root.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }.joined()
    }

    /// The server's log (`serverLog`) as lines to compare whole (`logLines`).
    static func serverLogLines(_ sandbox: HostSandbox) -> [String] {
        logLines(serverLog(sandbox))
    }

    /// A server log's lines as they compare whole: each without its time (its first word), and
    /// each unique bus name (":1.42", a sender) written ":1.N".
    static func logLines(_ log: String) -> [String] {
        log.split(separator: "\n").map { line in
            String(line.split(separator: " ", maxSplits: 1).last ?? "").replacing(#/:1\.[0-9]+/#, with: ":1.N")
        }
    }

    /// Where the servers of `sandbox` listen: their socket and build.
    static func place(_ sandbox: HostSandbox) throws -> WarmPlace {
        try #require(WarmPlace(fullHost: Fixtures.fullHostBinary.path, environment: { sandbox.environment[$0] }))
    }

    @Test("a click on a question's bubble (the server's 'default' action) asks it again as a new notification and answers nothing: no value 'default' reaches the plugin, nothing is logged, no 'Not run' is said",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI, .sqlite3))
    func bubbleClickAnswersNothing() throws {
        // A server that keeps notifications and takes typed answers (Plasma): there the question has a
        // default action, and a click on it asks it again (GNOME's gets its choices: choicesInTheList).
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(press: "(bubble)", capabilities: ["actions", "body", "persistence", "inline-reply"])
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <20>}"]).status == 0)
        #expect(eventually { Self.shown(record).count == 2 })
        #expect(eventually(20) { Self.serverLogLines(sandbox).contains("standfit-host: info: Notification 1: clicked; asked again") })
        Thread.sleep(forTimeInterval: 1)
        let question = "Log Exercise | Which exercise? | org.standfit.Host.log | 1 | org.standfit.Host | 1=Squats,2=Push-Ups,3=Plank,inline-reply=Reply"
        #expect(Self.shown(record) == [question, question])
        // The second is the first shown anew (GNOME shows a banner, buttons and all, only for a new
        // one): a new id, the clicked one closed by the host, which is no dismissal.
        #expect(SessionBus.notifications(in: record).compactMap { $0["id"] as? Int } == [1, 2])
        #expect(SessionBus.notifications(in: record).compactMap { $0["replaces"] as? Int } == [0, 0])
        #expect(!Self.serverLog(sandbox).contains("closed unanswered"))
        #expect(Self.logged(sandbox) == "")
        #expect(!Self.serverLog(sandbox).contains("'default' chosen"))
    }

    @Test("a plugin's 300 KB message reaches the notification server and the server's log cut to 1,000 characters with an ellipsis",
          .needs(.dbusDaemon, .python3, .pythonGI))
    func bigMessageBounded() throws {
        var (sandbox, bus, record) = try Self.sandboxWithNotifications()
        defer { bus.stop() }
        sandbox.pluginPath = try [FixturePlugins.zoo("big-message.so")]
        sandbox.extraEnvironment["ZOO_BIG_MESSAGE"] = "300000"
        var environment = bus.environment
        environment["STANDFIT_PLUGIN_PATH"] = sandbox.pluginPath.map(\.path).joined(separator: ":")
        environment["ZOO_BIG_MESSAGE"] = "300000"
        if let failure = sandbox.serveWarmPath() { Issue.record("\(failure)") }
        let ran = runProcess(Fixtures.hostBinary, arguments: ["run", "--notify", "com.zoo.big-message.run"], environment: environment)
        #expect(ran.status == 0 && ran.stdout.count >= 300_000, "\(ran.status) \(ran.stderr.prefix(300))")
        #expect(eventually { !Self.shown(record).isEmpty })
        let notes = SessionBus.notifications(in: record)
        let body = try #require(notes.first?["body"] as? String)
        #expect(body == String(repeating: "x", count: 999) + "…")
        for line in Self.serverLog(sandbox).split(separator: "\n") { #expect(line.count < 2_000) }
    }

    @Test("export desktop --install: a D-Bus activatable desktop file named after the id, and the service that starts the server",
          .needs(.dbusDaemon, .desktopFileValidate))
    func install() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        let installed = sandbox.run("export", "desktop", "--install")
        let desktop = sandbox.dataHome.appendingPathComponent("applications/\(Self.applicationID).desktop")
        let service = sandbox.dataHome.appendingPathComponent("dbus-1/services/\(Self.applicationID).service")
        // Nothing logged yet: Log Exercise is the one quick action (seed UX29).
        #expect(installed == ProcessResult(status: 0, stdout: "Wrote \(desktop.path) with 2 actions, and \(service.path).\n", stderr: ""))
        #expect(try String(contentsOf: service, encoding: .utf8) == """
            [D-BUS Service]
            Name=org.standfit.Host
            Exec=\(Fixtures.fullHostBinary.path) serve --dbus-activated

            """)
        let text = try String(contentsOf: desktop, encoding: .utf8)
        let client = Fixtures.hostBinary.path
        // D-Bus activatable, the quick actions and then Listen: a sentence spoken and run, its
        // question and outcome as notifications.
        #expect(text == """
            [Desktop Entry]
            Type=Application
            Version=1.4
            Name=StandFit
            Comment=Quick actions: Log Exercise
            Comment[nl]=Snelle acties: Oefening loggen
            Keywords=Log;Exercise;quick;actions;
            Keywords[nl]=Oefening;loggen;snelle;acties;
            Icon=org.standfit.Host
            Exec=\(client) menu --notify
            Terminal=false
            DBusActivatable=true
            Categories=Utility;
            Actions=com-standfit-logexercise;listen;

            [Desktop Action com-standfit-logexercise]
            Name=Log Exercise
            Name[nl]=Oefening loggen
            Icon=org.standfit.Host.log
            Exec=\(client) run --notify -- com.standfit.logexercise

            [Desktop Action listen]
            Name=Listen
            Name[nl]=Luisteren
            Icon=audio-input-microphone
            Exec=\(client) listen --notify

            """)
        let validated = runProcess(ExternalTool.desktopFileValidate.url, arguments: [desktop.path])
        #expect(validated == ProcessResult(status: 0, stdout: "", stderr: ""))
        // Installing is a cold command: no server runs until the bus starts one.
        #expect(!sandbox.server.listening())
    }

    @Test("gapplication action on a bus where no server runs: the bus starts the server, which logs the exercise exactly once; stop gives the name back",
          .needs(.dbusDaemon, .gapplication, .sqlite3))
    func activation() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(!sandbox.server.listening())
        // gapplication lists the actions from the installed desktop file.
        #expect(bus.run(.gapplication, ["list-actions", Self.applicationID]) == ProcessResult(status: 0, stdout: """
            com-standfit-logexercise
            listen

            """, stderr: ""))
        // A key the menu does not show now (View Streak with no streak; a desktop may still show
        // it from a file written while there was one) runs the action it was made from.
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "com-standfit-viewstreak"]) == ProcessResult(status: 0, stdout: "", stderr: ""))
        #expect(Self.serverLogLines(sandbox).contains(
            "standfit-host: info: ActivateAction 'com-standfit-viewstreak' from :1.N: handled: No streak yet: log an exercise today to start one."),
                "\(Self.serverLog(sandbox))")
        let action = bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'squats'>, 'count': <20>}"])
        #expect(action == ProcessResult(status: 0, stdout: "", stderr: ""))
        // Answered once the action ran: it is in the log already.
        #expect(Self.logged(sandbox) == "squats|20\n")
        #expect(sandbox.server.listening())
        #expect(Self.serverLogLines(sandbox).contains(
            "standfit-host: info: ActivateAction 'logexercise' from :1.N: handled: Logged 20 squats · +20 XP\\nAchievement unlocked: First log"),
                "\(Self.serverLog(sandbox))")
        // The server the bus started serves the terminal's commands too.
        #expect(sandbox.run("run", "viewstreak") == ProcessResult(status: 0, stdout: "Streak: 1 day\nBest streak: 1 day · level 1 · 20 XP\n", stderr: ""))
        // The desktop file's own key, for the item with userInfo (Log Squats — 20 reps).
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "com-standfit-logexercise-2"]).status == 0)
        #expect(Self.logged(sandbox) == "squats|20\nsquats|20\n")
        // Stopped, the server leaves the bus at once; the next action starts a new one.
        #expect(sandbox.run("server", "stop").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'plank'>, 'count': <30>}"]).status == 0)
        #expect(Self.logged(sandbox) == "squats|20\nsquats|20\nplank|30\n")
        // Two servers the bus started, one after the other.
        #expect(Self.serverLog(sandbox).components(separatedBy: "On the session bus as org.standfit.Host").count == 3)
    }

    @Test("the desktop's own launch path: GLib's DesktopAppInfo.launch_action reaches ActivateAction, no terminal involved",
          .needs(.dbusDaemon, .python3, .pythonGI, .sqlite3))
    func desktopLaunch() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        #expect(sandbox.run("run", "logexercise", "exercise=pushups", "count=12").status == 0)
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        let desktop = sandbox.dataHome.appendingPathComponent("applications/\(Self.applicationID).desktop")
        let script = """
            import sys, time
            from gi.repository import Gio, GLib
            info = Gio.DesktopAppInfo.new_from_filename(sys.argv[1])
            print(" ".join(info.list_actions()))
            info.launch_action("com-standfit-logexercise-2", None)
            # As a desktop shell does, stay on the bus until the bus has started the server (a
            # caller that leaves first takes its pending activation with it).
            bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
            bus.flush_sync(None)
            for attempt in range(2000):
                owned = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                      "NameHasOwner", GLib.Variant("(s)", ("org.standfit.Host",)), None,
                                      Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
                if owned:
                    break
                time.sleep(0.01)
            """
        let launched = bus.run(.python3, ["-c", script, desktop.path])
        #expect(launched == ProcessResult(status: 0, stdout: "com-standfit-logexercise com-standfit-viewstreak com-standfit-logexercise-2 com-standfit-viewprogress listen\n", stderr: ""))
        // launch_action does not wait for the answer.
        #expect(eventually { Self.logged(sandbox) == "pushups|12\npushups|12\n" })
    }

    @Test("org.freedesktop.Application refuses what it cannot do, in one sentence with the way out",
          .needs(.dbusDaemon, .gapplication, .gdbus))
    func refusals() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "jump"]) == ProcessResult(status: 1, stdout: "", stderr: """
            error sending ActivateAction message to application: GDBus.Error:org.standfit.Host.Error.UnknownAction: \
            StandFit has no action 'jump'; 'gapplication list-actions org.standfit.Host' lists the actions of the installed \
            desktop file, and 'standfit-host list' the quick actions.

            """))
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "'squats'"]) == ProcessResult(status: 1, stdout: "", stderr: """
            error sending ActivateAction message to application: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs: \
            ActivateAction 'logexercise' got a value of type 's' as its parameter; pass parameter values as one dictionary \
            of basic values (names of at most 256 bytes, values of at most 16384), such as "{'exercise': <'squats'>, 'count': <20>}".

            """))
        // Too long is refused in words, never cut: a name, and a value (which 'run' would pass whole).
        let longName = String(repeating: "a", count: 300)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, longName]) == ProcessResult(status: 1, stdout: "", stderr: """
            error sending ActivateAction message to application: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs: \
            ActivateAction got an action name of 300 bytes; a desktop action key or a type is at most 256 bytes, such as 'logexercise'.

            """))
        let longNote = String(repeating: "n", count: 20_000)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'note': <'\(longNote)'>}"]) == ProcessResult(status: 1, stdout: "", stderr: """
            error sending ActivateAction message to application: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs: \
            ActivateAction 'logexercise' got a value of 20000 bytes for 'note' as its parameter; pass parameter values as one \
            dictionary of basic values (names of at most 256 bytes, values of at most 16384), such as "{'exercise': <'squats'>, 'count': <20>}".

            """))
        // Open is (as, a{sv}) as the spec has it (issue 33): GLib's own launch with a file reaches it.
        let open = bus.run(.gdbus, ["call", "--session", "--dest", Self.applicationID, "--object-path", "/org/standfit/Host",
                                    "--method", "org.freedesktop.Application.Open", "['file:///tmp/x']", "{}"])
        #expect(open.status == 1)
        #expect(open.stderr == """
            Error: GDBus.Error:org.freedesktop.DBus.Error.NotSupported: StandFit opens no files; run one of its quick \
            actions instead ('gapplication list-actions org.standfit.Host' lists them).

            """)
        let launched = bus.run(.gapplication, ["launch", Self.applicationID, "/tmp/x"])
        #expect(launched == ProcessResult(status: 1, stdout: "", stderr: """
            error sending Open message to application: GDBus.Error:org.freedesktop.DBus.Error.NotSupported: StandFit opens no files; \
            run one of its quick actions instead ('gapplication list-actions org.standfit.Host' lists them).

            """), "\(launched)")
    }

    /// The notifications recorded, each as summary, body, icon, urgency and buttons (`key=label`).
    /// What each Notify showed: summary | body | icon | urgency | desktop entry | buttons (a
    /// question's "default" action, a click on the bubble, is no button and is left out).
    static func shown(_ record: URL) -> [String] {
        SessionBus.notifications(in: record).filter { $0["closed"] == nil }.map { note in
            let buttons = (note["actions"] as? [[String]] ?? []).filter { $0[0] != "default" }.map { "\($0[0])=\($0[1])" }.joined(separator: ",")
            let entry = note["desktopEntry"] as? String ?? "?"
            return "\(note["summary"] ?? "?") | \(note["body"] ?? "?") | \(note["icon"] ?? "?") | \(note["urgency"] ?? "?") | \(entry) | \(buttons)"
        }
    }

    @Test("an action from the desktop answers as a notification: the item's title and icon over the message; failures at normal urgency, each in the place of the one before",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI))
    func notifications() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications()
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'squats'>, 'count': <20>}"]).status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'squats'>, 'count': <-5>}"]).status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'hurdles'>}"]).status == 0)
        #expect(Self.shown(record) == [
            "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log | org.standfit.Host.log | 1 | org.standfit.Host | ",
            "Log Exercise | count: expected a number from 1 to 3600, got -5. | org.standfit.Host.log | 1 | org.standfit.Host | ",
            "Log Exercise | exercise: no exercise is called 'hurdles'; choose one of squats, pushups, plank, lunges, calfraises, stretching, jumpingjacks, wallsit, burpees, situps. | org.standfit.Host.log | 1 | org.standfit.Host | ",
        ])
        // Failures are of normal urgency and never stack: the second takes the first one's place.
        #expect(SessionBus.notifications(in: record).compactMap { $0["replaces"] as? Int } == [0, 0, 2])
        #expect(SessionBus.notifications(in: record).compactMap { $0["id"] as? Int } == [1, 2, 2])
    }

    @Test("a missing value is asked in the notification: the offered values as buttons, most recent first; the one pressed runs the action with it",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI, .sqlite3))
    func missingValueButtons() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(press: "Push-Ups")
        defer { bus.stop() }
        #expect(sandbox.run("run", "logexercise", "exercise=pushups", "count=12").status == 0)
        #expect(sandbox.run("run", "logexercise", "exercise=plank", "count=30").status == 0)
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise"]) == ProcessResult(status: 0, stdout: "", stderr: ""))
        #expect(eventually { Self.logged(sandbox) == "pushups|12\nplank|30\npushups|12\n" })
        #expect(eventually { Self.shown(record).count == 2 })
        #expect(Self.shown(record) == [
            "Log Exercise | Which exercise? | org.standfit.Host.log | 1 | org.standfit.Host | 1=Plank,2=Push-Ups,3=Squats",
            "Log Exercise | Logged 12 push-ups · +18 XP | org.standfit.Host.log | 1 | org.standfit.Host | ",
        ])
    }

    @Test("an answered prompt is closed at once, and a second press on a server that keeps it says it was answered instead of running again (issue 33)",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI, .sqlite3))
    func answeredPrompt() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(press: "Push-Ups", keeping: true)
        defer { bus.stop() }
        #expect(sandbox.run("run", "logexercise", "exercise=pushups", "count=12").status == 0)
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise"]) == ProcessResult(status: 0, stdout: "", stderr: ""))
        #expect(eventually { Self.shown(record).count == 3 })
        // Logged once, for the first press.
        #expect(Self.logged(sandbox) == "pushups|12\npushups|12\n")
        let shown = Self.shown(record)
        #expect(shown.first == "Log Exercise | Which exercise? | org.standfit.Host.log | 1 | org.standfit.Host | 1=Push-Ups,2=Squats,3=Plank")
        #expect(Set(shown.dropFirst()) == [
            "Log Exercise | Logged 12 push-ups · +18 XP | org.standfit.Host.log | 1 | org.standfit.Host | ",
            "Log Exercise | This was answered already, and the first choice ran; start the action again to choose again. | org.standfit.Host.log | 1 | org.standfit.Host | ",
        ])
        // The prompt was closed the moment it was answered.
        #expect(SessionBus.notifications(in: record).contains { ($0["closed"] as? Int) == 1 })
    }

    @Test("a notification server without buttons: the question names the values instead",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI))
    func noButtons() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(capabilities: ["body"])
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise"]).status == 0)
        #expect(Self.shown(record) == [
            "Log Exercise | Which exercise? Squats, Push-Ups, Plank, Lunges, Calf Raises, Stretching, Jumping Jacks, Wall Sit, Burpees, Sit-Ups | org.standfit.Host.log | 1 | org.standfit.Host | ",
        ])
    }

    @Test("Activate (the app launched without an action) shows the quick actions as buttons; one pressed runs, in the language installed",
          .needs(.dbusDaemon, .gdbus, .python3, .pythonGI))
    func picker() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(press: "Reeks bekijken — 1 dag")
        defer { bus.stop() }
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("export", "desktop", "--install", "--locale", "nl").status == 0)
        let activated = bus.run(.gdbus, ["call", "--session", "--dest", Self.applicationID, "--object-path", "/org/standfit/Host",
                                         "--method", "org.freedesktop.Application.Activate", "{}"])
        #expect(activated == ProcessResult(status: 0, stdout: "()\n", stderr: ""))
        #expect(eventually { Self.shown(record).count == 2 })
        #expect(Self.shown(record) == [
            "StandFit | Kies een snelle actie. | org.standfit.Host | 1 | org.standfit.Host | 1=Oefening loggen,2=Reeks bekijken — 1 dag,3=Meer (2)…",
            "Reeks bekijken | Reeks: 1 dag\nBeste reeks: 1 dag · niveau 1 · 20 XP | org.standfit.Host.streak | 1 | org.standfit.Host | ",
        ])
    }

    @Test("a picker with more actions than buttons offers the rest on a next page (issue 33): every quick action can be chosen",
          .needs(.dbusDaemon, .gdbus, .python3, .pythonGI))
    func pickerPages() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(press: "More (2)…")
        defer { bus.stop() }
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gdbus, ["call", "--session", "--dest", Self.applicationID, "--object-path", "/org/standfit/Host",
                                 "--method", "org.freedesktop.Application.Activate", "{}"]).status == 0)
        #expect(eventually { Self.shown(record).count == 2 })
        #expect(Self.shown(record) == [
            "StandFit | Choose a quick action. | org.standfit.Host | 1 | org.standfit.Host | 1=Log Exercise,2=View Streak — 1 day,3=More (2)…",
            "StandFit | Choose a quick action. | org.standfit.Host | 1 | org.standfit.Host | 1=Log Squats — 20 reps,2=View Progress",
        ])
    }

    @Test("no notification server: the action still runs and answers, and the outcome is in the server's log",
          .needs(.dbusDaemon, .gapplication, .sqlite3))
    func noNotificationServer() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'squats'>, 'count': <20>}"])
            == ProcessResult(status: 0, stdout: "", stderr: ""))
        #expect(Self.logged(sandbox) == "squats|20\n")
        #expect(Self.serverLogLines(sandbox).contains(
            "standfit-host: info: Not shown (The name org.freedesktop.Notifications was not provided by any .service files): Log Exercise: Logged 20 squats · +20 XP\\nAchievement unlocked: First log"),
                "\(Self.serverLog(sandbox))")
    }

    @Test("the desktop file's fallback Exec lines: run --notify shows the outcome (cold: values named, no buttons), menu --notify has the bus start the server for the picker",
          .needs(.dbusDaemon, .python3, .pythonGI))
    func execFallback() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications()
        defer { bus.stop() }
        #expect(sandbox.run("run", "--notify", "logexercise", "exercise=squats", "count=20")
            == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        let missing = sandbox.run("run", "--notify", "logexercise")
        #expect(missing.status == 3)
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(!sandbox.server.listening())
        #expect(sandbox.run("menu", "--notify") == ProcessResult(status: 0, stdout: "", stderr: ""))
        #expect(sandbox.server.listening())
        #expect(Self.shown(record) == [
            "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log | list-add | 1 | org.standfit.Host | ",
            "Log Exercise | Which exercise? Squats, Push-Ups, Plank, Lunges, Calf Raises, Stretching, Jumping Jacks, Wall Sit, Burpees, Sit-Ups | list-add | 1 | org.standfit.Host | ",
            "StandFit | Choose a quick action. | org.standfit.Host | 1 | org.standfit.Host | 1=Log Exercise,2=View Streak — 1 day,3=More (2)…",
        ])
    }

    @Test("run --notify served by a server started off the bus (from a terminal with no session): the notification goes to the bus the request names, as it does cold (issue 31)",
          .needs(.dbusDaemon, .python3, .pythonGI))
    func notifyFollowsTheRequest() throws {
        var (sandbox, bus, record) = try Self.sandboxWithNotifications()
        defer { bus.stop() }
        var offTheBus = sandbox.environment
        offTheBus["DBUS_SESSION_BUS_ADDRESS"] = nil
        #expect(sandbox.server.start(environment: offTheBus, log: sandbox.root.appendingPathComponent("server.log")) == nil)
        // Served by that server, or failing (exit 69): never run cold unseen.
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "required"
        #expect(sandbox.run("run", "--notify", "logexercise", "exercise=squats", "count=20")
            == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(Self.shown(record) == [
            "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log | list-add | 1 | org.standfit.Host | ",
        ])
    }

    @Test("one server however it starts (issue 31): the server the bus starts while another has the socket hands that one the bus and exits; a click right after a stop leaves one server, which the command line reaches",
          .needs(.dbusDaemon, .gapplication, .sqlite3))
    func oneServerHoweverStarted() throws {
        let (sandbox, bus, first) = try Self.installedBesideTerminalServer()
        defer { bus.stop() }
        func host(_ arguments: String...) -> ProcessResult { WarmServerTests.host(sandbox, arguments) }
        // A desktop click: the bus starts a server for the name; it finds the first with the
        // socket, has it take the name (the bus then hands it the click) and exits.
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'squats'>, 'count': <20>}"])
            == ProcessResult(status: 0, stdout: "", stderr: ""))
        #expect(Self.logged(sandbox) == "squats|20\n")
        #expect(WarmServerTests.eventually(10) { Self.servers(of: sandbox) == [first] }, "\(Self.servers(of: sandbox))")
        let firstLog = try String(contentsOf: sandbox.root.appendingPathComponent("server.log"), encoding: .utf8)
        #expect(Self.logLines(firstLog).contains("standfit-host: info: On the session bus as org.standfit.Host (org.freedesktop.Application at /org/standfit/Host)"),
                "\(firstLog)")
        // A server a command started runs the desktop's requests on the real clock.
        if let early = Self.realClockAchievements() {
            #expect(Self.logLines(firstLog).contains("standfit-host: info: ActivateAction 'logexercise' from :1.N: handled: Logged 20 squats · +20 XP"
                + "\\nAchievement unlocked: First log" + early.replacingOccurrences(of: "\n", with: "\\n")), "\(firstLog)")
        }
        // The bus's server (whose pid the test does not know) said so as it exited.
        let socket = try Self.place(sandbox).socketPath
        #expect(Self.serverLogLines(sandbox).contains { $0.replacing(#/so this one \(pid [0-9]+\) exits$/#, with: "so this one (pid N) exits")
            == "standfit-host: info: The server of this build (pid \(first)) has \(socket); it took the session bus, so this one (pid N) exits" },
                "\(Self.serverLog(sandbox))")
        // The next click goes straight to it: the bus starts nothing.
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'plank'>, 'count': <30>}"]).status == 0)
        #expect(Self.logged(sandbox) == "squats|20\nplank|30\n")
        #expect(Self.servers(of: sandbox) == [first])
        // Its counts agree with its log: the hand-over, two clicks and this stop.
        #expect(host("server", "stop") == ProcessResult(status: 0, stdout: "Stopped the server (pid \(first)) after 4 requests.\n", stderr: ""))
        #expect(sandbox.server.waitForExit(), "the first server did not exit")
        #expect(try Self.logLines(String(contentsOf: sandbox.root.appendingPathComponent("server.log"), encoding: .utf8))
            .contains("standfit-host: info: Exiting: asked to stop (4 requests served)"))
        // A stop followed at once by a click: the bus's server has the socket (at once, or once
        // the stopping one is gone), and the command line reaches it: one server.
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'squats'>, 'count': <5>}"]).status == 0)
        #expect(WarmServerTests.eventually(10) { sandbox.server.listening() }, "no server has the socket")
        let status = host("server", "status", "--json")
        let document = try JSONDecoder().decode(WarmServerTests.Status.self, from: Data(status.stdout.utf8))
        let second = try #require(document.pid)
        #expect(second != first)
        #expect(Self.servers(of: sandbox) == [second])
        #expect(host("run", "logexercise", "exercise=squats", "count=5") == ProcessResult(status: 0, stdout: "Logged 5 squats · +5 XP\n", stderr: ""))
        #expect(Self.logged(sandbox) == "squats|20\nplank|30\nsquats|5\nsquats|5\n")
        #expect(Self.servers(of: sandbox) == [second])
    }

    @Test("a server the bus started, serving the bus alone while the one with the socket could not answer, hands it the bus once it can, and exits (issue 31)",
          .needs(.dbusDaemon, .gapplication, .sqlite3))
    func busOnlyHandsOver() throws {
        let (sandbox, bus, first) = try Self.installedBesideTerminalServer()
        defer { bus.stop() }
        // The terminal's server answers nothing while it is stopped by a signal.
        kill(first, SIGSTOP)
        // Stopped (by signal), it accepts nothing: the bus's server cannot hand over and serves the bus.
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'squats'>, 'count': <20>}"]).status == 0)
        #expect(Self.logged(sandbox) == "squats|20\n")
        let servers = Self.servers(of: sandbox)
        #expect(servers.count == 2, "\(servers)")
        kill(first, SIGCONT)
        // Up again, the first answers the bus-only server's next attempt: it takes the bus, the
        // other exits once idle, and one server is left, serving both.
        #expect(WarmServerTests.eventually(10) { Self.servers(of: sandbox) == [first] }, "\(Self.servers(of: sandbox))")
        let socket = try Self.place(sandbox).socketPath
        #expect(Self.serverLogLines(sandbox).contains("standfit-host: info: The server of this build that has \(socket) took the session bus over"),
                "\(Self.serverLog(sandbox))")
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'plank'>, 'count': <30>}"]).status == 0)
        #expect(Self.logged(sandbox) == "squats|20\nplank|30\n")
        #expect(Self.servers(of: sandbox) == [first])
        #expect(WarmServerTests.host(sandbox, "server", "stop").status == 0)
        #expect(sandbox.server.waitForExit(), "the first server did not exit")
    }

    /// A sandbox on its own bus with the desktop file installed, and a server started from a
    /// terminal with no session bus (its pid): it has the socket, not the name. Commands are
    /// run straight to the client (`WarmServerTests.host`): the warm pass's own server must not
    /// start beside it.
    static func installedBesideTerminalServer() throws -> (HostSandbox, SessionBus, pid_t) {
        let (sandbox, bus) = try sandboxOnBus()
        #expect(WarmServerTests.host(sandbox, ["export", "desktop", "--install"]).status == 0)
        var offTheBus = sandbox.environment
        offTheBus["DBUS_SESSION_BUS_ADDRESS"] = nil
        #expect(sandbox.server.start(environment: offTheBus, log: sandbox.root.appendingPathComponent("server.log")) == nil)
        return (sandbox, bus, try #require(sandbox.server.pid))
    }

    /// The pids of the warm servers of `sandbox` alive now (their runtime directory is its).
    static func servers(of sandbox: HostSandbox) -> [pid_t] {
        let marker = "XDG_RUNTIME_DIR=\(sandbox.server.runtimeDirectory.path)"
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
        return pids.filter { pid in
            guard let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            let arguments = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            let variables = environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.first?.hasSuffix("standfit-host-full") == true && arguments.dropFirst().first == "serve"
                && variables.contains(marker)
        }.sorted()
    }

    @Test("every app with quick actions has a desktop entry of its own (issue 35): the routines' beside StandFit's, its menu --notify --app shows that app's picker, and it goes when the app has no items",
          .needs(.dbusDaemon, .python3, .pythonGI, .desktopFileValidate))
    func entryPerApp() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications()
        defer { bus.stop() }
        let shortcuts = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: shortcuts, withIntermediateDirectories: true)
        try Data(#"{"type": "user.morning", "title": "Morning routine", "steps": [{"type": "com.standfit.logexercise", "arguments": {"exercise": "squats", "count": 10}}]}"#.utf8)
            .write(to: shortcuts.appendingPathComponent("morning.json"))
        let applications = sandbox.dataHome.appendingPathComponent("applications")
        let host = applications.appendingPathComponent("\(Self.applicationID).desktop")
        let routines = applications.appendingPathComponent("\(Self.applicationID).user.desktop")
        let service = sandbox.dataHome.appendingPathComponent("dbus-1/services/\(Self.applicationID).service")
        #expect(sandbox.run("export", "desktop", "--install") == ProcessResult(status: 0, stdout: """
            Wrote \(host.path) with 2 actions, and \(service.path).
            Wrote \(routines.path) with 1 action (Shortcuts).

            """, stderr: ""))
        // The routine is not one of StandFit's actions: it is in an entry of its own.
        #expect(try DesktopFile(parsing: String(contentsOf: host, encoding: .utf8))["Desktop Entry"]?["Actions"] == "com-standfit-logexercise;listen;")
        let client = Fixtures.hostBinary.path
        #expect(try String(contentsOf: routines, encoding: .utf8) == """
            [Desktop Entry]
            Type=Application
            Version=1.4
            Name=Shortcuts
            Comment=Quick actions: Morning routine
            Comment[nl]=Snelle acties: Morning routine
            Keywords=Morning;routine;quick;actions;
            Keywords[nl]=Morning;routine;snelle;acties;
            Icon=view-list
            Exec=\(client) menu --notify --app user
            Terminal=false
            Categories=Utility;
            Actions=user-morning;

            [Desktop Action user-morning]
            Name=Morning routine
            Icon=view-list
            Exec=\(client) run --notify -- user.morning

            """)
        #expect(runProcess(ExternalTool.desktopFileValidate.url, arguments: [routines.path]) == ProcessResult(status: 0, stdout: "", stderr: ""))
        // Its launcher shows that app's picker alone.
        #expect(sandbox.run("menu", "--notify", "--app", "user") == ProcessResult(status: 0, stdout: "", stderr: ""))
        #expect(eventually { Self.shown(record).count == 1 })
        #expect(Self.shown(record) == ["Shortcuts | Choose a quick action. | view-list | 1 | org.standfit.Host | 1=Morning routine"])
        // Without the routine, the next change of the menu takes its entry away.
        try FileManager.default.removeItem(at: shortcuts.appendingPathComponent("morning.json"))
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(!FileManager.default.fileExists(atPath: routines.path))
        #expect(FileManager.default.fileExists(atPath: host.path))
    }

    @Test("notifications say what ran in words (issue 33): a body a markup server would read is escaped, a routine lists its steps' outcomes, an action outside the menu is titled by its name, not its type",
          .needs(.dbusDaemon, .python3, .pythonGI))
    func notificationWords() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(capabilities: ["actions", "body", "body-markup"])
        defer { bus.stop() }
        #expect(sandbox.run("run", "--notify", "logexercise", "exercise=squats", "count=5", "note=<i>relax</i> & stretch").status == 0)
        #expect(sandbox.run("run", "--notify", "history").status == 0)
        #expect(sandbox.run("run", "--notify", "achievements").status == 0)
        let shortcuts = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: shortcuts, withIntermediateDirectories: true)
        try Data(#"{"type": "user.morning", "title": "Morning routine", "steps": [{"type": "com.standfit.logexercise", "parameters": {"exercise": "plank", "count": 30}}, {"type": "com.standfit.viewstreak"}]}"#.utf8)
            .write(to: shortcuts.appendingPathComponent("morning.json"))
        #expect(sandbox.run("run", "--notify", "user.morning").status == 0)
        #expect(eventually { Self.shown(record).count == 4 })
        let shown = Self.shown(record)
        #expect(shown.first == "Log Exercise | Logged 5 squats · +5 XP\nAchievement unlocked: First log | list-add | 1 | org.standfit.Host | ")
        // The note as typed, escaped for a server that reads markup.
        #expect(shown[1] == "History | Logged in the last 7 days:\n#1  Sun 22 Nov 14:05  5 squats — &lt;i&gt;relax&lt;/i&gt; &amp; stretch | appointment-soon | 1 | org.standfit.Host | ",
                "\(shown)")
        #expect(shown[2] == "Achievements | " + """
            Level 1 · 5 XP · 95 XP to level 2
            Earned
            ✓ First log · 22 Nov
            Next
            · 3-day streak                              1/3
            · 7-day streak                              1/7
            · 100 squats                                5/100
            · Every exercise tried                      1/10
            · Five days in one week                     1/5
            · Early bird (a log between 4:00 and 7:00)  0/1
            """ + " | emblem-favorite | 1 | org.standfit.Host | ", "\(shown)")
        #expect(shown.last == "Morning routine | Logged 30 seconds of plank · +6 XP\nStreak: 1 day\nBest streak: 1 day · level 1 · 11 XP\nMorning routine: ran 2 steps. | view-list | 1 | org.standfit.Host | ")
        // A server that reads no markup gets the words as they are.
        let (plain, plainBus, plainRecord) = try Self.sandboxWithNotifications()
        defer { plainBus.stop() }
        #expect(plain.run("run", "logexercise", "exercise=squats", "count=5", "note=<i>relax</i>").status == 0)
        #expect(plain.run("run", "--notify", "history").status == 0)
        #expect(eventually { Self.shown(plainRecord).count == 1 })
        #expect(Self.shown(plainRecord) == ["History | Logged in the last 7 days:\n#1  Sun 22 Nov 14:05  5 squats — <i>relax</i> | appointment-soon | 1 | org.standfit.Host | "],
                "\(Self.shown(plainRecord))")
    }

    @Test("menu --notify with nothing on the bus to start says how to install it", .needs(.dbusDaemon))
    func menuNotifyWithoutService() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        // 69, the desktop is unavailable (not 5: no setting is wrong).
        #expect(sandbox.run("menu", "--notify") == ProcessResult(status: 69, stdout: "", stderr: """
            standfit-host: error: menu --notify could not reach org.standfit.Host on the session bus (The name org.standfit.Host was \
            not provided by any .service files); run 'standfit-host export desktop --install' so that the bus can start it, or \
            'standfit-host menu' in a terminal.

            """))
        let json = sandbox.run("menu", "--notify", "--json")
        #expect(json.status == 69)
        #expect(canonicalJSON(json.stdout) == #"{"code":"desktop-unavailable","message":"menu --notify could not reach org.standfit.Host on the session bus (The name org.standfit.Host was not provided by any .service files); run 'standfit-host export desktop --install' so that the bus can start it, or 'standfit-host menu' in a terminal.","status":"error"}"#)
        // Without a session bus at all, the same way out.
        var busless = sandbox
        busless.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(sandbox.root.path)/no-bus"
        #expect(busless.run("menu", "--notify").status == 69)
    }

    @Test("KRunner: export krunner --install; Match understands phrases, bare words and titles, says them as said, offers no refused run, Run runs the match, Config asks for every query",
          .needs(.dbusDaemon, .gdbus, .sqlite3))
    func krunner() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        let plugin = sandbox.dataHome.appendingPathComponent("krunner/dbusplugins/\(Self.applicationID).desktop")
        let service = sandbox.dataHome.appendingPathComponent("dbus-1/services/\(Self.applicationID).service")
        #expect(sandbox.run("export", "krunner", "--install")
            == ProcessResult(status: 0, stdout: "Wrote \(plugin.path) and \(service.path).\n", stderr: ""))
        #expect(try String(contentsOf: plugin, encoding: .utf8) == """
            [Desktop Entry]
            Type=Service
            Name=StandFit
            Comment=Quick actions: say what to do, such as "log 20 squats"
            Comment[nl]=Snelle acties: zeg wat er moet gebeuren, zoals "log 20 squats"
            Icon=list-add
            X-KDE-ServiceTypes=Plasma/Runner
            X-KDE-PluginInfo-Name=org.standfit.Host
            X-KDE-PluginInfo-EnabledByDefault=true
            X-Plasma-API-Minimum-Version=2.0
            X-Plasma-API=DBus2
            X-Plasma-DBusRunner-Service=org.standfit.Host
            X-Plasma-DBusRunner-Path=/org/standfit/Host/Runner

            """ + "X-Plasma-Request-Actions-Once=true\n")
        func call(_ method: String, _ arguments: String...) -> ProcessResult {
            bus.run(.gdbus, ["call", "--session", "--dest", Self.applicationID, "--object-path", "/org/standfit/Host/Runner",
                             "--method", "org.kde.krunner1.\(method)"] + arguments)
        }
        // The bus starts the server for KRunner's first call.
        #expect(call("Match", "log 20 squats") == ProcessResult(status: 0, stdout: """
            ([('phrase:{"arguments":{"count":"20","exercise":"squats"},"type":"com.standfit.logexercise"}', \
            'Log 20 squats', 'list-add', 100, 1.0, {'subtext': <'StandFit'>, 'actions': <['copy']>})],)

            """, stderr: ""))
        // Nothing logged: the quick actions are Log Exercise alone, so "view" names none.
        #expect(call("Match", "view").stdout == "(@a(sssida{sv}) [],)\n")
        #expect(call("Match", "nothing like it").stdout == "(@a(sssida{sv}) [],)\n")
        #expect(call("Actions").stdout == "([('copy', 'Copy as a command', 'edit-copy')],)\n")
        // A value the action would refuse is never a result (issue 51): nothing to run by mistake.
        #expect(call("Match", "log -5 squats").stdout == "(@a(sssida{sv}) [],)\n")
        #expect(call("Match", "log 5000 squats").stdout == "(@a(sssida{sv}) [],)\n")
        // Bare words find the action (issue 51): the phrase's ending, said whole with the values
        // the run takes.
        #expect(call("Match", "20 squats") == ProcessResult(status: 0, stdout: """
            ([('phrase:{"arguments":{"count":"20","exercise":"squats"},"type":"com.standfit.logexercise"}', 'Log 20 squats', \
            'list-add', 30, 0.90000000000000002, {'subtext': <'StandFit'>, 'actions': <['copy']>})],)

            """, stderr: ""))
        #expect(call("Match", "push ups") == ProcessResult(status: 0, stdout: """
            ([('phrase:{"arguments":{"exercise":"push ups"},"type":"com.standfit.logexercise"}', 'Log 10 push ups', \
            'list-add', 30, 0.90000000000000002, {'subtext': <'StandFit'>, 'actions': <['copy']>})],)

            """, stderr: ""))
        #expect(call("Match", "5000 squats").stdout == "(@a(sssida{sv}) [],)\n")
        // No trigger words: KRunner asks for every query of three letters or more ("squats" too).
        #expect(call("Config") == ProcessResult(status: 0, stdout: "({'MinLetterCount': <3>},)\n", stderr: ""))
        #expect(call("Run", #"phrase:{"arguments":{"count":"20","exercise":"squats"},"type":"com.standfit.logexercise"}"#, "")
            == ProcessResult(status: 0, stdout: "()\n", stderr: ""))
        // Logged: View Streak and View Progress are quick actions now (gdbus prints the dash as ? in
        // the C locale).
        #expect(call("Match", "view") == ProcessResult(status: 0, stdout: """
            ([('action:com-standfit-viewstreak', 'View Streak ? 1 day', 'emblem-important', 30, 0.80000000000000004, {'subtext': <'StandFit'>, 'actions': <['copy']>}), \
            ('action:com-standfit-viewprogress', 'View Progress', 'x-office-spreadsheet', 30, 0.80000000000000004, {'subtext': <'StandFit'>, 'actions': <['copy']>})],)

            """, stderr: ""))
        // A query may start with any word (no trigger words): "squats" finds the action that logs
        // them, once: the quick action "Log Squats — 20 reps" would run the same and is not listed again.
        #expect(call("Match", "squats") == ProcessResult(status: 0, stdout: """
            ([('phrase:{"arguments":{"exercise":"squats"},"type":"com.standfit.logexercise"}', 'Log 20 squats', 'list-add', 30, 0.90000000000000002, {'subtext': <'StandFit'>, 'actions': <['copy']>})],)

            """, stderr: ""))
        #expect(call("Run", "action:com-standfit-viewstreak", "").status == 0)
        #expect(Self.logged(sandbox) == "squats|20\n")
        #expect(Self.serverLogLines(sandbox).contains(
            "standfit-host: info: KRunner Run 'action:com-standfit-viewstreak' from :1.N: handled: Streak: 1 day\\nBest streak: 1 day · level 1 · 20 XP"),
                "\(Self.serverLog(sandbox))")
        // A routine is an app of its own: its match says so (issue 35's menu per app), once (its
        // quick action would run the same).
        let shortcuts = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: shortcuts, withIntermediateDirectories: true)
        try Data(#"{"type": "user.morning", "title": "Morning routine", "steps": [{"type": "com.standfit.viewstreak"}]}"#.utf8)
            .write(to: shortcuts.appendingPathComponent("morning.json"))
        #expect(call("Match", "morning routine") == ProcessResult(status: 0, stdout: """
            ([('phrase:{"arguments":{},"type":"user.morning"}', 'Morning routine', 'view-list', 100, 1.0, {'subtext': <'Shortcuts'>, 'actions': <['copy']>})],)

            """, stderr: ""))
        // With the desktop file installed, Plasma's own Applications runner lists its actions:
        // this runner no longer names them too (issue 51), and its phrases stay.
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(call("Match", "view").stdout == "(@a(sssida{sv}) [],)\n")
        // The host's own icons, installed with it, are the results' icons now.
        #expect(call("Match", "squats") == ProcessResult(status: 0, stdout: """
            ([('phrase:{"arguments":{"exercise":"squats"},"type":"com.standfit.logexercise"}', 'Log 20 squats', 'org.standfit.Host.log', 30, 0.90000000000000002, {'subtext': <'StandFit'>, 'actions': <['copy']>})],)

            """, stderr: ""))
        #expect(!call("Match", "squats").stdout.contains("action:"))
        let stale = call("Run", "action:no-such-action", "")
        #expect(stale.status == 1)
        #expect(stale.stderr == "Error: GDBus.Error:org.standfit.Host.Error.UnknownAction: StandFit has no action 'no-such-action'; 'gapplication list-actions org.standfit.Host' lists the actions of the installed desktop file, and 'standfit-host list' the quick actions.\n")
    }

    @Test("a desktop request runs with the desktop's environment: a server a command started leaves out that command's STANDFIT_ variables; one the bus started keeps the bus's",
          .needs(.dbusDaemon, .gapplication, .sqlite3))
    func desktopEnvironment() throws {
        let (sandbox, bus) = try Self.sandboxOnBus()
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        let file = sandbox.dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite")
        func years() -> String {
            runProcess(ExternalTool.sqlite3.url, arguments: [file.path, "SELECT substr(loggedAt, 1, 4) FROM log ORDER BY id;"]).stdout
        }
        // Started by a command dated 2030: that date was the command's, not the desktop's.
        var command = sandbox.environment
        command["STANDFIT_NOW"] = "2030-01-01T08:00:00Z"
        #expect(sandbox.server.start(environment: command) == nil)
        #expect(sandbox.server.listening())
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'squats'>, 'count': <20>}"]).status == 0)
        let now = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect(years() == "\(now)\n")
        sandbox.server.stopAll()
        // Started by the bus, whose environment (the sandbox's) dates the test's runs 2026-11-22.
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'squats'>, 'count': <20>}"]).status == 0)
        #expect(years() == "\(now)\n2026\n")
        #expect(sandbox.run("server", "stop").status == 0)
    }

    @Test("a server that stops takes away the notifications whose buttons it would have answered",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI))
    func stopClosesButtons() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications()
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'exercise': <'squats'>, 'count': <20>}"]).status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise"]).status == 0)
        #expect(sandbox.run("server", "stop").status == 0)
        // Only the one with buttons (the second) is closed.
        #expect(eventually { SessionBus.notifications(in: record).compactMap { $0["closed"] as? Int } == [2] })
    }

    @Test("no session bus: the server serves commands and says nothing of D-Bus unless --verbose")
    func noBus() throws {
        for verbose in [false, true] {
            var sandbox = HostSandbox.standFit()
            sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
            // A bus address where no bus listens, and none in the runtime directory.
            sandbox.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(sandbox.root.path)/no-bus"
            let log = sandbox.root.appendingPathComponent("server.log")
            #expect(sandbox.server.start(environment: sandbox.environment, log: log, verbose: verbose) == nil)
            defer { sandbox.server.stopAll() }
            #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20")
                == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
            // Served by the server, not run cold.
            let status = try JSONDecoder().decode(WarmServerTests.Status.self, from: Data(sandbox.run("server", "status", "--json").stdout.utf8))
            let pid = try #require(sandbox.server.pid)
            #expect(status.running && status.pid == pid && status.requestsServed == 1, "\(status)")
            let text = try String(contentsOf: log, encoding: .utf8)
            let place = try Self.place(sandbox)
            let serving = "standfit-host: info: Serving \(place.socketPath) (pid \(pid), build \(place.build), idle timeout 120 s)"
            if verbose {
                #expect(Self.logLines(text).contains(serving), "\(text)")
            } else {
                // That it serves, and nothing else.
                #expect(Self.logLines(text) == [serving], "\(text)")
            }
            #expect(Self.logLines(text).contains("standfit-host: debug: Not on the session bus: no session bus (No such file or directory); the desktop front door is closed (commands are not affected).")
                    == verbose, "\(text)")
            #expect(text.contains("session bus") == verbose)
        }
    }
}
