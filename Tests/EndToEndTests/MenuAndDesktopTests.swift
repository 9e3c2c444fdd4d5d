import Foundation
import Testing
import TestSupport

/// `menu` driven in tmux, and `export desktop` checked by desktop-file-validate and by running
/// each action's Exec line as a desktop would.
@Suite("standfit-host menu and export desktop", .timeLimit(.minutes(10)), .serialized)
struct MenuAndDesktopTests {
    let sandbox = HostSandbox.standFit()

    init() {
        _ = sandbox.run("run", "logexercise", "exercise=squats", "count=20")
    }

    @Test("the menu shows icons, titles and subtitles; arrows choose, Enter runs the item with its userInfo", .needs(.tmux))
    func menuRuns() throws {
        try sandbox.checkingHandBacks("menu") {
            let tmux = try TmuxSession(command: sandbox.shellCommand(["menu"]))
            #expect(tmux.wait(for: "Esc or q to leave") == """
                Quick actions
                ❯ 1. ➕ Log Exercise
                  2. 🔥 View Streak — 1 day
                  3. 🏃 Log Squats — 20 reps
                  4. 📊 View Progress
                ↑/↓ or 1–4 to choose · Enter to run · Esc or q to leave
                """)
            tmux.send("Down")
            tmux.send("Up")
            tmux.send("Up")   // wraps to the last item
            #expect(tmux.wait(for: "❯ 4. 📊 View Progress") == """
                Quick actions
                  1. ➕ Log Exercise
                  2. 🔥 View Streak — 1 day
                  3. 🏃 Log Squats — 20 reps
                ❯ 4. 📊 View Progress
                ↑/↓ or 1–4 to choose · Enter to run · Esc or q to leave
                """)
            tmux.send("Up")
            #expect(tmux.wait(for: "❯ 3. 🏃 Log Squats — 20 reps") == """
                Quick actions
                  1. ➕ Log Exercise
                  2. 🔥 View Streak — 1 day
                ❯ 3. 🏃 Log Squats — 20 reps
                  4. 📊 View Progress
                ↑/↓ or 1–4 to choose · Enter to run · Esc or q to leave
                """)
            tmux.send("Enter")
            #expect(tmux.wait(for: "EXIT=") == """
                🏃 Log Squats — 20 reps
                Logged 20 squats · +20 XP
                EXIT=0
                """)
        }
        #expect(canonicalJSON(sandbox.run("run", "viewprogress", "--json").stdout) == #"{"data":{"days":[{"date":"2026-11-22","logs":2,"totals":{"squats":40}},{"date":"2026-11-23","logs":0,"totals":{}},{"date":"2026-11-24","logs":0,"totals":{}},{"date":"2026-11-25","logs":0,"totals":{}},{"date":"2026-11-26","logs":0,"totals":{}},{"date":"2026-11-27","logs":0,"totals":{}},{"date":"2026-11-28","logs":0,"totals":{}}],"exercises":[{"exercise":"squats","logs":2,"total":40,"unit":"reps"}],"totalLogs":2,"weekEnd":"2026-11-28","weekStart":"2026-11-22"},"message":"This week, 22 Nov – 28 Nov 2026\nSun 22  ██ 2\nMon 23  · 0\nTue 24  · 0\nWed 25  · 0\nThu 26  · 0\nFri 27  · 0\nSat 28  · 0\n\nBy exercise\nSquats  ██ 2 logs, 40 reps\n\n█ = 1 log","plugin":"com.standfit","status":"handled","type":"com.standfit.viewprogress"}"#)
    }

    @Test("digits choose; Esc and q leave without running anything", .needs(.tmux))
    func menuLeaves() throws {
        try sandbox.checkingHandBacks("menu (digits, Esc and q)") {
            let digits = try TmuxSession(command: sandbox.shellCommand(["menu"]))
            digits.wait(for: "Esc or q to leave")
            digits.send("2")
            #expect(digits.wait(for: "❯ 2. 🔥 View Streak — 1 day") == """
                Quick actions
                  1. ➕ Log Exercise
                ❯ 2. 🔥 View Streak — 1 day
                  3. 🏃 Log Squats — 20 reps
                  4. 📊 View Progress
                ↑/↓ or 1–4 to choose · Enter to run · Esc or q to leave
                """)
            digits.send("Enter")
            #expect(digits.wait(for: "Streak: 1 day\nBest streak: 1 day · level 1 · 20 XP\nEXIT=0") == """
                🔥 View Streak — 1 day
                Streak: 1 day
                Best streak: 1 day · level 1 · 20 XP
                EXIT=0
                """)
            for key in ["Escape", "q"] {
                let tmux = try TmuxSession(command: sandbox.shellCommand(["menu", "--locale", "nl"]))
                #expect(tmux.wait(for: "❯ 1. ➕ Oefening loggen") == """
                    Snelle acties
                    ❯ 1. ➕ Oefening loggen
                      2. 🔥 Reeks bekijken — 1 dag
                      3. 🏃 Squats loggen — 20 herhalingen
                      4. 📊 Voortgang bekijken
                    ↑/↓ of 1–4 om te kiezen · Enter om uit te voeren · Esc of q om te stoppen
                    """)
                tmux.send(key)
                #expect(tmux.wait(for: "EXIT=") == "EXIT=0")
            }
        }
        #expect(canonicalJSON(sandbox.run("run", "viewprogress", "--json").stdout) == #"{"data":{"days":[{"date":"2026-11-22","logs":1,"totals":{"squats":20}},{"date":"2026-11-23","logs":0,"totals":{}},{"date":"2026-11-24","logs":0,"totals":{}},{"date":"2026-11-25","logs":0,"totals":{}},{"date":"2026-11-26","logs":0,"totals":{}},{"date":"2026-11-27","logs":0,"totals":{}},{"date":"2026-11-28","logs":0,"totals":{}}],"exercises":[{"exercise":"squats","logs":1,"total":20,"unit":"reps"}],"totalLogs":1,"weekEnd":"2026-11-28","weekStart":"2026-11-22"},"message":"This week, 22 Nov – 28 Nov 2026\nSun 22  █ 1\nMon 23  · 0\nTue 24  · 0\nWed 25  · 0\nThu 26  · 0\nFri 27  · 0\nSat 28  · 0\n\nBy exercise\nSquats  █ 1 log, 20 reps\n\n█ = 1 log","plugin":"com.standfit","status":"handled","type":"com.standfit.viewprogress"}"#)
    }

    @Test("a chosen item runs as run runs it on a terminal: a missing value is asked for, a routine shows each step; --json prints the outcome", .needs(.tmux))
    func menuAsksAsRunDoes() throws {
        try sandbox.checkingHandBacks("menu (asking for values)") {
            let asking = try TmuxSession(command: sandbox.shellCommand(["menu"]))
            asking.wait(for: "Esc or q to leave")
            asking.send("Enter")
            let question = """
                ➕ Log Exercise
                Which exercise?
                   1. Squats
                   2. Push-Ups
                   3. Plank
                   4. Lunges
                   5. Calf Raises
                   6. Stretching
                   7. Jumping Jacks
                   8. Wall Sit
                   9. Burpees
                  10. Sit-Ups
                >
                """
            // The question and its prompt are one write: once the last option shows, so does the prompt.
            #expect(asking.wait(for: "10. Sit-Ups") == question)
            asking.send("lunges", "Enter")
            #expect(asking.wait(for: "> lunges\nHow many? (1–3600) [12]\n>") == question + " lunges\nHow many? (1–3600) [12]\n>")
            asking.send("12", "Enter")
            #expect(asking.wait(for: "Logged 12 lunges · +14 XP\nEXIT=0")
                == question + " lunges\nHow many? (1–3600) [12]\n> 12\nLogged 12 lunges · +14 XP\nEXIT=0")
        }

        let shortcuts = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: shortcuts, withIntermediateDirectories: true)
        try Data(#"{"type": "user.morning", "title": "Morning routine", "steps": [{"type": "com.standfit.logexercise", "parameters": {"exercise": "stretching", "count": 30}}, {"type": "com.standfit.viewstreak"}]}"#.utf8)
            .write(to: shortcuts.appendingPathComponent("morning.json"))
        try sandbox.checkingHandBacks("menu (a routine)") {
            let routine = try TmuxSession(command: sandbox.shellCommand(["menu"]))
            #expect(routine.wait(for: "❯ 1. 📋 Morning routine") == """
                Quick actions
                  Shortcuts
                ❯ 1. 📋 Morning routine
                  StandFit
                  2. ➕ Log Exercise
                  3. 🔥 View Streak — 1 day
                  4. 🏃 Log Lunges — 12 reps
                  5. 📊 View Progress
                ↑/↓ or 1–5 to choose · Enter to run · Esc or q to leave
                """)
            routine.send("Enter")
            // Each step's answer, then the routine's, as `run morning` prints them.
            #expect(routine.wait(for: "EXIT=") == """
                📋 Morning routine
                Logged 30 seconds of stretching · +3 XP
                Streak: 1 day
                Best streak: 1 day · level 1 · 37 XP
                Morning routine: ran 2 steps.
                EXIT=0
                """)
        }

        // Under --json the menu is drawn on stderr: stdout, here a file, is the outcome's document alone.
        let document = sandbox.root.appendingPathComponent("outcome.json")
        try sandbox.checkingHandBacks("menu --json") {
            let json = try TmuxSession(command: sandbox.shellCommand(["menu", "--json"], stdoutTo: document))
            json.wait(for: "Esc or q to leave")
            json.send("3")
            json.send("Enter")
            #expect(json.wait(for: "EXIT=0") == "🔥 View Streak — 1 day\nEXIT=0")
        }
        let outcome = try JSONSerialization.jsonObject(with: Data(contentsOf: document)) as? [String: Any]
        #expect(outcome?["status"] as? String == "handled" && outcome?["type"] as? String == "com.standfit.viewstreak")
        try sandbox.checkingHandBacks("menu --json (left with q)") {
            let leaving = try TmuxSession(command: sandbox.shellCommand(["menu", "--json"], stdoutTo: document))
            leaving.wait(for: "Esc or q to leave")
            leaving.send("q")
            #expect(leaving.wait(for: "EXIT=0") == "EXIT=0")
        }
        #expect(try String(contentsOf: document, encoding: .utf8) == """
            {
              "message" : "No quick action was chosen.",
              "status" : "cancelled"
            }

            """)
    }

    @Test("menu refuses without a terminal, and menu --json without one on standard input and standard error (64; under --json the refusal is the JSON document)")
    func menuNeedsTerminal() {
        let usage = "Usage: standfit-host menu [--json] [--verbose] [--manifest <path>] [--define <NAME=VALUE> ...] [--locale <language>] [--require-trusted] [--isolate] [--app <id>] [--limit <limit>] [--notify]\n"
            + "  See 'standfit-host menu --help' for more information.\n"
        #expect(sandbox.run("menu") == ProcessResult(status: 64, stdout: "", stderr: """
            Error: menu needs a terminal on standard input and output; in scripts use 'standfit-host list' to see the actions and 'standfit-host run TYPE' to run one.

            """ + usage))
        let json = "Error: menu --json needs a terminal on standard input and standard error (it draws there; standard output is the document); in scripts use 'standfit-host list --json' and 'standfit-host run TYPE --json'.\n" + usage
        #expect(sandbox.run("menu", "--json") == ProcessResult(status: 64, stdout: """
            {
              "code" : "usage",
              "message" : "\(json.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: "\\n"))",
              "status" : "error"
            }

            """, stderr: ""))
    }

    @Test("the exported file validates, and each action's Exec runs that item", .needs(.desktopFileValidate))
    func exportRuns() throws {
        let file = sandbox.root.appendingPathComponent("standfit.desktop")
        #expect(sandbox.run("export", "desktop", "--output", file.path)
            == ProcessResult(status: 0, stdout: "Wrote \(file.path) with 4 actions.\n", stderr: ""))
        #expect(validate(file) == ProcessResult(status: 0, stdout: "", stderr: ""))
        let desktop = try DesktopFile(parsing: String(contentsOf: file, encoding: .utf8))
        let main = try #require(desktop["Desktop Entry"])
        let ids = try #require(main["Actions"]).split(separator: ";").map(String.init)
        #expect(ids.compactMap { desktop["Desktop Action \($0)"]?["Name"] }
            == ["Log Exercise", "View Streak — 1 day", "Log Squats — 20 reps", "View Progress"])
        let execs = try ids.map { try DesktopExecParser.parse(try #require(desktop["Desktop Action \($0)"]?["Exec"])) }
        for exec in execs {
            #expect(URL(fileURLWithPath: exec[0]).resolvingSymlinksInPath() == Fixtures.hostBinary.resolvingSymlinksInPath())
        }
        #expect(execs.map { Array($0.dropFirst()) } == [
            ["run", "--", "com.standfit.logexercise"],
            ["run", "--", "com.standfit.viewstreak"],
            ["run", "--user-info", #"{"count":20,"exercise":"squats"}"#, "--", "com.standfit.logexercise"],
            ["run", "--", "com.standfit.viewprogress"],
        ])
        // Each runs its own item: the exercise asked for (no terminal and no --notify here:
        // refused, 3), the streak, 20 squats, the week.
        let ran = execs.map { sandbox.run(Array($0.dropFirst())) }
        #expect(ran[0] == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: Missing required parameter 'exercise' for com.standfit.logexercise; pass exercise=VALUE.\n"),
                "\(ran[0])")
        #expect(ran[1] == ProcessResult(status: 0, stdout: "Streak: 1 day\nBest streak: 1 day · level 1 · 20 XP\n", stderr: ""), "\(ran[1])")
        #expect(ran[2] == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\n", stderr: ""), "\(ran[2])")
        #expect(ran[3] == ProcessResult(status: 0, stdout: """
            This week, 22 Nov – 28 Nov 2026
            Sun 22  ██ 2
            Mon 23  · 0
            Tue 24  · 0
            Wed 25  · 0
            Thu 26  · 0
            Fri 27  · 0
            Sat 28  · 0

            By exercise
            Squats  ██ 2 logs, 40 reps

            █ = 1 log

            """, stderr: ""), "\(ran[3])")
    }

    @Test("--install keeps the file current; hostile titles and userInfo cannot inject arguments or field codes", .needs(.desktopFileValidate))
    func installAndHostile() throws {
        try FileManager.default.createDirectory(at: sandbox.configDirectory, withIntermediateDirectories: true)
        try Data(#"{"menuLimit": 10}"#.utf8).write(to: sandbox.configDirectory.appendingPathComponent("config.json"))
        let installed = sandbox.dataHome.appendingPathComponent("applications/org.standfit.Host.desktop")
        let service = sandbox.dataHome.appendingPathComponent("dbus-1/services/org.standfit.Host.service")
        #expect(sandbox.run("export", "desktop", "--install").stdout == "Wrote \(installed.path) with 5 actions, and \(service.path).\n")
        _ = sandbox.run("run", "logexercise", "exercise=plank", "count=30")
        #expect(try String(contentsOf: installed, encoding: .utf8) == #"""
            [Desktop Entry]
            Type=Application
            Version=1.4
            Name=StandFit
            Comment=Quick actions: Log Exercise, View Streak, Log Plank and View Progress
            Comment[nl]=Snelle acties: Oefening loggen, Reeks bekijken, Plank loggen en Voortgang bekijken
            Keywords=Log;Exercise;View;Streak;Plank;Progress;quick;actions;
            Keywords[nl]=Oefening;loggen;Reeks;bekijken;Plank;Voortgang;snelle;acties;
            Icon=org.standfit.Host
            Exec=\#(Fixtures.hostBinary.path) menu --notify
            Terminal=false
            DBusActivatable=true
            Categories=Utility;
            Actions=com-standfit-logexercise;com-standfit-viewstreak;com-standfit-logexercise-2;com-standfit-viewprogress;listen;

            [Desktop Action com-standfit-logexercise]
            Name=Log Exercise
            Name[nl]=Oefening loggen
            Icon=org.standfit.Host.log
            Exec=\#(Fixtures.hostBinary.path) run --notify -- com.standfit.logexercise

            [Desktop Action com-standfit-viewstreak]
            Name=View Streak — 1 day
            Name[nl]=Reeks bekijken — 1 dag
            Icon=org.standfit.Host.streak
            Exec=\#(Fixtures.hostBinary.path) run --notify -- com.standfit.viewstreak

            [Desktop Action com-standfit-logexercise-2]
            Name=Log Plank — 30 seconds
            Name[nl]=Plank loggen — 30 seconden
            Icon=org.standfit.Host.exercise-plank
            Exec=\#(Fixtures.hostBinary.path) run --notify --user-info "{\\"count\\":30,\\"exercise\\":\\"plank\\"}" -- com.standfit.logexercise

            [Desktop Action com-standfit-viewprogress]
            Name=View Progress
            Name[nl]=Voortgang bekijken
            Icon=org.standfit.Host.progress
            Exec=\#(Fixtures.hostBinary.path) run --notify -- com.standfit.viewprogress

            [Desktop Action listen]
            Name=Listen
            Name[nl]=Luisteren
            Icon=audio-input-microphone
            Exec=\#(Fixtures.hostBinary.path) listen --notify

            """#)
        let hostile = [
            #"Say "hi" & 'bye'"#, "$HOME $(id) `id` ${PATH}", "100% %f %u %%U", "a;b;c\\d", "two\nlines\tand tab",
            "Løg squåts 💪 — ünïcødé", "--help", "-e", "=",
        ]
        let items: [[String: Any]] = hostile.enumerated().map { index, text in
            ["type": "com.standfit.logexercise", "title": text,
             "userInfo": ["exercise": "squats", "count": index + 1, "note": text, text: [text, index]]]
        }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: items), as: UTF8.self)
        #expect(sandbox.run(["dynamic", "set", "-"], stdin: json).status == 0)
        #expect(validate(installed) == ProcessResult(status: 0, stdout: "", stderr: ""))
        let desktop = try DesktopFile(parsing: String(contentsOf: installed, encoding: .utf8))
        var ids = try #require(desktop["Desktop Entry"]?["Actions"]).split(separator: ";").map(String.init)
        // The quick actions, then Listen.
        #expect(ids.popLast() == "listen")
        let listed = try JSONSerialization.jsonObject(with: Data(sandbox.run("list", "--json").stdout.utf8)) as? [[String: Any]]
        let expected = try #require(listed)
        #expect(ids.count == expected.count)
        for (id, item) in zip(ids, expected) {
            let argv = try DesktopExecParser.parse(try #require(desktop["Desktop Action \(id)"]?["Exec"]))
            #expect(argv.last == item["type"] as? String)
            if argv.count == 7 {
                let sent = try JSONSerialization.jsonObject(with: Data(argv[4].utf8)) as? NSDictionary
                #expect(sent == item["userInfo"] as? NSDictionary, "\(id)")
            } else {
                #expect(argv.count == 5 && (item["userInfo"] as? [String: Any])?.isEmpty == true, "\(id): \(argv)")
            }
        }
        // Running a hostile item as the desktop would logs exactly its count; with no session bus
        // to show it on, the outcome is printed, and that it was not shown is said (exit 69).
        let percent = try #require(desktop.groups.first { $0["Name"] == hostile[2] })
        let argv = try DesktopExecParser.parse(try #require(percent["Exec"]))
        #expect(sandbox.run(Array(argv.dropFirst())) == ProcessResult(status: 69, stdout: "Logged 3 squats · +3 XP\n",
            stderr: "standfit-host: The outcome was not shown as a notification: there is no session bus (DBUS_SESSION_BUS_ADDRESS is unset and there is no $XDG_RUNTIME_DIR/bus); " + DesktopBusTests.notShownTail))
    }

    @Test("installed without --locale, the file stays in the language it was installed in when a command in another language rewrites it (issue 33)",
          .needs(.desktopFileValidate))
    func installKeepsLanguage() throws {
        var english = sandbox
        english.extraEnvironment["LANG"] = "en_US.UTF-8"
        #expect(english.run("export", "desktop", "--install").status == 0)
        var dutch = sandbox
        dutch.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        #expect(dutch.run("run", "logexercise", "exercise=squats", "count=20").stdout == "20 squats gelogd · +20 XP\n")
        #expect(dutch.run("refresh").status == 0)
        let installed = sandbox.dataHome.appendingPathComponent("applications/org.standfit.Host.desktop")
        let desktop = try DesktopFile(parsing: String(contentsOf: installed, encoding: .utf8))
        #expect(desktop.groups.dropFirst().compactMap { $0["Name"] } == ["Log Exercise", "View Streak — 1 day", "Log Squats — 20 reps", "View Progress", "Listen"])
        #expect(desktop.groups.dropFirst().compactMap { $0["Name[nl]"] } == ["Oefening loggen", "Reeks bekijken — 1 dag", "Squats loggen — 20 herhalingen", "Voortgang bekijken", "Luisteren"])
        // The language is not put in the Exec lines: only an explicit --locale is.
        let exec = try DesktopExecParser.parse(try #require(desktop["Desktop Entry"]?["Exec"]))
        #expect(Array(exec.dropFirst()) == ["menu", "--notify"])
        #expect(validate(installed) == ProcessResult(status: 0, stdout: "", stderr: ""))
    }

    @Test("the installed file keeps the options it was installed with: a later plain command rewrites it in its language, from its manifest")
    func installKeepsOptions() throws {
        let manifest = sandbox.root.appendingPathComponent("manifest.json")
        try Data(#"{"UIApplicationShortcutItems": [{"UIApplicationShortcutItemType": "com.standfit.viewprogress", "UIApplicationShortcutItemTitle": "Mijn week"}]}"#.utf8)
            .write(to: manifest)
        // An earlier version's file goes when the file is installed under its new name.
        let earlier = sandbox.dataHome.appendingPathComponent("applications/standfit-host.desktop")
        try FileManager.default.createDirectory(at: earlier.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[Desktop Entry]\n".utf8).write(to: earlier)
        #expect(sandbox.run("export", "desktop", "--install", "--manifest", manifest.path, "--locale", "nl").status == 0)
        #expect(!FileManager.default.fileExists(atPath: earlier.path))
        // A plain English command with the default manifest changes the dynamic items.
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").stdout == "Logged 20 squats · +20 XP\n")
        let installed = sandbox.dataHome.appendingPathComponent("applications/org.standfit.Host.desktop")
        let desktop = try DesktopFile(parsing: String(contentsOf: installed, encoding: .utf8))
        let names = desktop.groups.dropFirst().compactMap { $0["Name"] }
        // The manifest's item first (its type's title in Dutch), then StandFit's, in Dutch; each
        // also in English, the other language the host speaks.
        #expect(names == ["Voortgang bekijken", "Oefening loggen", "Reeks bekijken — 1 dag", "Squats loggen — 20 herhalingen", "Luisteren"])
        #expect(desktop.groups.dropFirst().compactMap { $0["Name[en]"] }
            == ["View Progress", "Log Exercise", "View Streak — 1 day", "Log Squats — 20 reps", "Listen"])
        // Its Exec lines carry the options, so the fallback runs what the entry shows.
        let exec = try DesktopExecParser.parse(try #require(desktop["Desktop Entry"]?["Exec"]))
        #expect(Array(exec.dropFirst()) == ["menu", "--notify", "--manifest", manifest.path, "--locale", "nl"])
        let listen = try DesktopExecParser.parse(try #require(desktop["Desktop Action listen"]?["Exec"]))
        #expect(Array(listen.dropFirst()) == ["listen", "--notify", "--manifest", manifest.path, "--locale", "nl"])
    }

    @Test("the installed file names each action in every language of the host and of the manifest's .lproj directories; a manifest's icon file is its Icon", .needs(.desktopFileValidate))
    func installLanguagesAndIconFile() throws {
        let bundle = sandbox.root.appendingPathComponent("App Bundle")
        for language in ["de", "nl"] {
            try FileManager.default.createDirectory(at: bundle.appendingPathComponent("\(language).lproj"), withIntermediateDirectories: true)
        }
        try Data(#"{"UIApplicationShortcutItems": [{"UIApplicationShortcutItemType": "com.standfit.undo", "UIApplicationShortcutItemTitle": "Undo Last Log", "UIApplicationShortcutItemIconFile": "undo"}]}"#.utf8)
            .write(to: bundle.appendingPathComponent("manifest.json"))
        try Data(#""Undo Last Log" = "Letzten Eintrag löschen";"#.utf8).write(to: bundle.appendingPathComponent("de.lproj/InfoPlist.strings"))
        try Data(#""Undo Last Log" = "Laatste log wissen";"#.utf8).write(to: bundle.appendingPathComponent("nl.lproj/InfoPlist.strings"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: bundle.appendingPathComponent("undo@2x.png"))
        let manifest = bundle.appendingPathComponent("manifest.json").path
        #expect(sandbox.run("export", "desktop", "--install", "--manifest", manifest).status == 0)
        let installed = sandbox.dataHome.appendingPathComponent("applications/org.standfit.Host.desktop")
        #expect(validate(installed) == ProcessResult(status: 0, stdout: "", stderr: ""))
        let desktop = try DesktopFile(parsing: String(contentsOf: installed, encoding: .utf8))
        let undo = try #require(desktop["Desktop Action com-standfit-undo"])
        #expect(undo["Name"] == "Undo Last Log")
        #expect(undo["Name[de]"] == "Letzten Eintrag löschen")
        #expect(undo["Name[nl]"] == "Laatste log wissen")
        #expect(undo["Icon"] == bundle.appendingPathComponent("undo@2x.png").path)
        // StandFit's own actions come in English and Dutch, not German (it has none).
        let log = try #require(desktop["Desktop Action com-standfit-logexercise"])
        #expect(log["Name[nl]"] == "Oefening loggen")
        #expect(log["Name[de]"] == nil)
        // Launchers' search finds the app by its actions (issue 33): Comment and Keywords in every
        // language the actions are named in (German only where the manifest says it).
        let entry = try #require(desktop["Desktop Entry"])
        #expect(entry["Comment"] == "Quick actions: Undo Last Log, Log Exercise, View Streak and Log Squats")
        #expect(entry["Comment[nl]"] == "Snelle acties: Laatste log wissen, Oefening loggen, Reeks bekijken en Squats loggen")
        #expect(entry["Comment[de]"] == "Quick actions: Letzten Eintrag löschen, Log Exercise, View Streak and Log Squats")
        #expect(entry["Keywords"] == "Undo;Last;Log;Exercise;View;Streak;Squats;quick;actions;")
        #expect(entry["Keywords[nl]"] == "Laatste;log;wissen;Oefening;loggen;Reeks;bekijken;Squats;snelle;acties;")
    }

    func validate(_ file: URL) -> ProcessResult {
        runProcess(ExternalTool.desktopFileValidate.url, arguments: [file.path])
    }
}
