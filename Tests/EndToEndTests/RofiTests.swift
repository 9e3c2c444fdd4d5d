import Foundation
import Testing
import TestSupport

/// `rofi`: rofi's script-mode protocol (rows with icons and info, a second list for a missing
/// value, a typed sentence) and the dmenu pair, as rofi and dmenu drive them.
@Suite("standfit-host rofi and dmenu", .timeLimit(.minutes(10)))
struct RofiTests {
    let sandbox = HostSandbox.standFit()

    /// The sandbox as rofi runs the script after a row was chosen (`ROFI_RETV=1`, its info) or a
    /// sentence typed (`ROFI_RETV=2`).
    func rofi(_ retv: Int, info: String? = nil) -> HostSandbox {
        var chosen = sandbox
        chosen.extraEnvironment["ROFI_RETV"] = "\(retv)"
        if let info { chosen.extraEnvironment["ROFI_INFO"] = info }
        return chosen
    }

    /// A row's info as the command writes it: the JSON of what it runs, in base64url.
    static func info(_ json: String) -> String {
        "standfit:" + Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static let logExercise = info(#"{"arguments":{},"type":"com.standfit.logexercise"}"#)

    /// rofi's mode options, the first lines of every list.
    static let options = "\0prompt\u{1F}StandFit\n\0use-hot-keys\u{1F}true\n"

    /// A rofi answer for a failure message: its NULs (which end the test log's line) as `\0`.
    static func readable(_ result: ProcessResult) -> String {
        "exit \(result.status)\n" + result.stdout.replacingOccurrences(of: "\0", with: "\\0") + result.stderr
    }

    /// The row of Log Exercise, StandFit's one quick action before anything is logged.
    static let logExerciseRow = "Log Exercise\0icon\u{1F}list-add\u{1F}info\u{1F}\(logExercise)"

    /// StandFit's four rows once something was logged today, `count` `unit` of `exercise` (titled
    /// `title`) last.
    static func rows(last title: String, _ count: Int, _ unit: String, of exercise: String) -> [String] {
        [
            logExerciseRow,
            "View Streak — \(mono("1")) day" + "\0icon\u{1F}emblem-important\u{1F}info\u{1F}" + info(#"{"arguments":{},"type":"com.standfit.viewstreak"}"#),
            "Log \(title) — \(mono(String(count))) \(unit)" + "\0icon\u{1F}emoji-activities\u{1F}info\u{1F}"
                + info(#"{"arguments":{},"type":"com.standfit.logexercise","userInfo":{"count":\#(count),"exercise":"\#(exercise)"}}"#),
            "View Progress\0icon\u{1F}x-office-spreadsheet\u{1F}info\u{1F}" + info(#"{"arguments":{},"type":"com.standfit.viewprogress"}"#),
        ]
    }

    /// `digits` as the rows write them: mathematical monospace digits (U+1D7F6…).
    static func mono(_ digits: String) -> String {
        String(String.UnicodeScalarView(digits.unicodeScalars.map { Unicode.Scalar(0x1D7F6 + $0.value - 0x30)! }))
    }

    /// Whether rofi's default matching (and dmenu -i's) would keep `row` for the typed `line`:
    /// every word of it found in the row's text, as a substring, ignoring case (rofi 1.7.3's
    /// `script_token_match`, dmenu's `match`).
    static func launcherKeeps(_ row: Substring, typed line: String) -> Bool {
        let text = row.split(separator: "\0", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        return line.lowercased().split(separator: " ").allSatisfy { text.contains($0) }
    }

    @Test("the list: rofi's mode options, then one row per quick action with its icon and what it runs")
    func list() {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("rofi") == ProcessResult(status: 0, stdout: [
            "\0prompt\u{1F}StandFit",
            "\0use-hot-keys\u{1F}true",
            "Log Exercise\0icon\u{1F}list-add\u{1F}info\u{1F}\(Self.logExercise)",
            "View Streak — \(Self.mono("1")) day" + "\0icon\u{1F}emblem-important\u{1F}info\u{1F}" + Self.info(#"{"arguments":{},"type":"com.standfit.viewstreak"}"#),
            "Log Squats — \(Self.mono("20")) reps" + "\0icon\u{1F}emoji-activities\u{1F}info\u{1F}"
                + Self.info(#"{"arguments":{},"type":"com.standfit.logexercise","userInfo":{"count":20,"exercise":"squats"}}"#),
            "View Progress\0icon\u{1F}x-office-spreadsheet\u{1F}info\u{1F}" + Self.info(#"{"arguments":{},"type":"com.standfit.viewprogress"}"#),
        ].joined(separator: "\n") + "\n", stderr: ""))
    }

    @Test("several apps' rows come under a bold row naming each app, which cannot be chosen (issue 35); titles are then escaped as markup; --app lists one app's")
    func appHeaders() throws {
        let shortcuts = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: shortcuts, withIntermediateDirectories: true)
        try Data(#"{"type": "user.morning", "title": "Stretch & <go>", "steps": [{"type": "com.standfit.viewstreak"}]}"#.utf8)
            .write(to: shortcuts.appendingPathComponent("morning.json"))
        let morning = Self.info(#"{"arguments":{},"type":"user.morning"}"#)
        #expect(sandbox.run("rofi") == ProcessResult(status: 0, stdout: [
            "\0prompt\u{1F}StandFit",
            "\0use-hot-keys\u{1F}true",
            "\0markup-rows\u{1F}true",
            "<b>Shortcuts</b>\0nonselectable\u{1F}true",
            "Stretch &amp; &lt;go&gt;\0icon\u{1F}view-list\u{1F}info\u{1F}\(morning)",
            "<b>StandFit</b>\0nonselectable\u{1F}true",
            "Log Exercise\0icon\u{1F}list-add\u{1F}info\u{1F}\(Self.logExercise)",
        ].joined(separator: "\n") + "\n", stderr: ""))
        #expect(sandbox.run("rofi", "--app", "user") == ProcessResult(status: 0, stdout: [
            "\0prompt\u{1F}StandFit",
            "\0use-hot-keys\u{1F}true",
            "Stretch & <go>\0icon\u{1F}view-list\u{1F}info\u{1F}\(morning)",
        ].joined(separator: "\n") + "\n", stderr: ""))
        // dmenu has no markup: its names stay plain.
        #expect(sandbox.run("rofi", "--dmenu").stdout == "Stretch & <go>\nLog Exercise\n")
    }

    @Test("a row whose required value is missing lists the values offered, most recent first; the one chosen runs and rofi closes")
    func missingValue() throws {
        #expect(sandbox.run("run", "logexercise", "exercise=plank", "count=30").status == 0)
        let asked = rofi(1, info: Self.logExercise).run(["rofi", "Log Exercise"])
        #expect(asked.status == 0)
        let lines = asked.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "\0prompt\u{1F}Which exercise?")
        #expect(lines.count == 11)
        #expect(lines[1] == "Plank\0info\u{1F}" + Self.info(#"{"arguments":{"exercise":"plank"},"type":"com.standfit.logexercise"}"#))
        let info = try #require(lines[1].split(separator: "\u{1F}").last.map(String.init))
        // Chosen: it runs; with no notification server to show the outcome (none here), rofi
        // stays open with it as its message instead of closing on nothing.
        let chosen = rofi(1, info: info).run(["rofi", "Plank"])
        #expect(chosen == ProcessResult(status: 0, stdout: Self.options + "\0message\u{1F}Logged 30 seconds of plank · +6 XP\n"
            + Self.rows(last: "Plank", 30, "seconds", of: "plank").joined(separator: "\n") + "\n", stderr: ""), "\(chosen)")
        #expect(sandbox.run("run", "undo").stdout == "Removed 30 seconds of plank logged at 14:05 · −6 XP\n")
        #expect(sandbox.run("run", "undo").stdout == "Removed 30 seconds of plank logged at 14:05 · −6 XP\nAchievement taken back: First log\n")
    }

    @Test("a sentence typed in rofi runs as say runs it; one nothing understands stays in rofi as its message")
    func sentence() {
        let logged = rofi(2).run(["rofi", "log 5 burpees"])
        // rofi stays open: the outcome as its message, over the list.
        // Its lines joined by Pango's line break; the rows the menu as the run left it.
        #expect(logged.status == 0 && logged.stdout == Self.options + "\0message\u{1F}Logged 5 burpees · +10 XP&#10;Achievement unlocked: First log\n"
            + Self.rows(last: "Burpees", 5, "reps", of: "burpees").joined(separator: "\n") + "\n", "\(Self.readable(logged))")
        #expect(sandbox.run("run", "undo").stdout == "Removed 5 burpees logged at 14:05 · −10 XP\nAchievement taken back: First log\n")
        let lost = rofi(2).run(["rofi", "fly to the moon"])
        #expect(lost.status == 0)
        #expect(lost.stdout == Self.options + "\0message\u{1F}No action understands 'fly to the moon'; the closest phrases are 'do 20 squats' (Log Exercise) "
            + "and 'log 20 squats' (Log Exercise).\n" + Self.logExerciseRow + "\n")
        // rofi reads the message as Pango markup: what the user typed cannot become markup.
        let marked = rofi(2).run(["rofi", "fly <b>&</b> land"])
        #expect(marked.stdout == Self.options + "\0message\u{1F}No action understands 'fly &lt;b&gt;&amp;&lt;/b&gt; land'; the closest phrases are "
            + "'log 20 squats …' (Log Exercise), 'do 20 squats' (Log Exercise) and 'log 20 squats' (Log Exercise).\n" + Self.logExerciseRow + "\n")
    }

    @Test("a count typed over a row that stores one is the count that runs: no row's text matches a typed number 1–100, so rofi passes the line (ROFI_RETV=2) and dmenu prints it; a row chosen by its words runs its own count")
    func typedCount() throws {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("run", "logexercise", "exercise=burpees", "count=15").status == 0)
        let rows = sandbox.run("rofi").stdout.split(separator: "\n").filter { !$0.hasPrefix("\0") }
        let dmenuRows = sandbox.run("rofi", "--dmenu").stdout.split(separator: "\n")
        #expect(rows.map(String.init) == Self.rows(last: "Burpees", 15, "reps", of: "burpees"), "\(rows)")
        for count in 1...100 {
            for line in ["log \(count) burpees", "\(count) squats", "log \(count)"] {
                let kept = (rows + dmenuRows).filter { Self.launcherKeeps($0, typed: line) }
                #expect(kept.isEmpty, "'\(line)' would choose \(kept)")
            }
        }
        // What rofi then runs: the line as typed.
        let typed = rofi(2).run(["rofi", "log 5 burpees"])
        #expect(typed.status == 0 && typed.stdout == Self.options + "\0message\u{1F}Logged 5 burpees · +10 XP\n"
            + Self.rows(last: "Burpees", 5, "reps", of: "burpees").joined(separator: "\n") + "\n", "\(Self.readable(typed))")
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "log 2 squats\n") == ProcessResult(status: 0, stdout: "Logged 2 squats · +2 XP\n", stderr: ""))
        // The row a user chose by its words ("burp"), as rofi passes it back, and as dmenu prints it.
        let burpees = try #require(rows.first { $0.hasPrefix("Log Burpees") }?.split(separator: "\u{1F}").last.map(String.init))
        #expect(Self.launcherKeeps(try #require(rows.first { $0.hasPrefix("Log Burpees") }), typed: "burp"))
        let chosen = rofi(1, info: burpees).run(["rofi", "Log Burpees — \(Self.mono("15")) reps"])
        #expect(chosen.stdout == Self.options + "\0message\u{1F}Logged 15 burpees · +30 XP\n"
            + Self.rows(last: "Burpees", 15, "reps", of: "burpees").joined(separator: "\n") + "\n", "\(Self.readable(chosen))")
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "Log Burpees — \(Self.mono("15")) reps\n")
            == ProcessResult(status: 0, stdout: "Logged 15 burpees · +30 XP\nLevel 2 reached\n", stderr: ""))
        // Plain digits, from a script that wrote the name itself, name the row too.
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "Log Burpees — 15 reps\n")
            == ProcessResult(status: 0, stdout: "Logged 15 burpees · +30 XP\n", stderr: ""))
        #expect(DesktopBusTests.loggedRows(sandbox) == ["squats|20", "burpees|15", "burpees|5", "squats|2", "burpees|15", "burpees|15", "burpees|15"])
    }

    @Test("typed into the real rofi and dmenu on a virtual display: 'burp' and Enter chooses the row 'Log Burpees — 15 reps' and logs its 15; 'log 5 burpees' over that row logs 5 (rofi), 'log 2 burpees' logs 2 (dmenu)",
          .needs(.xvfb, .xdotool, .rofi, .dmenu))
    func realLaunchers() throws {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("run", "logexercise", "exercise=burpees", "count=15").status == 0)
        if let failure = sandbox.serveWarmPath() { Issue.record("the warm server did not start: \(failure)") }
        let display = try #require(VirtualDisplay.free(), "no free X display number")
        var environment = sandbox.environment
        environment["DISPLAY"] = ":\(display)"
        let xvfb = try #require(spawnInBackground(ExternalTool.xvfb.path, [":\(display)", "-screen", "0", "1024x600x24", "-nolisten", "tcp", "-noreset"],
                                                  environment: environment, log: sandbox.root.appendingPathComponent("xvfb.log"), ownGroup: true))
        defer { endGroup(xvfb) }
        func x(_ arguments: String...) -> ProcessResult { runProcess(ExternalTool.xdotool.url, arguments: arguments, environment: environment) }
        // Ready when a client connects (its socket appears a moment before it accepts);
        // -noreset: the server does not reset when its last client leaves, as between two
        // launchers, when the next one's connection would fail.
        try #require(eventually(20) { x("getdisplaygeometry").status == 0 }, "Xvfb did not start; \(sandbox.logs("xvfb.log"))")
        let host = Fixtures.hostBinary.path
        /// Starts `launcher`, waits for its window, types `text`, presses Enter and waits for
        /// the log to read `expected`; the launcher is ended after (rofi stays open with the
        /// outcome where no notification server shows it).
        func type(_ text: String, into launcher: (tool: String, arguments: [String], windowClass: String), expecting expected: [String]) throws {
            // The whole interaction: the launcher runs the host more than once (its rows, then the choice).
            try sandbox.checkingHandBacks("'\(text)' typed into \(launcher.windowClass)") {
                // A second start only when the first never showed its window (its connection to the
                // display failed): what is tested is what runs once it is open.
                var started: pid_t = 0
                var opened = false
                for _ in 0..<2 where !opened {
                    if started != 0 { endGroup(started) }
                    started = try #require(spawnInBackground(launcher.tool, launcher.arguments, environment: environment,
                                                             log: sandbox.root.appendingPathComponent("launcher.log"), ownGroup: true))
                    opened = eventually(20) { x("search", "--onlyvisible", "--class", launcher.windowClass).status == 0 }
                }
                defer { endGroup(started) }
                try #require(opened, "\(launcher.windowClass) did not open; \(sandbox.logs("launcher.log"))")
                _ = x("type", "--delay", "30", text)
                _ = x("key", "Return")
                #expect(eventually(20) { DesktopBusTests.loggedRows(sandbox) == expected },
                        "'\(text)' in \(launcher.windowClass): \(DesktopBusTests.loggedRows(sandbox)); \(sandbox.logs("launcher.log"))")
            }
        }
        let rofi = (tool: ExternalTool.rofi.path, arguments: ["-show", "standfit", "-modi", "standfit:\(host) rofi"], windowClass: "rofi")
        let dmenu = (tool: "/bin/sh", arguments: ["-c", "'\(host)' rofi --dmenu | \(ExternalTool.dmenu.path) -i | '\(host)' rofi --chosen"],
                     windowClass: "dmenu")
        // The row of the last exercise logged repeats it: chosen by its words, it logs its count.
        try type("burp", into: rofi, expecting: ["squats|20", "burpees|15", "burpees|15"])
        try type("log 5 burpees", into: rofi, expecting: ["squats|20", "burpees|15", "burpees|15", "burpees|5"])
        try type("log 2 burpees", into: dmenu, expecting: ["squats|20", "burpees|15", "burpees|15", "burpees|5", "burpees|2"])
        try type("burp", into: dmenu, expecting: ["squats|20", "burpees|15", "burpees|15", "burpees|5", "burpees|2", "burpees|2"])
    }

    @Test("a line no phrase understands runs the one row whose words it names, numbers whole ('stretch 10' runs 'Stretch 10 min'; 'stretch 1' and words of two rows run nothing)")
    func rowByWords() throws {
        let manifest = sandbox.root.appendingPathComponent("manifest.json")
        func item(_ title: String, _ count: Int) -> [String: Any] {
            ["UIApplicationShortcutItemType": "com.standfit.logexercise", "UIApplicationShortcutItemTitle": title,
             "UIApplicationShortcutItemUserInfo": ["exercise": "plank", "count": count]]
        }
        try JSONSerialization.data(withJSONObject: ["UIApplicationShortcutItems": [item("Stretch 10 min", 600), item("Stretch 15 min", 900)]])
            .write(to: manifest)
        let two = sandbox.run(["rofi", "--manifest", manifest.path, "--chosen"], stdin: "stretch min\n")
        #expect(two.status == 2 && two.stdout == "", "\(two)")
        #expect(two.stderr == "standfit-host: No action understands 'stretch min'; the closest phrases are 'do 20 squats' (Log Exercise) and 'log 20 squats' (Log Exercise).\n",
                "\(two)")
        let one = rofi(2).run(["rofi", "--manifest", manifest.path, "stretch 1"])
        // The manifest's rows, which name no icon, then StandFit's.
        let stretches = [("10", 600), ("15", 900)].map { minutes, seconds in
            "Stretch \(Self.mono(minutes)) min\0info\u{1F}"
                + Self.info(#"{"arguments":{},"type":"com.standfit.logexercise","userInfo":{"count":\#(seconds),"exercise":"plank"}}"#)
        }
        let listed = Self.options + "\0message\u{1F}No action understands 'stretch 1'; the closest phrases are 'do 20 squats' (Log Exercise) "
            + "and 'log 20 squats' (Log Exercise).\n" + (stretches + [Self.logExerciseRow]).joined(separator: "\n") + "\n"
        #expect(one.stdout == listed, "\(one)")
        #expect(sandbox.run(["rofi", "--manifest", manifest.path, "--chosen"], stdin: "stretch 10\n")
            == ProcessResult(status: 0, stdout: "Logged 600 seconds of plank · +120 XP\nAchievement unlocked: First log\nLevel 2 reached\n", stderr: ""))
        #expect(DesktopBusTests.loggedRows(sandbox) == ["plank|600"])
    }

    @Test("bare words typed in rofi and dmenu: '20 squats' logs 20 squats (every number given); 'squats' alone, with no row to name, runs nothing and names the phrases; 'log 5000 squats', '5000 squats' and '-5 squats' are refused in rofi's message and log nothing")
    func bareWords() {
        // Before any log there is no row to name: "squats" alone runs nothing.
        let bare = rofi(2).run(["rofi", "squats"])
        #expect(bare.stdout == Self.options + "\0message\u{1F}No action understands 'squats'; the closest phrases are 'log squats' (Log Exercise), "
            + "'achievements' (Achievements) and 'add exercise …' (Add an Exercise).\n" + Self.logExerciseRow + "\n", "\(bare)")
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "squats\n").status == 2)
        let squats = rofi(2).run(["rofi", "20 squats"])
        #expect(squats.status == 0 && squats.stdout == Self.options + "\0message\u{1F}Logged 20 squats · +20 XP&#10;Achievement unlocked: First log\n"
            + Self.rows(last: "Squats", 20, "reps", of: "squats").joined(separator: "\n") + "\n", "\(Self.readable(squats))")
        for (refused, value) in [("log 5000 squats", "5000"), ("5000 squats", "5000"), ("-5 squats", "-5")] {
            let answer = rofi(2).run(["rofi", refused])
            #expect(answer.stdout == Self.options + "\0message\u{1F}count: expected a number from 1 to 3600, got \(value).\n"
                + Self.rows(last: "Squats", 20, "reps", of: "squats").joined(separator: "\n") + "\n",
                    "\(refused): \(answer.stdout.replacingOccurrences(of: "\0", with: "|")) \(answer.stderr)")
        }
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "12 push ups\n") == ProcessResult(status: 0, stdout: "Logged 12 push-ups · +18 XP\n", stderr: ""))
        #expect(DesktopBusTests.loggedRows(sandbox) == ["squats|20", "pushups|12"])
    }

    @Test("a row whose title and userInfo hold a newline, U+001F, DEL and a bidi mark stays one row and runs with its userInfo intact")
    func hostileRow() throws {
        let manifest = sandbox.root.appendingPathComponent("manifest.json")
        let nasty = "a\nb\u{1F}c\u{7F}d\u{200F}e"
        let item: [String: Any] = [
            "UIApplicationShortcutItemType": "com.standfit.logexercise", "UIApplicationShortcutItemTitle": "Log \(nasty)",
            "UIApplicationShortcutItemUserInfo": ["exercise": "squats", "count": 7, "note": nasty],
        ]
        try JSONSerialization.data(withJSONObject: ["UIApplicationShortcutItems": [item]]).write(to: manifest)
        let listed = sandbox.run("rofi", "--manifest", manifest.path)
        #expect(listed.status == 0)
        let rows = listed.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("\0") && !$0.isEmpty }
        let row = try #require(rows.first { $0.hasPrefix("Log a") }, "\(listed)")
        // One row: its text shows the control characters, and its one option is the info.
        // Its info: what it runs, the userInfo as JSON (DEL and the bidi mark as they are).
        let userInfo = #"{"count":7,"exercise":"squats","note":"a\nb\u001fc"# + "\u{7F}d\u{200F}e" + #""}"#
        let expectedRow = #"Log a\nb\x1fc\x7fd\u{200f}e"# + "\0info\u{1F}" + Self.info(#"{"arguments":{},"type":"com.standfit.logexercise","userInfo":"# + userInfo + "}")
        #expect(String(row) == expectedRow, "\(row)")
        #expect(row.split(separator: "\u{1F}").count == 2, "\(row)")
        let info = try #require(row.split(separator: "\u{1F}").last.map(String.init))
        let ran = rofi(1, info: info).run(["rofi", "--manifest", manifest.path, "Log a"])
        // The rows as the run left them: four at most, the manifest's first.
        let outcome = Self.options + "\0message\u{1F}Logged 7 squats · +7 XP&#10;Achievement unlocked: First log\n" + expectedRow + "\n"
            + Self.rows(last: "Squats", 7, "reps", of: "squats").prefix(3).joined(separator: "\n") + "\n"
        #expect(ran.status == 0 && ran.stdout == outcome, "\(Self.readable(ran))")
        #expect(sandbox.run("run", "undo").stdout == "Removed 7 squats logged at 14:05 · −7 XP\nAchievement taken back: First log\n")
    }

    @Test("dmenu: --dmenu prints the names, --chosen runs the line read (a name or a sentence); nothing chosen runs nothing")
    func dmenu() {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("rofi", "--dmenu") == ProcessResult(status: 0, stdout: """
            Log Exercise
            View Streak — \(Self.mono("1")) day
            Log Squats — \(Self.mono("20")) reps
            View Progress

            """, stderr: ""))
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "Log Squats — \(Self.mono("20")) reps\n")
            == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\n", stderr: ""))
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "log 3 squats\n") == ProcessResult(status: 0, stdout: "Logged 3 squats · +3 XP\n", stderr: ""))
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "") == ProcessResult(status: 0, stdout: "", stderr: ""))
        let bare = sandbox.run(["rofi", "--chosen"], stdin: "Log Exercise\n")
        #expect(bare.status == 3)
        #expect(bare.stderr == "standfit-host: Missing required parameter 'exercise' for com.standfit.logexercise; pass exercise=VALUE.\n")
    }
}
