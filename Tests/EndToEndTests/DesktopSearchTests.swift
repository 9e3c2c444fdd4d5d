import Foundation
import Testing
import TestSupport

/// The desktop's searches and typed replies over a private session bus: GNOME Shell's search
/// provider, KRunner's "Copy as a command", and KDE's inline reply to a prompt (issue 33).
@Suite("The desktop's searches and replies over D-Bus", .timeLimit(.minutes(10)))
struct DesktopSearchTests {
    static let applicationID = DesktopBusTests.applicationID
    static let phrase = #"phrase:{"arguments":{"count":"20","exercise":"squats"},"type":"com.standfit.logexercise"}"#

    /// Calls `method` of `interface` at `path` on the host, over `bus`.
    static func call(_ bus: SessionBus, _ path: String, _ method: String, _ arguments: [String]) -> ProcessResult {
        bus.run(.gdbus, ["call", "--session", "--dest", applicationID, "--object-path", path, "--method", method] + arguments)
    }

    static func search(_ bus: SessionBus, _ method: String, _ arguments: String...) -> ProcessResult {
        call(bus, "/org/standfit/Host/SearchProvider", "org.gnome.Shell.SearchProvider2.\(method)", arguments)
    }

    @Test("GNOME Shell's search: the provider file as GNOME reads it; results from phrases and names, their metas, activating one runs it and notifies, LaunchSearch shows the picker",
          .needs(.dbusDaemon, .gdbus, .python3, .pythonGI, .sqlite3))
    func gnomeSearch() throws {
        let (sandbox, bus, record) = try DesktopBusTests.sandboxWithNotifications()
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        let text = """
            [Shell Search Provider]
            DesktopId=org.standfit.Host.desktop
            BusName=org.standfit.Host
            ObjectPath=/org/standfit/Host/SearchProvider
            Version=2

            """
        #expect(sandbox.run("export", "search-provider") == ProcessResult(status: 0, stdout: text, stderr: ""))
        let directory = sandbox.root.appendingPathComponent("system/gnome-shell/search-providers")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("org.standfit.Host.search-provider.ini")
        #expect(sandbox.run("export", "search-provider", "--output", file.path)
            == ProcessResult(status: 0, stdout: "Wrote \(file.path).\n", stderr: ""))
        // Read as GNOME Shell's remoteSearch.js reads it: a key file whose DesktopId names an
        // installed application that is shown (else the provider is skipped).
        let reader = """
            import sys
            from gi.repository import GLib, Gio
            keys = GLib.KeyFile()
            keys.load_from_file(sys.argv[1], GLib.KeyFileFlags.NONE)
            group = "Shell Search Provider"
            app = Gio.DesktopAppInfo.new(keys.get_string(group, "DesktopId"))
            print(keys.get_string(group, "BusName"), keys.get_string(group, "ObjectPath"), keys.get_integer(group, "Version"),
                  app.get_name(), app.should_show())
            """
        #expect(bus.run(.python3, ["-c", reader, file.path])
            == ProcessResult(status: 0, stdout: "org.standfit.Host /org/standfit/Host/SearchProvider 2 StandFit True\n", stderr: ""))
        // The bus starts the server for the first search; nothing is logged yet, so the one quick
        // action is Log Exercise.
        #expect(Self.search(bus, "GetInitialResultSet", "['log', '20', 'squats']")
            == ProcessResult(status: 0, stdout: "(['\(Self.phrase)'],)\n", stderr: ""))
        #expect(Self.search(bus, "GetInitialResultSet", "['nothing', 'like', 'it']").stdout == "(@as [],)\n")
        #expect(Self.search(bus, "GetInitialResultSet", "['exercise']").stdout == "(['action:com-standfit-logexercise'],)\n")
        // A narrower search is answered afresh from its terms.
        #expect(Self.search(bus, "GetSubsearchResultSet", "['action:com-standfit-logexercise']", "['log', '20', 'squats']").stdout
            == "(['\(Self.phrase)'],)\n")
        // Metas for the ids a result set gave; an id never given is left out. GNOME shows them
        // under StandFit already, so no description names it again.
        #expect(Self.search(bus, "GetResultMetas", "['\(Self.phrase)', 'action:com-standfit-logexercise', 'action:unknown']")
            == ProcessResult(status: 0, stdout: """
                ([{'id': <'\(Self.phrase)'>, 'name': <'Log 20 squats'>, 'gicon': <'org.standfit.Host.log'>}, \
                {'id': <'action:com-standfit-logexercise'>, 'name': <'Log Exercise'>, 'gicon': <'org.standfit.Host.log'>}],)

                """, stderr: ""))
        // A value the action would refuse is never a result (issue 51).
        #expect(Self.search(bus, "GetInitialResultSet", "['log', '-5', 'squats']").stdout == "(@as [],)\n")
        #expect(Self.search(bus, "GetInitialResultSet", "['log', '5000', 'squats']").stdout == "(@as [],)\n")
        // Bare words find the action (issue 51): "squats", "20 squats", "plank".
        #expect(Self.search(bus, "GetInitialResultSet", "['20', 'squats']").stdout == "(['\(Self.phrase)'],)\n")
        #expect(Self.search(bus, "GetInitialResultSet", "['squats']").stdout == #"(['phrase:{"arguments":{"exercise":"squats"},"type":"com.standfit.logexercise"}'],)"# + "\n")
        #expect(Self.search(bus, "GetInitialResultSet", "['plank']").stdout == #"(['phrase:{"arguments":{"exercise":"plank"},"type":"com.standfit.logexercise"}'],)"# + "\n")
        // Activating a result runs it, and the outcome is a notification.
        #expect(Self.search(bus, "ActivateResult", Self.phrase, "['log', '20', 'squats']", "0")
            == ProcessResult(status: 0, stdout: "()\n", stderr: ""))
        #expect(DesktopBusTests.logged(sandbox) == "squats|20\n")
        #expect(eventually(10) { DesktopBusTests.shown(record).count == 1 })
        // The warm pass's server was started by the harness: its desktop requests run on the real clock.
        if let early = HostPath.current == .warm ? DesktopBusTests.realClockAchievements() : "" {
            #expect(DesktopBusTests.shown(record) == [
                "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log\(early) | org.standfit.Host.log | 1 | org.standfit.Host | ",
            ])
        }
        // LaunchSearch opens the app: its picker.
        #expect(Self.search(bus, "LaunchSearch", "['log']", "0") == ProcessResult(status: 0, stdout: "()\n", stderr: ""))
        #expect(eventually(10) { DesktopBusTests.shown(record).count == 2 })
        #expect(DesktopBusTests.shown(record).last
                == "StandFit | Choose a quick action. | org.standfit.Host | 1 | org.standfit.Host | 1=Log Exercise,2=View Streak — 1 day,3=More (2)…",
                "\(DesktopBusTests.shown(record))")
    }

    @Test("KRunner's Copy as a command: the command line that runs the match goes to Klipper and runs as pasted; without a clipboard manager, the command is said",
          .needs(.dbusDaemon, .gdbus, .python3, .pythonGI, .sqlite3))
    func krunnerCopy() throws {
        let (sandbox, bus, record) = try DesktopBusTests.sandboxWithNotifications()
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        let desktop = try String(contentsOf: sandbox.dataHome.appendingPathComponent("applications/\(Self.applicationID).desktop"), encoding: .utf8)
        let client = try #require(desktop.split(separator: "\n").first { $0.hasPrefix("Exec=") }?.dropFirst(5).split(separator: " ").first)
        let command = "\(client) run -- com.standfit.logexercise count=20 exercise=squats"
        func run(_ match: String, _ action: String) -> ProcessResult {
            Self.call(bus, "/org/standfit/Host/Runner", "org.kde.krunner1.Run", [match, action])
        }
        // No clipboard manager yet: refused, and the notification names the command.
        let refused = run(Self.phrase, "copy")
        #expect(refused.status == 1)
        #expect(refused.stderr == "Error: GDBus.Error:org.freedesktop.DBus.Error.Failed: The command is '\(command)'; it could not be copied, since no clipboard manager (Klipper) answers on the session bus. (The name org.kde.klipper was not provided by any .service files)\n",
                "\(refused)")
        #expect(eventually(10) { DesktopBusTests.shown(record).count == 1 })
        #expect(DesktopBusTests.shown(record) == ["StandFit | The command is '\(command)'; it could not be copied, since no clipboard manager (Klipper) answers on the session bus. | edit-copy | 1 | org.standfit.Host | "])
        let clipboard = sandbox.root.appendingPathComponent("clipboard.jsonl")
        try #require(bus.startClipboard(record: clipboard), "the test clipboard did not start; \(sandbox.logs("clipboard.py.log"))")
        #expect(run(Self.phrase, "copy") == ProcessResult(status: 0, stdout: "()\n", stderr: ""))
        #expect(try String(contentsOf: clipboard, encoding: .utf8) == "\"\(command)\"\n")
        #expect(eventually(10) { DesktopBusTests.shown(record).count == 2 })
        #expect(DesktopBusTests.shown(record).last == "StandFit | Copied '\(command)'; paste it in a terminal or a script to run this again. | edit-copy | 1 | org.standfit.Host | ")
        // Copying runs nothing; the pasted command does.
        #expect(DesktopBusTests.logged(sandbox) == "")
        let pasted = sandbox.checkingHandBacks(command) {
            runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", command], environment: sandbox.environment)
        }
        #expect(pasted.status == 0, "\(pasted)")
        #expect(DesktopBusTests.logged(sandbox) == "squats|20\n")
        // An item's command carries its userInfo, quoted for the shell: the item the log made
        // ("Log Squats — 20 reps") runs as pasted.
        let copied = run("action:com-standfit-logexercise-2", "copy")
        #expect(copied == ProcessResult(status: 0, stdout: "()\n", stderr: ""))
        let item = #"\#(client) run --user-info '{"count":20,"exercise":"squats"}' -- com.standfit.logexercise"#
        #expect(try String(contentsOf: clipboard, encoding: .utf8).split(separator: "\n").last.map(String.init) == "\"\(item.replacingOccurrences(of: "\"", with: "\\\""))\"")
        let pastedItem = sandbox.checkingHandBacks(item) {
            runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", item], environment: sandbox.environment)
        }
        #expect(pastedItem.status == 0, "\(pastedItem)")
        #expect(DesktopBusTests.logged(sandbox) == "squats|20\nsquats|20\n")
        let unknown = run("nothing:at-all", "copy")
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "Error: GDBus.Error:org.standfit.Host.Error.UnknownAction: The desktop's search asked to copy 'nothing:at-all', which is no match of StandFit's; search again.\n")
    }

    @Test("KDE's inline reply: a prompt asks for a typed answer where the server takes one, and '20 squats' typed logs 20 squats; an answer that fits no phrase says the closest and asks again; the picker takes a sentence",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI, .sqlite3))
    func inlineReply() throws {
        let answers = [
            ("20 squats", "squats|20\n", "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log | org.standfit.Host.log | 1 | org.standfit.Host | "),
            ("twenty bananas", "", #"Log Exercise | No action understands 'twenty bananas'; the closest phrases are '20 squats' (Log Exercise), 'do 20 squats' (Log Exercise) and 'log 20 squats' (Log Exercise). | org.standfit.Host.log | 1 | org.standfit.Host | "#),
        ]
        for (reply, logged, answer) in answers {
            let (sandbox, bus, record) = try DesktopBusTests.sandboxWithNotifications(
                capabilities: ["actions", "body", "inline-reply"], reply: reply)
            defer { bus.stop() }
            #expect(sandbox.run("export", "desktop", "--install").status == 0)
            #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise"]).status == 0)
            let question = "Log Exercise | Which exercise? | org.standfit.Host.log | 1 | org.standfit.Host | 1=Squats,2=Push-Ups,3=Plank,inline-reply=Reply"
            // A reply that answers nothing is said, and the question asked again (issue 51).
            let expected = logged.isEmpty ? [question, answer, question] : [question, answer]
            #expect(eventually(10) { DesktopBusTests.shown(record).count == expected.count }, "\(DesktopBusTests.shown(record))")
            // The question: the values as buttons, and the reply field with an example.
            let notes = SessionBus.notifications(in: record).filter { $0["closed"] == nil }
            #expect(notes.first?["replyPlaceholder"] as? String == "Or type it, such as 'squats'")
            // The warm pass's server was started by the harness: its desktop requests run on the real clock.
            if let early = HostPath.current == .warm ? DesktopBusTests.realClockAchievements() : "" {
                #expect(DesktopBusTests.shown(record) == expected.map { $0.replacingOccurrences(of: "First log |", with: "First log\(early) |") })
            }
            #expect(DesktopBusTests.logged(sandbox) == logged)
        }
        // The picker (the app launched) takes a sentence as a typed reply, as `say` does.
        let (sandbox, bus, record) = try DesktopBusTests.sandboxWithNotifications(
            capabilities: ["actions", "body", "inline-reply"], reply: "log 20 squats")
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["launch", Self.applicationID]).status == 0)
        #expect(eventually(10) { DesktopBusTests.shown(record).count == 2 }, "\(DesktopBusTests.shown(record))")
        if let early = HostPath.current == .warm ? DesktopBusTests.realClockAchievements() : "" {
            #expect(DesktopBusTests.shown(record) == [
                "StandFit | Choose a quick action. | org.standfit.Host | 1 | org.standfit.Host | 1=Log Exercise,inline-reply=Reply",
                "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log\(early) | org.standfit.Host.log | 1 | org.standfit.Host | ",
            ])
        }
        // Its example is a sentence an action understands as it is.
        #expect(SessionBus.notifications(in: record).compactMap { $0["replyPlaceholder"] as? String } == ["Or type what to do, such as 'log exercise'"])
        #expect(DesktopBusTests.logged(sandbox) == "squats|20\n")
    }

    @Test("one language per answer: a desktop request to a server a command started in English is answered in the session's language (the user's service manager's environment); KRunner's actions too",
          .needs(.dbusDaemon, .gapplication, .gdbus, .python3, .pythonGI, .sqlite3))
    func sessionLanguage() throws {
        let (sandbox, bus, record) = try DesktopBusTests.sandboxWithNotifications()
        defer { bus.stop() }
        // No desktop file installed (KRunner alone): no language is recorded for the desktop.
        var english = sandbox.environment
        english["LANG"] = "en_US.UTF-8"
        english["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        #expect(sandbox.server.start(environment: english) == nil)
        // Listening first, then on the bus: no service file would start another.
        #expect(eventually(10) { bus.owner(of: Self.applicationID) != nil })
        let squats = "{'exercise': <'squats'>, 'count': <20>}"
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "com.standfit.logexercise", squats]).status == 0)
        #expect(eventually(10) { DesktopBusTests.shown(record).count == 1 })
        // The session is Dutch: the user's service manager says so.
        let manager = sandbox.root.appendingPathComponent("service-manager.ready")
        try #require(bus.startServiceManager(environment: ["LANG=nl_NL.UTF-8", "PATH=/usr/bin:/bin"], record: manager),
                     "the test service manager did not start; \(sandbox.logs("service-manager.py.log"))")
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "com.standfit.logexercise", squats]).status == 0)
        #expect(eventually(10) { DesktopBusTests.shown(record).count == 2 })
        // The server was started by a command: its desktop requests run on the real clock.
        if let early = DesktopBusTests.realClockAchievements() {
            #expect(DesktopBusTests.shown(record) == [
                "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log\(early) | list-add | 1 | org.standfit.Host | ",
                "Oefening loggen | 20 squats gelogd · +20 XP | list-add | 1 | org.standfit.Host | ",
            ])
        }
        // KRunner's actions too (gdbus prints the ë as ? in the C locale).
        #expect(Self.call(bus, "/org/standfit/Host/Runner", "org.kde.krunner1.Actions", []).stdout
            == "([('copy', 'Kopi?ren als opdracht', 'edit-copy')],)\n")
        #expect(sandbox.run("server", "stop").status == 0)
    }
}
