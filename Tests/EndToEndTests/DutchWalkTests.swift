import Foundation
import Testing
import TestSupport
import WarmWire

/// One language everywhere (issue 51), walked command by command in Dutch: every line a command
/// shows is checked for English. This part walks the suggestions', the schedules' and the
/// server's commands, list --explain, doctor, the errors of bad input and the plain answers of
/// dynamic, refresh, export and plugins.
@Suite("Dutch, command by command", .timeLimit(.minutes(10)))
struct DutchWalkTests {
    /// English words that no Dutch sentence of the host has ("is", "of", "in", "log" are Dutch too).
    static let englishWords: Set<String> = [
        "the", "and", "to", "with", "your", "you", "when", "its", "this", "that", "from", "every", "none", "runs", "ran", "until",
        "shows", "turns", "which", "would", "could", "there", "offered", "nothing", "not", "quiet", "hours", "most", "day", "suggestion",
        "suggestions", "already", "usually", "around", "now", "today", "least", "twice", "times", "each", "once", "minutes", "learned",
        "suggesting", "again", "muted", "since", "off", "on", "a", "an", "at", "are", "no", "yet", "come", "comes",
    ]

    /// The English words of `text`, outside what is quoted ('standfit-host suggestions on') and
    /// outside names (config.json, suggestionQuietHours, com.standfit.logexercise).
    static func english(in text: String) -> [String] {
        var unquoted = "", quoted = false
        for character in text {
            if character == "'" { quoted.toggle(); continue }
            if !quoted { unquoted.append(character) }
        }
        return unquoted.split(whereSeparator: \.isWhitespace).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:()—")) }
            .map { $0.lowercased() }.filter { englishWords.contains($0) }
    }

    @Test("the suggestions' commands in Dutch: suggestions, suggest --explain, suggestions offer --dry-run (quiet, nothing due, would offer), suggestions off and unmute; not an English word in them")
    func suggestions() {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        func at(_ instant: String) -> HostSandbox {
            var timed = sandbox
            timed.extraEnvironment["STANDFIT_NOW"] = instant
            return timed
        }
        for day in 18...21 {
            #expect(at("2026-11-\(day)T08:05:00Z").run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        }
        let walked: [(String, ProcessResult)] = [
            ("suggestions", sandbox.run("suggestions")),
            ("suggest --explain", at("2026-11-22T08:05:00Z").run("suggest", "--explain")),
            ("offer at 23:00", at("2026-11-22T22:00:00Z").run("suggestions", "offer", "--dry-run")),
            ("offer at 14:05", sandbox.run("suggestions", "offer", "--dry-run")),
            ("offer at 09:05", at("2026-11-22T08:05:00Z").run("suggestions", "offer", "--dry-run")),
            ("suggestions off", sandbox.run("suggestions", "off")),
            ("suggestions unmute --all", sandbox.run("suggestions", "unmute", "--all")),
        ]
        for (command, result) in walked {
            let words = Self.english(in: result.stdout + result.stderr)
            #expect(words.isEmpty, "\(command) says English (\(words)): \(result)")
        }
        #expect(walked[0].1 == ProcessResult(status: 0, stdout: """
            Voorstellen komen als meldingen: uit; 'standfit-host suggestions on' zet ze aan (stille uren 22:00-08:00, hoogstens 3 per dag).
            Vandaag aangeboden: 0.

            """, stderr: ""))
        #expect(walked[2].1.stdout == "Niets aangeboden: 23:00 valt in de stille uren (22:00-08:00, suggestionQuietHours in config.json).\n")
        // StandFit's Dutch phrase "log {count} {exercise}" names it ("log" is Dutch for it too).
        #expect(walked[4].1.stdout == "Zou aanbieden: Log 20 Squats (meestal rond 09:05).\n", "\(walked[4].1)")
        #expect(walked[6].1 == ProcessResult(status: 2, stdout: "", stderr: "standfit-host: Van enig type was niets uitgezet; er is geen voorstel uitgezet.\n"))
        // The detector itself finds English where there is some.
        #expect(Self.english(in: "Nothing offered at 14:05: no suggestion usually runs around now ('standfit-host suggest' shows when).")
            == ["nothing", "offered", "at", "no", "suggestion", "usually", "runs", "around", "now", "shows", "when"])
    }

    @Test("the schedules' commands in Dutch: schedule list (none, one), add, add --remind refused, a time systemd does not read, remove, remove of none; not an English word in them (systemd's own words quoted or as it writes them)",
          .needs(.systemdAnalyze))
    func schedules() {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        // No user manager here: a schedule is written, enabled, and said not to be active yet.
        sandbox.extraEnvironment["PATH"] = sandbox.root.path + ":/usr/bin:/bin"
        let walked: [(String, ProcessResult)] = [
            ("schedule list", sandbox.run("schedule", "list")),
            ("schedule add", sandbox.run("schedule", "add", "Mon..Fri 07:00", "logexercise", "exercise=squats", "count=20")),
            ("schedule list (one)", sandbox.run("schedule", "list")),
            ("schedule add --remind", sandbox.run("schedule", "add", "--remind", "daily", "logexercise", "exercise=squats", "count=5")),
            ("schedule add bad time", sandbox.run("schedule", "add", "every morning", "viewstreak")),
            ("schedule remove 7", sandbox.run("schedule", "remove", "7")),
            ("schedule remove 1", sandbox.run("schedule", "remove", "1")),
            ("schedule remove 1 again", sandbox.run("schedule", "remove", "1")),
        ]
        for (command, result) in walked {
            // systemd's calendar words (Mon..Fri, CET) and its state are its own, not sentences.
            let words = Self.english(in: result.stdout + result.stderr)
            #expect(words.isEmpty, "\(command) says English (\(words)): \(result)")
        }
        #expect(walked[0].1 == ProcessResult(status: 0, stdout: """
            Geen planningen; 'standfit-host schedule add WANNEER TYPE [naam=waarde …]' voegt er een toe, zoals: \
            standfit-host schedule add 'Mon..Fri 07:00' logexercise exercise=squats count=20.

            """, stderr: ""), "\(walked[0].1)")
        // What follows "volgende" is systemd's: its next time as systemd-analyze writes it, and
        // whether a user manager runs here.
        #expect(walked[1].1.status == 0 && walked[1].1.stdout.hasPrefix("Gepland 1: Oefening loggen (exercise=squats count=20), Mon..Fri *-*-* 07:00:00 (volgende "),
                "\(walked[1].1)")
        #expect(walked[2].1.stdout.hasPrefix("1. Oefening loggen (exercise=squats count=20) — Mon..Fri *-*-* 07:00:00, volgende "), "\(walked[2].1)")
        #expect(walked[3].1 == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: fout: Een herinnering vraagt om een waarde, en com.standfit.logexercise heeft hier elke waarde die het nodig heeft; laat de waarde weg waar het om moet vragen (zoals exercise), of laat --remind weg om het op die tijden uit te voeren.\n"), "\(walked[3].1)")
        #expect(walked[4].1.stderr == "standfit-host: fout: 'every morning' is geen tijd die systemd leest; geef een kalenderuitdrukking zoals 'Mon..Fri 07:00', 'daily' of '*-*-* 09,13,17:00' (systemd.time(7), 'Calendar Events').\n", "\(walked[4].1)")
        #expect(walked[5].1.stderr == "standfit-host: fout: Er is geen planning 7; 'standfit-host schedule list' toont ze (1).\n", "\(walked[5].1)")
        #expect(walked[6].1 == ProcessResult(status: 0, stdout: "Planning 1 verwijderd: Oefening loggen (exercise=squats count=20) (3 bestanden).\n", stderr: ""))
        #expect(walked[7].1.stderr == "standfit-host: fout: Er is geen planning 1; er zijn er geen ('standfit-host schedule add' maakt er een).\n", "\(walked[7].1)")
    }

    @Test("list --explain in Dutch: each app's line, where each item comes from, until when it holds, what it replaces, what is left out and why; not an English word in it")
    func listExplained() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        let manifest = sandbox.root.appendingPathComponent("manifest.json")
        try Data(#"{"UIApplicationShortcutItems": [{"UIApplicationShortcutItemType": "com.other.nothing", "UIApplicationShortcutItemTitle": "Niets"}]}"#.utf8)
            .write(to: manifest)
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        let explained = sandbox.run("list", "--explain", "--manifest", manifest.path)
        let words = Self.english(in: explained.stdout + explained.stderr)
        #expect(explained.status == 0 && words.isEmpty, "list --explain says English (\(words)): \(explained)")
        #expect(explained.stdout == """
            com.other (com.other): een eigen menu, hoogstens 4 getoond
            -  Niets  (com.other.nothing)  weggelaten: geen plug-in behandelt com.other.nothing
                 uit het manifest \(manifest.path)

            StandFit (com.standfit): een eigen menu, hoogstens 4 getoond
            1. Oefening loggen  (com.standfit.logexercise)
                 standaarditem van plug-in com.standfit
            2. Reeks bekijken — 1 dag  (com.standfit.viewstreak)
                 dynamisch, van de leverancier van plug-in com.standfit, rang 1, geldig tot 2026-11-23 00:00:00+01:00
            3. Squats loggen — 20 herhalingen  (com.standfit.logexercise)
                 dynamisch, van de leverancier van plug-in com.standfit, rang 2
            4. Voortgang bekijken  (com.standfit.viewprogress)
                 dynamisch, van de leverancier van plug-in com.standfit, rang 3

            """, "\(explained)")
    }

    @Test("server status in Dutch, running (warm) or not (cold, exit 1): not an English word in it")
    func serverStatus() {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        let status = sandbox.run("server", "status")
        let words = Self.english(in: status.stdout + status.stderr)
        #expect(words.isEmpty, "server status says English (\(words)): \(status)")
        let place = WarmPlace(fullHost: Fixtures.fullHostBinary.path, environment: { sandbox.environment[$0] })
        let socket = place?.socketPath ?? "?", build = place?.build ?? "?", pid = sandbox.server.pid.map { "\($0)" } ?? "?"
        if HostPath.current == .warm {
            // Its uptime in whole seconds, which the test cannot know.
            #expect(status.status == 0 && status.stderr == "" && status.stdout.replacing(#/, al [0-9]+ s\)\n/#, with: ", al N s)\n") == """
                Server: draait (pid \(pid), build \(build), al N s)
                Socket: \(socket)
                Verzoeken beantwoord: 0
                Werkprocessen: 0 van hoogstens 8 (elk gestopt na 5 min zonder werk)
                Logboek: \(sandbox.root.path)/state/standfit/server.log

                """, "\(status)")
        } else {
            #expect(status == ProcessResult(status: 1, stdout: """
                Er draait geen server van deze build (socket \(socket)); de volgende opdracht start er een, tenzij STANDFIT_SERVER of "server" in config.json 'off' of 'manual' is.

                """, stderr: ""), "\(status)")
        }
    }

    @Test("the warm server's socket directory in Dutch: a cold command's warning and serve's refusal for a directory others can enter, word for word")
    func socketDirectory() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "auto"
        let directory = sandbox.server.socketDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        chmod(directory.path, 0o755)
        let cold = runProcess(Fixtures.hostBinary, arguments: ["run", "viewstreak"], environment: sandbox.environment)
        #expect(cold == ProcessResult(status: 0, stdout: "Nog geen reeks: log vandaag een oefening om er een te beginnen.\n", stderr: """
            standfit-host: waarschuwing: de warme server wordt niet gestart: zijn socketmap \(directory.path) heeft modus 755, waarmee anderen erin kunnen; dat moet 700 zijn; herstel het met 'chmod 700 \(directory.path)', of zet STANDFIT_SERVER=off om altijd zonder server te werken.

            """))
        var manual = sandbox
        manual.extraEnvironment["STANDFIT_SERVER"] = "manual"
        #expect(runProcess(Fixtures.fullHostBinary, arguments: ["serve"], environment: manual.environment) == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: fout: De server kan niet starten: de socketmap \(directory.path) heeft modus 755, waarmee anderen erin kunnen; dat moet 700 zijn; herstel het met 'chmod 700 \(directory.path)' en start de server opnieuw.

            """))
        // The thin client, which has no tables, has the full host say why it served nothing.
        var required = sandbox
        required.extraEnvironment["STANDFIT_SERVER"] = "required"
        #expect(runProcess(Fixtures.hostBinary, arguments: ["run", "viewstreak"], environment: required.environment) == ProcessResult(status: 69, stdout: "", stderr: """
            standfit-host: fout: Geen warme server heeft deze opdracht uitgevoerd, en STANDFIT_SERVER is 'required': de socketmap \(directory.path) heeft modus 755, waarmee anderen erin kunnen; dat moet 700 zijn; herstel het met 'chmod 700 \(directory.path)'.

            """))
    }

    @Test("the plugin commands in Dutch: plugins (a plugin and a refused one), plugins check of a good plugin, of a path with no file, of a world-writable plugin and of one that crashes its scan; not an English word in them (paths and strsignal's words aside)")
    func pluginCommands() throws {
        let open = try FixturePlugins.worldWritableFile(in: makeTemporaryDirectory("standfit-dutch-plugins"))
        var sandbox = HostSandbox.standFit()
        sandbox.pluginPath.append(open)
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        // A good plugin whose own words are no English either (StandFit's English phrases are).
        let good = try FixturePlugins.zoo("plain.so").path, crash = try FixturePlugins.zoo("crash-init.so").path
        let walked: [(String, ProcessResult)] = [
            ("plugins", sandbox.run("plugins")),
            ("plugins check (good)", sandbox.run("plugins", "check", good)),
            ("plugins check (no file)", sandbox.run("plugins", "check", "/nonexistent/x.so")),
            ("plugins check (world-writable)", sandbox.run("plugins", "check", open.path)),
            ("plugins check (crashes)", sandbox.run("plugins", "check", crash)),
        ]
        for (command, result) in walked {
            let words = Self.english(in: result.stdout + result.stderr)
            #expect(words.isEmpty, "\(command) says English (\(words)): \(result)")
        }
        let refusal = "Plug-in \(open.path) is schrijfbaar voor de groep en voor anderen (modus 0666); voer 'chmod go-w \(open.path)' uit of verwijder hem."
        #expect(walked[0].1 == ProcessResult(status: 0, stdout: """
            com.standfit 1.0.0 (ABI 1.0): StandFit
              pad: \(Fixtures.standFitPlugin.path)
              types: com.standfit.logexercise, com.standfit.loglast, com.standfit.viewstreak, com.standfit.viewprogress, com.standfit.undo, \
            com.standfit.redo, com.standfit.history, com.standfit.deletelog, com.standfit.editlog, com.standfit.achievements, com.standfit.export, \
            com.standfit.import, com.standfit.addexercise, com.standfit.renameexercise, com.standfit.hideexercise, com.standfit.setgoal, com.standfit.goalreminder
              draait: in het proces van de host (vertrouwd; in een werkproces als de warme server hem draait)
            geweigerd: \(open.path)
              \(refusal)

            """, stderr: ""), "\(walked[0].1)")
        // Its one measured figure, how long init took, as "N ms" (`withoutInitTime`).
        #expect(walked[1].1.status == 0 && withoutInitTime(walked[1].1.stdout) == """
            Plug-in \(good)
              id: com.zoo.plain 0.1.0 ("Zoo plain"), ABI 1.0
              init: N ms
              sha256: \(sha256(of: URL(fileURLWithPath: good)))
              draait: in een werkproces (niet vertrouwd; 'standfit-host plugins trust' zet hem vast)
              types:
                com.zoo.plain.run "Run plain"
              statische items: geen
              dynamische leverancier: nee
            OK: com.zoo.plain laadt, met 1 type en geen waarschuwingen.

            """, "\(walked[1].1)")
        #expect(walked[2].1 == ProcessResult(status: 4, stdout: """
            Plug-in /nonexistent/x.so
              geweigerd: Er is geen bestand op /nonexistent/x.so; geef het pad van het .so-bestand van de plug-in.

            """, stderr: ""))
        #expect(walked[3].1 == ProcessResult(status: 4, stdout: "Plug-in \(open.path)\n  geweigerd: \(refusal)\n", stderr: ""))
        #expect(walked[4].1 == ProcessResult(status: 4, stdout: """
            Plug-in \(crash)
              in quarantaine: Plug-in \(crash) crashte met SIGSEGV (segmentation fault) terwijl hij werd geladen en geïnitialiseerd, \
            in zijn eigen code in init; hij staat in quarantaine tot het bestand verandert, dus herstel of verwijder hem (of voer \
            'standfit-host plugins rescan' uit om hem opnieuw te proberen).

            """, stderr: ""), "\(walked[4].1)")
    }

    @Test("doctor in Dutch, its sandbox line included: not an English word in it")
    func doctor() {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        let report = sandbox.run("doctor")
        let words = Self.english(in: report.stdout + report.stderr)
        #expect(report.status == 0 && words.isEmpty, "doctor says English (\(words)): \(report)")
        #expect(report.stdout.contains("\nZandbak voor niet-vertrouwde plug-ins: "), "\(report)")
        #expect(report.stdout.hasSuffix("Geen problemen gevonden.\n"), "\(report)")
    }

    @Test("the errors of bad input in Dutch: a manifest item without a type, items that are not JSON, not a list or with a bad item (from a file and from standard input), an audio path that is a directory, an exercise of 5000 letters to schedule, STANDFIT_NOW unread, an unknown STANDFIT_SERVER; and the plain answers of dynamic, refresh, export --uninstall, plugins untrust and run --notify without a bus; not an English word in them",
          .needs(.systemdAnalyze))
    func errors() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        let manifest = sandbox.root.appendingPathComponent("manifest.json")
        try Data(#"{"UIApplicationShortcutItems": [{"UIApplicationShortcutItemTitle": "Niets"}]}"#.utf8).write(to: manifest)
        let notJSON = sandbox.root.appendingPathComponent("items.json")
        try Data("[{".utf8).write(to: notJSON)
        let badItem = sandbox.root.appendingPathComponent("item.json")
        try Data(#"[{"type": 1, "title": "Een"}]"#.utf8).write(to: badItem)
        var unread = sandbox
        unread.extraEnvironment["STANDFIT_NOW"] = "gisteren"
        unread.coldRunsExpected = true
        var unknownMode = sandbox
        unknownMode.extraEnvironment["STANDFIT_SERVER"] = "soms"
        unknownMode.coldRunsExpected = true
        var busless = sandbox
        busless.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(sandbox.root.path)/no-bus"
        let walked: [(String, ProcessResult)] = [
            ("list --manifest without a type", sandbox.run("list", "--manifest", manifest.path)),
            ("dynamic set not JSON", sandbox.run("dynamic", "set", notJSON.path)),
            ("dynamic set bad item", sandbox.run("dynamic", "set", badItem.path)),
            ("dynamic set - an object", sandbox.run(["dynamic", "set", "-"], stdin: "{}")),
            ("say --audio a directory", sandbox.run("say", "--audio", sandbox.root.path)),
            ("schedule add a long value", sandbox.run("schedule", "add", "daily", "logexercise", "exercise=" + String(repeating: "x", count: 5000))),
            ("STANDFIT_NOW unread", unread.run("list")),
            ("STANDFIT_SERVER unknown", unknownMode.run("list")),
            ("dynamic set", sandbox.run(["dynamic", "set", "-"], stdin: #"[{"type": "com.standfit.viewstreak", "title": "Reeks"}]"#)),
            ("dynamic clear", sandbox.run("dynamic", "clear")),
            ("refresh", sandbox.run("refresh")),
            ("export desktop --uninstall", sandbox.run("export", "desktop", "--uninstall")),
            ("export krunner --uninstall", sandbox.run("export", "krunner", "--uninstall")),
            ("plugins untrust", sandbox.run("plugins", "untrust", Fixtures.standFitPlugin.path)),
            ("run --notify without a bus", busless.run("run", "--notify", "viewstreak")),
        ]
        for (command, result) in walked {
            let words = Self.english(in: result.stdout + result.stderr)
            #expect(words.isEmpty, "\(command) says English (\(words)): \(result)")
        }
        #expect(walked[0].1 == ProcessResult(status: 5, stdout: "", stderr: "standfit-host: fout: \(manifest.path): UIApplicationShortcutItems[0] heeft geen UIApplicationShortcutItemType; elk snelactie-item heeft een type en een titel nodig.\n"),
                "\(walked[0].1)")
        #expect(walked[1].1 == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: fout: \(notJSON.path) is geen geldige JSON; geef een JSON-array van items zoals \
            [{"type": "com.standfit.logexercise", "title": "Log Squats"}]. Er is niets veranderd.

            """), "\(walked[1].1)")
        #expect(walked[2].1.stderr == "standfit-host: fout: \(badItem.path): het item op index 0 heeft een type dat geen tekst is; er is niets veranderd.\n", "\(walked[2].1)")
        #expect(walked[3].1.stderr == "standfit-host: fout: standaardinvoer moet een JSON-array van items bevatten, niet een object; er is niets veranderd.\n", "\(walked[3].1)")
        #expect(walked[4].1 == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: fout: \(sandbox.root.path) is geen gewoon bestand (een apparaat, een pijp of een map kan geen opname zijn); geef een WAV-, FLAC- of Ogg-bestand.\n"),
                "\(walked[4].1)")
        // StandFit refuses an exercise of 5000 letters before the schedule would refuse its length.
        #expect(walked[5].1 == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: exercise: er is geen oefening met de naam '" + String(repeating: "x", count: 5000)
            + "'; kies uit squats, pushups, plank, lunges, calfraises, stretching, jumpingjacks, wallsit, burpees, situps.\n"), "\(walked[5].1)")
        #expect(walked[6].1 == ProcessResult(status: 5, stdout: "", stderr: "standfit-host: fout: STANDFIT_NOW is 'gisteren', en dat is geen ISO 8601-tijdstip; zet het zoals 2026-03-29T08:30:00Z of haal het weg.\n"),
                "\(walked[6].1)")
        #expect(walked[7].1.stderr == """
            standfit-host: waarschuwing: STANDFIT_SERVER is 'soms', en dat is geen modus, dus het wordt genegeerd; zet het op 'auto', 'manual', 'off' of 'required', \
            of haal het weg (dan geldt "server" in config.json).

            """, "\(walked[7].1)")
        #expect(walked[8].1 == ProcessResult(status: 0, stdout: "1 scriptitem bewaard; zie 'standfit-host list'.\n", stderr: ""), "\(walked[8].1)")
        #expect(walked[9].1 == ProcessResult(status: 0, stdout: "De scriptitems zijn gewist.\n", stderr: ""), "\(walked[9].1)")
        #expect(walked[10].1.status == 0 && walked[10].1.stdout == "com.standfit: 0 items\n", "\(walked[10].1)")
        #expect(walked[11].1 == ProcessResult(status: 0, stdout: "Er zijn geen desktopbestanden geïnstalleerd ('export desktop --install' is niet uitgevoerd, of ze zijn verwijderd); er is niets verwijderd.\n", stderr: ""),
                "\(walked[11].1)")
        #expect(walked[12].1 == ProcessResult(status: 0, stdout: "Het plug-inbestand voor KRunner is niet geïnstalleerd; er is niets verwijderd.\n", stderr: ""), "\(walked[12].1)")
        #expect(walked[13].1 == ProcessResult(status: 0, stdout: "\(Fixtures.standFitPlugin.path) werd niet vertrouwd; er is niets veranderd.\n", stderr: ""), "\(walked[13].1)")
        #expect(walked[14].1.status == 69 && walked[14].1.stderr == "standfit-host: De uitkomst is niet als melding getoond: de sessiebus op unix:path=\(sandbox.root.path)/no-bus kon niet worden bereikt (--verbose zegt waarom); de actie is uitgevoerd (de uitkomst staat hierboven), en een meldingenserver op de sessiebus (GNOME Shell, Plasma, dunst, xfce4-notifyd) zou hem tonen.\n",
                "\(walked[14].1)")
    }

    @Test("a plugin's refused registrations in Dutch: the warning, its frame and each problem (a phrase's placeholder, choices of a number, unknown trait bits, an action not registered) in Dutch; not an English word in them")
    func registrationProblems() throws {
        var sandbox = try HostSandbox(pluginPath: [FixturePlugins.url("intents.so")])
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        let listed = sandbox.run("list")
        let path = try FixturePlugins.url("intents.so").path
        // The five warnings, and that no quick action is left to show (the fixture has no items).
        let lines = listed.stderr.split(separator: "\n").map(String.init).filter { !$0.contains("Er zijn geen snelle acties om te tonen") }
        #expect(listed.status == 0 && lines.count == 5, "\(listed)")
        for line in lines {
            // What the plugin registered is its own (its phrase "wave at {nobody}", its names).
            let words = Self.english(in: line.replacingOccurrences(of: "\"wave at {nobody}\"", with: ""))
            #expect(words.isEmpty && line.hasPrefix("standfit-host: waarschuwing: Plug-in 'com.fixture.intents' (\(path)) laadt "),
                    "English (\(words)) in: \(line)")
        }
        let frame = "standfit-host: waarschuwing: Plug-in 'com.fixture.intents' (\(path)) laadt zonder een registratie die de host weigerde, omdat zijn init toch STANDFIT_OK teruggaf (laat hem de status van de mislukte aanroep teruggeven): "
        #expect(listed.stderr == [
            frame + "de zin \"wave at {nobody}\" van 'com.fixture.intents.wave' heeft plaatshouder {nobody}, die geen van zijn parameters is.",
            frame + "parameter 'coats' van 'com.fixture.intents.paint' is geen string, dus kan hij geen keuzes hebben.",
            frame + "set_action_traits geeft 'com.fixture.intents.paint' traits 6, met bits die deze host niet kent (hij kent STANDFIT_TRAIT_NOT_SUGGESTIBLE = 1).",
            frame + "set_action_traits noemt actie 'com.fixture.intents.dance', die hij niet heeft geregistreerd; registreer de actie eerst.",
            frame + "set_parameter_traits geeft 'coats' van 'com.fixture.intents.paint' traits 4, met bits die deze host niet kent (hij kent STANDFIT_PARAM_TRAIT_NOT_SUGGESTIBLE = 1).",
            "standfit-host: Er zijn geen snelle acties om te tonen; zet items in \(sandbox.configDirectory.path)/Info.plist of installeer een plug-in (zie 'standfit-host plugins').",
        ].map { $0 + "\n" }.joined(), "\(listed.stderr)")
    }
}
