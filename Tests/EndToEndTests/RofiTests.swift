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

    @Test("the list: rofi's mode options, then one row per quick action with its icon and what it runs")
    func list() {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("rofi") == ProcessResult(status: 0, stdout: [
            "\0prompt\u{1F}StandFit",
            "\0use-hot-keys\u{1F}true",
            "Log Exercise\0icon\u{1F}list-add\u{1F}info\u{1F}\(Self.logExercise)",
            #"View Streak — 1 day"# + "\0icon\u{1F}emblem-important\u{1F}info\u{1F}" + Self.info(#"{"arguments":{},"type":"com.standfit.viewstreak"}"#),
            #"Log Squats — 20 reps"# + "\0icon\u{1F}emoji-activities\u{1F}info\u{1F}"
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
        #expect(chosen.status == 0 && chosen.stderr == "" && chosen.stdout.contains("\0message\u{1F}Logged 30 seconds of plank · +6 XP\n"), "\(chosen)")
        #expect(sandbox.run("run", "undo").stdout == "Removed 30 seconds of plank logged at 14:05 · −6 XP\n")
        #expect(sandbox.run("run", "undo").stdout == "Removed 30 seconds of plank logged at 14:05 · −6 XP\nAchievement taken back: First log\n")
    }

    @Test("a sentence typed in rofi runs as say runs it; one nothing understands stays in rofi as its message")
    func sentence() {
        let logged = rofi(2).run(["rofi", "log 5 burpees"])
        #expect(logged.status == 0 && logged.stdout.hasPrefix("\0prompt\u{1F}StandFit\n\0use-hot-keys\u{1F}true\n\0message\u{1F}Logged 5 burpees · +10 XP"), "\(logged)")
        #expect(sandbox.run("run", "undo").stdout == "Removed 5 burpees logged at 14:05 · −10 XP\nAchievement taken back: First log\n")
        let lost = rofi(2).run(["rofi", "fly to the moon"])
        #expect(lost.status == 0)
        #expect(lost.stdout.hasPrefix("\0prompt\u{1F}StandFit\n\0use-hot-keys\u{1F}true\n\0message\u{1F}No action understands 'fly to the moon'; the closest phrases are "))
        #expect(lost.stdout.contains("\nLog Exercise\0icon\u{1F}list-add\u{1F}info\u{1F}\(Self.logExercise)\n"))
        // rofi reads the message as Pango markup: what the user typed cannot become markup.
        let marked = rofi(2).run(["rofi", "fly <b>&</b> land"])
        #expect(marked.stdout.contains("\0message\u{1F}No action understands 'fly &lt;b&gt;&amp;&lt;/b&gt; land';"))
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
        #expect(row.hasPrefix(#"Log a\nb\x1fc\x7fd\u{200f}e"# + "\0info\u{1F}standfit:"), "\(row)")
        #expect(row.split(separator: "\u{1F}").count == 2, "\(row)")
        let info = try #require(row.split(separator: "\u{1F}").last.map(String.init))
        let ran = rofi(1, info: info).run(["rofi", "--manifest", manifest.path, "Log a"])
        #expect(ran.status == 0 && ran.stdout.contains("\0message\u{1F}Logged 7 squats"), "\(ran)")
        #expect(sandbox.run("run", "undo").stdout == "Removed 7 squats logged at 14:05 · −7 XP\nAchievement taken back: First log\n")
    }

    @Test("dmenu: --dmenu prints the names, --chosen runs the line read (a name or a sentence); nothing chosen runs nothing")
    func dmenu() {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("rofi", "--dmenu") == ProcessResult(status: 0, stdout: """
            Log Exercise
            View Streak — 1 day
            Log Squats — 20 reps
            View Progress

            """, stderr: ""))
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "Log Squats — 20 reps\n")
            == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\n", stderr: ""))
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "log 3 squats\n") == ProcessResult(status: 0, stdout: "Logged 3 squats · +3 XP\n", stderr: ""))
        #expect(sandbox.run(["rofi", "--chosen"], stdin: "") == ProcessResult(status: 0, stdout: "", stderr: ""))
        let bare = sandbox.run(["rofi", "--chosen"], stdin: "Log Exercise\n")
        #expect(bare.status == 3)
        #expect(bare.stderr == "standfit-host: Missing required parameter 'exercise' for com.standfit.logexercise; pass exercise=VALUE.\n")
    }
}
