import Foundation
import Testing
import TestSupport
import HostModel
import HostSurfaces

/// Strings a manifest, a plugin or a command line could hand the exporter, each aimed at one
/// way of breaking a `.desktop` file or the command it runs.
let hostileStrings: [String] = [
    "\"", "'", "say \"hi\"", "it's", "$HOME", "$(rm -rf ~)", "`id`", "\\`id\\`",
    "%f", "%%", "%u", "%U", "100%", "%", "a%%b%c",
    ";", "a;b;", "\\", "\\\\", "\\n", "\\\\n", "\\s", "\\\"",
    "line\nbreak", "tab\there", "cr\rhere", "crlf\r\n", "\n",
    "-x", "--user-info", "--", "=", "a=b", "Name=Evil", "[Desktop Entry]", "[Desktop Action x]\nExec=rm -rf ~",
    "# comment", "~/x", "*?", "<>|&", "(sub)", "Løg squåts 💪", "", " ", "  padded  ",
    "\"\u{301}", "\\\u{301}", "e\u{301}", "\u{2028}", "\u{85}",
]

/// Runs desktop-file-validate on `text`, saved as `name` in a fresh directory.
func validate(_ text: String, named name: String = "standfit-host.desktop") throws -> ProcessResult {
    let file = makeTemporaryDirectory("standfit-desktop").appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return runProcess(ExternalTool.desktopFileValidate.url, arguments: [file.path])
}

@Suite("Desktop entry", .timeLimit(.minutes(10)))
struct DesktopEntryTests {
    let executable = "/opt/Stand Fit/bin/standfit-host"

    func item(_ text: String) -> ShortcutItem {
        ShortcutItem(type: text, title: text, subtitle: text, icon: text,
                     userInfo: [text: .string(text), "count": .int(3), "nested": .array([.string(text), .null])])
    }

    /// The raw Exec of every action, in file order, with the raw Name.
    func actionGroups(_ text: String) throws -> [DesktopFile.Group] {
        try DesktopFile(parsing: text).groups.filter { $0.name.hasPrefix("Desktop Action ") }
    }

    @Test("quoting follows the spec, down to four backslashes for one")
    func execLineExamples() {
        #expect(DesktopEntry.execLine(["standfit-host", "menu"]) == "standfit-host menu")
        #expect(DesktopEntry.execLine(["x", "a b"]) == #"x "a b""#)
        #expect(DesktopEntry.execLine(["x", #"a\b"#]) == #"x "a\\\\b""#)
        #expect(DesktopEntry.execLine(["x", "$HOME"]) == #"x "\\$HOME""#)
        #expect(DesktopEntry.execLine(["x", #"say "hi""#]) == #"x "say \\"hi\\"""#)
        #expect(DesktopEntry.execLine(["x", "%f", "50%"]) == "x %%f 50%%")
        #expect(DesktopEntry.execLine(["x", "a\nb\tc"]) == #"x "a\nb\tc""#)
        #expect(DesktopEntry.execLine(["x", ""]) == #"x """#)
        #expect(DesktopEntry.execLine([]) == "")
    }

    @Test("every hostile string survives execLine exactly, alone and all together")
    func execLineRoundTrip() throws {
        for argument in hostileStrings {
            let argv = [executable, argument, "tail"]
            #expect(try DesktopExecParser.parse(DesktopEntry.execLine(argv)) == argv, "\(argument.debugDescription)")
        }
        let all = [executable] + hostileStrings
        #expect(try DesktopExecParser.parse(DesktopEntry.execLine(all)) == all)
    }

    @Test("a hostile title, type and userInfo come back from the file exactly", arguments: hostileStrings)
    func exportRoundTrip(_ text: String) throws {
        let source = item(text)
        let file = DesktopEntry.export(items: [source], executable: executable, applicationName: text).text
        let groups = try actionGroups(file)
        try #require(groups.count == 1, "\(file)")
        let argv = try DesktopExecParser.parse(try #require(groups[0]["Exec"]))
        let json = JSONValue.object(source.userInfo).jsonText
        #expect(argv == [executable, "run", "--user-info", json, "--", text])
        #expect(argv.count == 6 && JSONValue(jsonText: argv[3]) == .object(source.userInfo))
        let singleLine = String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control ? " " : $0
        }))
        let title = text.isEmpty ? "" : "\(singleLine) — \(singleLine)"
        #expect(try DesktopExecParser.unescapeString(try #require(groups[0]["Name"])) == title)
        let main = try #require(try DesktopFile(parsing: file)["Desktop Entry"])
        #expect(try DesktopExecParser.parse(try #require(main["Exec"])) == [executable, "menu"])
        #expect(try DesktopExecParser.unescapeString(try #require(main["Name"])) == singleLine)
    }

    @Test("every hostile export passes desktop-file-validate without a word", .needs(.desktopFileValidate), arguments: hostileStrings)
    func validatesHostile(_ text: String) throws {
        let file = DesktopEntry.export(items: [item(text), item(text)], executable: text.isEmpty ? "x" : text,
                                       applicationName: text).text
        #expect(try validate(file) == ProcessResult(status: 0, stdout: "", stderr: ""), "\(file)")
        let direct = DesktopEntry(
            name: text, comment: text + "!", icon: text, exec: [text], terminal: true, categories: ["Utility"],
            actions: [DesktopEntry.Action(id: text, name: text, icon: text, exec: [text, text]),
                      DesktopEntry.Action(id: text, name: text, icon: "/" + text, exec: [])])
        #expect(try validate(direct.text) == ProcessResult(status: 0, stdout: "", stderr: ""), "\(direct.text)")
    }

    @Test("all hostile items in one file pass desktop-file-validate", .needs(.desktopFileValidate))
    func validatesAllTogether() throws {
        let items = hostileStrings.map(item) + [
            ShortcutItem(type: "com.standfit.logexercise", title: "Log Exercise", icon: "figure.walk"),
            ShortcutItem(type: "com.standfit.viewstreak", title: "View Streak", subtitle: "5 days", icon: "flame.fill"),
        ]
        let file = DesktopEntry.export(items: items, executable: executable, applicationName: "StandFit").text
        #expect(try validate(file) == ProcessResult(status: 0, stdout: "", stderr: ""), "\(file)")
        #expect(try actionGroups(file).count == items.count)
    }

    @Test("fields the validator would reject are repaired or left out", .needs(.desktopFileValidate))
    func repairsFields() throws {
        let entry = DesktopEntry(
            name: "Same", comment: "SAME", icon: "icon.png", exec: ["x"], terminal: false,
            categories: ["Utility", "Utility", "Bad;Name", "", "X-StandFit"],
            actions: [
                DesktopEntry.Action(id: "a b", name: "1", icon: "some/relative", exec: ["x", "1"]),
                DesktopEntry.Action(id: "dup", name: "2", icon: "/", exec: ["x", "2"]),
                DesktopEntry.Action(id: "dup", name: "3", icon: "/usr/share/icons/x.svg", exec: ["x", "3"]),
                DesktopEntry.Action(id: "", name: "4", icon: "list-add\n", exec: []),
            ])
        let text = entry.text
        #expect(try validate(text) == ProcessResult(status: 0, stdout: "", stderr: ""), "\(text)")
        let file = try DesktopFile(parsing: text)
        let main = try #require(file["Desktop Entry"])
        #expect(main["Comment"] == nil)
        #expect(main["Icon"] == "icon")
        #expect(main["Categories"] == "Utility;X-StandFit;")
        #expect(main["Actions"] == "a-b;dup;dup-2;action;")
        #expect(file["Desktop Action a-b"]?["Icon"] == nil)
        #expect(file["Desktop Action dup"]?["Icon"] == nil)
        #expect(file["Desktop Action dup-2"]?["Icon"] == "/usr/share/icons/x.svg")
        #expect(file["Desktop Action action"]?["Icon"] == nil)
    }

    @Test("the exported entry: menu in a terminal, one action per item in order; D-Bus activatable, no terminal and notifications", .needs(.desktopFileValidate))
    func exportShape() throws {
        let items = [
            ShortcutItem(type: "com.standfit.logexercise", title: "Log Exercise", icon: "figure.strengthtraining.functional"),
            ShortcutItem(type: "com.standfit.logexercise", title: "Log Squats (last)", subtitle: "20 reps",
                         icon: "arrow.uturn.backward", userInfo: ["exercise": .string("squats"), "count": .int(20)]),
            ShortcutItem(type: "com.example.unknown-icon", title: "Other", icon: "no.such.symbol"),
        ]
        let text = DesktopEntry.export(items: items, executable: "/usr/bin/standfit-host", applicationName: "StandFit").text
        #expect(text == """
            [Desktop Entry]
            Type=Application
            Version=1.4
            Name=StandFit
            Icon=emoji-activities
            Exec=/usr/bin/standfit-host menu
            Terminal=true
            Categories=Utility;
            Actions=com-standfit-logexercise;com-standfit-logexercise-2;com-example-unknown-icon;

            [Desktop Action com-standfit-logexercise]
            Name=Log Exercise
            Icon=emoji-activities
            Exec=/usr/bin/standfit-host run -- com.standfit.logexercise

            [Desktop Action com-standfit-logexercise-2]
            Name=Log Squats (last) — 20 reps
            Icon=edit-undo
            Exec=/usr/bin/standfit-host run --user-info "{\\\\"count\\\\":20,\\\\"exercise\\\\":\\\\"squats\\\\"}" -- com.standfit.logexercise

            [Desktop Action com-example-unknown-icon]
            Name=Other
            Exec=/usr/bin/standfit-host run -- com.example.unknown-icon

            """)
        #expect(try validate(text) == ProcessResult(status: 0, stdout: "", stderr: ""))
        let activatable = DesktopEntry.export(items: items, executable: "/usr/bin/standfit-host", applicationName: "StandFit",
                                              options: ["--locale", "nl"], dbusActivatable: true).text
        #expect(activatable.contains("\nExec=/usr/bin/standfit-host menu --notify --locale nl\nTerminal=false\nDBusActivatable=true\n"))
        #expect(activatable.contains("\nExec=/usr/bin/standfit-host run --notify --locale nl -- com.example.unknown-icon\n"))
        // A D-Bus activatable file must be named after its reverse-DNS application id.
        #expect(try validate(activatable, named: "org.standfit.Host.desktop") == ProcessResult(status: 0, stdout: "", stderr: ""))
        let empty = DesktopEntry.export(items: [], executable: "standfit-host", applicationName: "StandFit")
        #expect(empty.icon == DesktopEntry.fallbackIcon)
        #expect(empty.actions.isEmpty)
        #expect(try validate(empty.text) == ProcessResult(status: 0, stdout: "", stderr: ""))
    }

    @Test("control characters a file cannot carry become U+FFFD in Exec; in userInfo they round-trip", .needs(.desktopFileValidate))
    func controlCharacters() throws {
        let nasty = "a\u{0}b\u{1}c\u{1B}d\u{7F}e"
        let item = ShortcutItem(type: nasty, title: nasty, userInfo: [nasty: .string(nasty)])
        let text = DesktopEntry.export(items: [item], executable: "standfit-host", applicationName: nasty).text
        #expect(try validate(text) == ProcessResult(status: 0, stdout: "", stderr: ""), "\(text)")
        let group = try #require(try actionGroups(text).first)
        let argv = try DesktopExecParser.parse(try #require(group["Exec"]))
        #expect(argv.count == 6)
        #expect(argv[5] == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e")
        #expect(JSONValue(jsonText: argv[3]) == .object(item.userInfo))
        #expect(try DesktopExecParser.unescapeString(try #require(group["Name"])) == "a b c d e")
    }

    @Test("localized names are Name[locale] keys in locale order; a locale the specification cannot name is left out", .needs(.desktopFileValidate))
    func localizedNames() throws {
        var entry = DesktopEntry.export(items: [ShortcutItem(type: "a", title: "Log Exercise")], executable: "x", applicationName: "StandFit")
        entry.actions[0].localizedNames = ["nl": "Oefening loggen", "de_DE@euro": "Übung", "pt_BR": "Registrar", "../x": "no",
                                           "nl\nName": "no", "english": "no", "": "no"]
        let group = try #require(try actionGroups(entry.text).first)
        #expect(group["Name[nl]"] == "Oefening loggen" && group["Name[de_DE@euro]"] == "Übung" && group["Name[pt_BR]"] == "Registrar")
        #expect(group.entries.filter { $0.key.hasPrefix("Name") }.count == 4, "\(entry.text)")
        #expect(try validate(entry.text) == ProcessResult(status: 0, stdout: "", stderr: ""))
    }

    @Test("action ids are valid, derived from the type, and unique when types collide")
    func actionIDs() throws {
        #expect(DesktopEntry.actionID(for: "com.standfit.logexercise", taken: []) == "com-standfit-logexercise")
        #expect(DesktopEntry.actionID(for: "com.standfit.logexercise", taken: ["com-standfit-logexercise"])
            == "com-standfit-logexercise-2")
        #expect(DesktopEntry.actionID(for: "com..standfit__log--exercise.", taken: []) == "com-standfit-log-exercise")
        #expect(DesktopEntry.actionID(for: "Løg squåts 💪", taken: []) == "L-g-squ-ts")
        #expect(DesktopEntry.actionID(for: "", taken: []) == "action")
        #expect(DesktopEntry.actionID(for: "💪", taken: ["action", "action-2"]) == "action-3")
        #expect(DesktopEntry.actionID(for: "-3d.move", taken: []) == "action-3d-move")

        let types = ["com.standfit.log", "com-standfit-log", "com_standfit_log", "com.standfit.log", "COM.standfit.log",
                     "", "-", "💪", "123", "action", "com.standfit.log-2"] + hostileStrings
        let entry = DesktopEntry.export(items: types.map { ShortcutItem(type: $0, title: $0) },
                                        executable: "x", applicationName: "X")
        let ids = entry.actions.map(\.id)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(DesktopEntry.isValidActionID(id), "\(id)")
            #expect(id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") })
        }
        #expect(Array(ids.prefix(5)) == ["com-standfit-log", "com-standfit-log-2", "com-standfit-log-3",
                                         "com-standfit-log-4", "COM-standfit-log"])
        let actionsKey = try #require(try DesktopFile(parsing: entry.text)["Desktop Entry"]?["Actions"])
        #expect(actionsKey == ids.map { $0 + ";" }.joined())
        // The installed entry's Listen action has its key: a type named so takes the next one.
        #expect(DesktopEntry.actionIDs(for: [ShortcutItem(type: "listen", title: "Listen to music"), ShortcutItem(type: "com.standfit.log", title: "Log")])
            == ["listen-2", "com-standfit-log"])
    }

    @Test("every line is a header, key=value or blank; only headers start with [")
    func lineShape() throws {
        let items = hostileStrings.map(item)
        let exported = DesktopEntry.export(items: items, executable: "[Desktop Entry]\n[x]",
                                           applicationName: "[Desktop Entry]\nName=x")
        var direct = exported
        direct.comment = "[Desktop Entry]\n[x]"
        direct.icon = "x\n[Desktop Entry]"
        direct.categories = hostileStrings + ["Utility"]
        direct.actions += hostileStrings.map { DesktopEntry.Action(id: $0, name: $0, icon: $0, exec: [$0]) }
        for entry in [exported, direct] {
            let text = entry.text
            let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String(String.UnicodeScalarView($0)) }
            let file = try DesktopFile(parsing: text)
            let actionIDs = try #require(file["Desktop Entry"]?["Actions"]).split(separator: ";").map(String.init)
            #expect(actionIDs.count == entry.actions.count)
            #expect(lines.filter { $0.hasPrefix("[") } == ["[Desktop Entry]"] + actionIDs.map { "[Desktop Action \($0)]" })
            let keys: Set<String> = ["Type", "Version", "Name", "Comment", "Icon", "Exec", "Terminal", "Categories", "Actions"]
            var counts: [String: Int] = [:]
            for line in lines where !line.isEmpty && !line.hasPrefix("[") {
                let key = String(line.prefix { $0 != "=" })
                #expect(keys.contains(key) && line.count > key.count, "\(line.debugDescription)")
                counts[key, default: 0] += 1
            }
            #expect(counts["Exec"] == entry.actions.count + 1)
            #expect(counts["Name"] == entry.actions.count + 1)
            #expect(file["Desktop Entry"]?["Categories"]?.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_;".unicodeScalars.contains($0))
            } ?? false)
            #expect(!text.unicodeScalars.contains("\r"))
            #expect(text.hasSuffix("\n"))
        }
    }
}

@Suite("Icon catalog", .timeLimit(.minutes(10)))
struct IconCatalogTests {
    static let appleNames = [
        "Compose", "Play", "Pause", "Add", "Location", "Search", "Share", "Prohibit", "Contact", "Home",
        "MarkLocation", "Favorite", "Love", "Cloud", "Invitation", "Confirmation", "Mail", "Message", "Date",
        "Time", "CapturePhoto", "CaptureVideo", "Task", "TaskCompleted", "Alarm", "Bookmark", "Shuffle", "Audio",
        "Update",
    ].map { "UIApplicationShortcutIconType" + $0 }

    static let symbolNames = [
        "plus.circle", "plus.circle.fill", "flame", "flame.fill", "chart.bar", "chart.bar.fill",
        "arrow.uturn.backward", "arrow.uturn.backward.circle", "arrow.clockwise", "arrow.clockwise.circle.fill",
        "hand.wave", "hand.wave.fill", "globe", "dollarsign.circle", "dollarsign.circle.fill", "star", "star.fill",
        "heart", "heart.fill", "clock", "clock.fill", "calendar", "magnifyingglass", "square.and.pencil",
        "checkmark.circle", "checkmark.circle.fill", "trash", "trash.fill", "gear",
    ]

    /// Theme names are icon names: lower-case words joined by `-`, no path, no extension.
    func isIconName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || $0 == "-" }
    }

    @Test("every Apple icon type and the listed SF Symbols map to a theme icon and one glyph",
          arguments: appleNames + symbolNames)
    func known(_ icon: String) throws {
        #expect(IconCatalog.isKnown(icon))
        let theme = try #require(IconCatalog.themeName(for: icon))
        #expect(isIconName(theme), "\(theme)")
        let glyph = IconCatalog.glyph(for: icon)
        #expect(glyph.count == 1 && glyph != IconCatalog.defaultGlyph, "\(glyph)")
    }

    @Test("a few mappings, checked by name")
    func examples() {
        #expect(IconCatalog.themeName(for: "UIApplicationShortcutIconTypeAdd") == "list-add")
        #expect(IconCatalog.themeName(for: "UIApplicationShortcutIconTypeSearch") == "edit-find")
        #expect(IconCatalog.themeName(for: "UIApplicationShortcutIconTypePlay") == "media-playback-start")
        #expect(IconCatalog.themeName(for: "UIApplicationShortcutIconTypeDate") == "x-office-calendar")
        #expect(IconCatalog.themeName(for: "plus.circle.fill") == "list-add")
        #expect(IconCatalog.themeName(for: "magnifyingglass") == "edit-find")
        #expect(IconCatalog.glyph(for: "flame.fill") == "🔥")
    }

    @Test("any figure.* is the one exercise icon")
    func figures() {
        let names = ["figure.strengthtraining.functional", "figure.core.training", "figure.flexibility", "figure.walk",
                     "figure.run.circle.fill"]
        for name in names {
            #expect(IconCatalog.isKnown(name))
            #expect(IconCatalog.themeName(for: name) == "emoji-activities")
            #expect(IconCatalog.glyph(for: name) == "🏃")
        }
        #expect(!IconCatalog.isKnown("figure."))
        #expect(!IconCatalog.isKnown("figures.walk"))
    }

    @Test("nil and unknown names have no theme icon and the default glyph")
    func unknown() {
        for icon in [nil, "", "UIApplicationShortcutIconTypeNope", "Compose", "plus.circle.circle", "no.such.symbol"] {
            #expect(IconCatalog.themeName(for: icon) == nil)
            #expect(IconCatalog.glyph(for: icon) == "•")
        }
        #expect(!IconCatalog.isKnown("UIApplicationShortcutIconTypeCompose "))
    }
}
