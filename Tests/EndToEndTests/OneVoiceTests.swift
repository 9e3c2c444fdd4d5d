import Foundation
import Testing
import TestSupport

/// Issue 18's lines, end to end: types resolve the same way everywhere, `doctor` reads what the
/// other commands read and diagnoses what stops them.
@Suite("One voice: type resolution and doctor", .timeLimit(.minutes(10)))
struct OneVoiceTests {
    let sandbox = HostSandbox.standFit()

    /// An iOS Info.plist whose items carry the app's own bundle prefix, as seed AppCoda's do.
    func writeManifest(_ name: String = "Info.plist", viewStreakType: String = "nl.me.StandFit.viewstreak") throws -> URL {
        let url = sandbox.root.appendingPathComponent(name)
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>UIApplicationShortcutItems</key><array>
            <dict><key>UIApplicationShortcutItemType</key><string>\(viewStreakType)</string>
                  <key>UIApplicationShortcutItemTitle</key><string>My Streak</string></dict>
            <dict><key>UIApplicationShortcutItemType</key><string>nl.me.StandFit.LogExercise</string>
                  <key>UIApplicationShortcutItemTitle</key><string>Twelve Squats</string>
                  <key>UIApplicationShortcutItemUserInfo</key><dict><key>exercise</key><string>squats</string><key>count</key><integer>12</integer></dict></dict>
            </array></dict></plist>
            """.utf8).write(to: url)
        return url
    }

    @Test("a type resolves case-insensitively as a whole as by its last component; a full type nothing handles gets did-you-mean")
    func caseInsensitive() {
        #expect(sandbox.run("run", "com.standfit.LogExercise", "exercise=squats", "count=5")
            == ProcessResult(status: 0, stdout: "Logged 5 squats · +5 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(sandbox.run("run", "COM.STANDFIT.VIEWSTREAK").stdout == "Streak: 1 day\nBest streak: 1 day · level 1 · 5 XP\n")
        #expect(sandbox.run("run", "LOGEXERCISE", "exercise=squats", "count=5").status == 0)
        // Typed on the command line, another prefix is not guessed at: it may be another app's undo.
        #expect(sandbox.run("run", "com.other.undo") == ProcessResult(status: 2, stdout: "", stderr: """
            standfit-host: Unknown shortcut type 'com.other.undo'; did you mean com.standfit.undo (Undo Last Change)?

            """))
    }

    @Test("an icon no catalog knows (issue 35): list --explain says so with the closest names, doctor lists it as a problem in the run's language, an icon file beside the manifest is no problem")
    func unknownIcons() throws {
        let directory = sandbox.root.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8).write(to: directory.appendingPathComponent("squat.svg"))
        let manifest = directory.appendingPathComponent("Info.plist")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>UIApplicationShortcutItems</key><array>
            <dict><key>UIApplicationShortcutItemType</key><string>com.standfit.logexercise</string>
                  <key>UIApplicationShortcutItemTitle</key><string>Ten Squats</string>
                  <key>UIApplicationShortcutItemIconType</key><string>UIApplicationShortcutIconTypeBogus</string>
                  <key>UIApplicationShortcutItemUserInfo</key><dict><key>exercise</key><string>squats</string><key>count</key><integer>10</integer></dict></dict>
            <dict><key>UIApplicationShortcutItemType</key><string>com.standfit.viewprogress</string>
                  <key>UIApplicationShortcutItemTitle</key><string>Progress</string>
                  <key>UIApplicationShortcutItemIconFile</key><string>squat</string></dict>
            </array></dict></plist>
            """.utf8).write(to: manifest)
        let closest = "UIApplicationShortcutIconTypeCloud, UIApplicationShortcutIconTypeHome, UIApplicationShortcutIconTypeLove"
        #expect(sandbox.run("list", "--manifest", manifest.path, "--explain").stdout == """
            StandFit (com.standfit): its own menu, at most 4 shown
            1. Ten Squats  (com.standfit.logexercise)
                 from the manifest \(manifest.path); icon 'UIApplicationShortcutIconTypeBogus' is no icon name the host knows, so it shows as a plain bullet (closest: \(closest))
            2. Progress  (com.standfit.viewprogress)
                 from the manifest \(manifest.path)
            3. Log Exercise  (com.standfit.logexercise)
                 default item of plugin com.standfit

            """)
        struct Report: Decodable {
            struct Problem: Decodable, Equatable { var area: String; var message: String }
            var problems: [Problem]
        }
        let english = sandbox.run("doctor", "--manifest", manifest.path, "--json")
        #expect(english.status == 1)
        #expect(try JSONDecoder().decode(Report.self, from: Data(english.stdout.utf8)).problems == [Report.Problem(area: "manifest", message: """
            \(manifest.path): the item com.standfit.logexercise has the icon 'UIApplicationShortcutIconTypeBogus', which is no SF Symbol, \
            UIApplicationShortcutIconType or freedesktop icon name the host knows, nor an image beside the manifest, so menus show a \
            plain bullet; the closest known names are \(closest).
            """)])
        let dutch = sandbox.run("doctor", "--manifest", manifest.path, "--locale", "nl")
        #expect(dutch.status == 1)
        #expect(dutch.stdout.hasSuffix("""
            1 probleem:
              - \(manifest.path): het item com.standfit.logexercise heeft het pictogram 'UIApplicationShortcutIconTypeBogus', dat geen \
            SF Symbol, UIApplicationShortcutIconType of freedesktop-pictogramnaam is die de host kent, en ook geen afbeelding naast het \
            manifest, dus menu's tonen een gewoon bolletje; de dichtstbijzijnde bekende namen zijn \(closest).

            """))
    }

    @Test("a manifest item named with the app's own prefix runs by its last component, with its userInfo, and the menu shows it")
    func appPrefix() throws {
        let manifest = try writeManifest()
        #expect(sandbox.run("list", "--manifest", manifest.path) == ProcessResult(status: 0, stdout: """
            1. My Streak  (nl.me.StandFit.viewstreak)
            2. Twelve Squats  (nl.me.StandFit.LogExercise)
            3. Log Exercise  (com.standfit.logexercise)

            """, stderr: ""))
        #expect(sandbox.run("run", "nl.me.StandFit.LogExercise", "--manifest", manifest.path)
            == ProcessResult(status: 0, stdout: "Logged 12 squats · +12 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(sandbox.run("run", "nl.me.StandFit.viewstreak", "--manifest", manifest.path).stdout == "Streak: 1 day\nBest streak: 1 day · level 1 · 12 XP\n")
        // Now that StandFit provides items, the manifest's items show the live text of the types
        // they run (the provider's twin takes each one's place), and none of StandFit's is cut.
        #expect(sandbox.run("list", "--manifest", manifest.path) == ProcessResult(status: 0, stdout: """
            1. View Streak — 1 day  (com.standfit.viewstreak)
            2. Log Squats — 12 reps  (com.standfit.logexercise)
            3. Log Exercise  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """, stderr: ""))
        // Its donation is the type that ran.
        #expect(sandbox.run("donations").stdout == """
            2026-11-22 14:05:00  com.standfit.logexercise  count=12  exercise=squats
            2026-11-22 14:05:00  com.standfit.viewstreak

            """)
        // An item whose last component nothing has is still pruned, and doctor says why.
        let unhandled = try writeManifest("Other.plist", viewStreakType: "nl.me.StandFit.viewstreek")
        // The manifest's item of StandFit's type is StandFit's, the same quick action as the
        // provider's twin, which takes its place with its live text (issue 35's menu per app).
        #expect(sandbox.run("list", "--manifest", unhandled.path, "--explain").stdout == """
            nl.me.StandFit (nl.me.StandFit): its own menu, at most 4 shown
            -  My Streak  (nl.me.StandFit.viewstreek)  pruned: no plugin handles nl.me.StandFit.viewstreek
                 from the manifest \(unhandled.path)

            StandFit (com.standfit): its own menu, at most 4 shown
            1. Log Squats — 12 reps  (com.standfit.logexercise)
                 dynamic, from plugin com.standfit's provider, rank 2; replaces 'Twelve Squats' (from the manifest \(unhandled.path))
            2. Log Exercise  (com.standfit.logexercise)
                 default item of plugin com.standfit
            3. View Streak — 1 day  (com.standfit.viewstreak)
                 dynamic, from plugin com.standfit's provider, rank 1, true until 2026-11-23 00:00:00+01:00
            4. View Progress  (com.standfit.viewprogress)
                 dynamic, from plugin com.standfit's provider, rank 3

            """)
        let doctor = sandbox.run("doctor", "--manifest", unhandled.path)
        #expect(doctor.status == 1)
        #expect(doctor.stdout.hasSuffix("""
            1 problem:
              - The manifest item 'My Streak' (nl.me.StandFit.viewstreek) is never shown: no plugin handles nl.me.StandFit.viewstreek; install the plugin that does, or remove the item from \(unhandled.path).

            """))
    }

    @Test("say understands people: the app's name around a request, number words, a routine's phrases; a negative or zero count is refused in words; in English and Dutch", .needs(.sqlite3))
    func sayUnderstandsPeople() throws {
        let logged = { (count: Int, xp: Int) in ProcessResult(status: 0, stdout: "Logged \(count) squats · +\(xp) XP\n", stderr: "") }
        #expect(sandbox.run("say", "log 20 squats in StandFit") == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(sandbox.run("say", "StandFit, log twenty squats") == logged(20, 20))
        #expect(sandbox.run("say", "log twenty-one squats") == logged(21, 21))
        #expect(sandbox.run("say", "log a hundred squats") == ProcessResult(status: 0, stdout: "Logged 100 squats · +100 XP\nAchievement unlocked: 100 squats\nLevel 2 reached\n", stderr: ""))
        #expect(sandbox.run("say", "noteer twintig squats", "--locale", "nl") == ProcessResult(status: 0, stdout: "20 squats gelogd · +20 XP\n", stderr: ""))
        #expect(sandbox.run("say", "noteer vijfentwintig squats met StandFit", "--locale", "nl") == ProcessResult(status: 0, stdout: "25 squats gelogd · +25 XP\n", stderr: ""))
        for (sentence, value) in [("log -5 squats", "-5"), ("log zero squats", "0"), ("log 0 squats", "0")] {
            #expect(sandbox.run("say", sentence) == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: count: expected a number from 1 to 3600, got \(value).\n"), "\(sentence)")
        }
        // Unquoted, a negative count is a word of the sentence, not an unknown option.
        #expect(sandbox.run("say", "log", "-5", "squats") == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: count: expected a number from 1 to 3600, got -5.\n"))
        #expect(sandbox.run("say", "noteer -5 squats", "--locale", "nl")
            == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: count: verwacht een geheel getal van 1 tot en met 3600, kreeg -5.\n"))
        #expect(sandbox.query(.standFit, "SELECT count(*), sum(count) FROM log") == ["6|206"])

        let shortcuts = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: shortcuts, withIntermediateDirectories: true)
        try Data(#"{"type": "user.workout", "title": "My workout", "phrases": {"en": ["log my workout"], "nl": ["log mijn training"]}, "steps": [{"type": "com.standfit.logexercise", "parameters": {"exercise": "plank", "count": 60}}]}"#.utf8)
            .write(to: shortcuts.appendingPathComponent("workout.json"))
        #expect(sandbox.run("say", "log my workout") == ProcessResult(status: 0, stdout: "Logged 60 seconds of plank · +12 XP\nMy workout: ran 1 step.\n", stderr: ""))
        #expect(sandbox.run("say", "log mijn training", "--locale", "nl").stdout == "60 seconden plank gelogd · +12 XP\nMy workout: 1 stap uitgevoerd.\n")
        try Data(#"{"type": "user.bad", "title": "Bad", "phrases": ["log {count} workouts"], "steps": [{"type": "com.standfit.viewstreak"}]}"#.utf8)
            .write(to: shortcuts.appendingPathComponent("bad.json"))
        #expect(sandbox.run("run", "viewstreak").stderr == """
            standfit-host: warning: Shortcut \(shortcuts.path)/bad.json has the phrase "log {count} workouts" with placeholder {count}, but a routine has no parameters; write the words without it.

            """)
    }

    @Test("one language per menu (issue 33): items a run stored with --locale nl show for LANG=nl_NL and nl_BE, English ones for en_US, never a mix", .needs(.sqlite3))
    func oneLanguagePerMenu() {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=25", "--locale", "nl").status == 0)
        var dutch = sandbox
        dutch.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        let dutchMenu = """
            1. Oefening loggen  (com.standfit.logexercise)
            2. Reeks bekijken — 1 dag  (com.standfit.viewstreak)
            3. Squats loggen — 25 herhalingen  (com.standfit.logexercise)
            4. Voortgang bekijken  (com.standfit.viewprogress)

            """
        #expect(dutch.run("list") == ProcessResult(status: 0, stdout: dutchMenu, stderr: ""))
        dutch.extraEnvironment["LANG"] = "nl_BE.UTF-8"
        #expect(dutch.run("list").stdout == dutchMenu)
        var english = sandbox
        english.extraEnvironment["LANG"] = "en_US.UTF-8"
        #expect(english.run("list").stdout == """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 1 day  (com.standfit.viewstreak)
            3. Log Squats — 25 reps  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """)
        #expect(sandbox.query(.state, "SELECT DISTINCT language FROM dynamicSource ORDER BY language") == ["en", "nl"])
    }

    @Test("the host's own words are Dutch too: errors, dry runs, suggestions; the locale in any case, LANGUAGE honoured, an unsupported one answered in English, dates included, and said under --verbose")
    func dutchEverywhere() {
        var dutch = sandbox
        dutch.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        #expect(dutch.run("run", "logexercise", "exercise=hurdle") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: exercise: er is geen oefening met de naam 'hurdle'; kies uit squats, pushups, plank, lunges, calfraises, stretching, jumpingjacks, wallsit, burpees, situps.

            """))
        #expect(sandbox.run("run", "logexercise", "--no-input", "--locale", "NL").stderr
            == "standfit-host: De verplichte parameter 'exercise' van com.standfit.logexercise ontbreekt; geef exercise=WAARDE op.\n")
        #expect(dutch.run("run", "logexercise", "exercise=squats", "count=3", "--dry-run") == ProcessResult(status: 0, stdout: """
            Oefening loggen (com.standfit.logexercise) zou worden uitgevoerd met:
              exercise = squats (Squats)  [argument]
              count    = 3  [argument]
              seconds  = (niet ingesteld)
              minutes  = (niet ingesteld)
              note     = (niet ingesteld)
              at       = (niet ingesteld)
            Er is niets uitgevoerd (--dry-run).

            """, stderr: ""))
        #expect(dutch.run("run", "logexercise", "exercise=squats", "count=20").stdout == "20 squats gelogd · +20 XP\nPrestatie behaald: Eerste log\n")
        #expect(dutch.run("suggest") == ProcessResult(status: 0, stdout: """
            1. Log 20 Squats  (com.standfit.logexercise count=20 exercise=squats)  score 3.00
               1 keer uitgevoerd (frequentie 1.00); laatste keer 0 min geleden (recentheid 1.00); meestal rond 14:05, nu 14:05 (tijdstip 1.00)

            """, stderr: ""))
        #expect(dutch.run("run", "squatz").stderr == "standfit-host: Onbekend type snelle actie 'squatz'; 'standfit-host list --all' toont de types die er zijn.\n")
        // What stops a command is said in its language too (--locale, else the environment).
        #expect(sandbox.run("list", "--manifest", "/nonexistent", "--locale", "nl") == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: fout: Manifest /nonexistent bestaat niet; geef met --manifest het pad van een Info.plist of manifest.json, of van een map waar er een in staat.

            """))
        // doctor in Dutch too; what it quotes for plugins' authors (a refusal's reason) stays theirs.
        let doctor = dutch.run("doctor")
        #expect(doctor.status == 0)
        #expect(doctor.stdout.contains("\nMappen:\n") && doctor.stdout.contains("\nPlug-ins: 1 geladen, 0 geweigerd, 0 in quarantaine")
                && doctor.stdout.hasSuffix("Vertrouwde (vastgezette) plug-ins: geen\nGeen problemen gevonden.\n"), "\(doctor.stdout)")
        // LANGUAGE comes before LANG, as in gettext; not under the C locale.
        var listed = sandbox
        listed.extraEnvironment["LANG"] = "en_US.UTF-8"
        listed.extraEnvironment["LANGUAGE"] = "de:nl:en"
        #expect(listed.run("run", "viewstreak").stdout == "Reeks: 1 dag\nBeste reeks: 1 dag · niveau 1 · 20 XP\n")
        listed.extraEnvironment["LANG"] = "C"
        #expect(listed.run("run", "viewstreak").stdout == "Streak: 1 day\nBest streak: 1 day · level 1 · 20 XP\n")
        // A language the host does not speak: English words and English dates, said under --verbose.
        var german = sandbox
        german.extraEnvironment["LANG"] = "de_DE.UTF-8"
        #expect(german.run("run", "history").stdout == "Logged in the last 7 days:\n#1  Sun 22 Nov 14:05  20 squats\n")
        let verbose = sandbox.run("run", "viewstreak", "--locale", "xx", "--verbose")
        #expect(verbose.stdout == "Streak: 1 day\nBest streak: 1 day · level 1 · 20 XP\n")
        #expect(verbose.stderr.contains("standfit-host does not speak xx (from --locale); it answers in en, the first it speaks of xx and its own en, nl, and hands plugins en too.\n"))
    }

    @Test("the menu, its key help and the prompts' retries in Dutch", .needs(.tmux))
    func dutchMenu() throws {
        try sandbox.checkingHandBacks("menu --locale nl") {
            let tmux = try TmuxSession(command: sandbox.shellCommand(["menu", "--locale", "nl"]))
            #expect(tmux.wait(for: "om te stoppen") == """
                Snelle acties
                ❯ 1. ➕ Oefening loggen
                ↑/↓ of 1–1 om te kiezen · Enter om uit te voeren · Esc of q om te stoppen
                """)
            tmux.send("Enter")
            tmux.wait(for: "10. ")
            tmux.send("99", "Enter")
            // The retry and the question asked again are two writes: the screen is read once the question shows.
            #expect(tmux.wait(for: "Er is geen 99; kies een nummer van 1 tot en met 10, of een naam.\nWelke oefening?") == """
                   1. Squats
                   2. Push-ups
                   3. Plank
                   4. Uitvalspassen
                   5. Kuitheffingen
                   6. Rekken
                   7. Jumping jacks
                   8. Muurzit
                   9. Burpees
                  10. Sit-ups
                > 99
                Er is geen 99; kies een nummer van 1 tot en met 10, of een naam.
                Welke oefening?
                   1. Squats
                   2. Push-ups
                   3. Plank
                   4. Uitvalspassen
                   5. Kuitheffingen
                   6. Rekken
                   7. Jumping jacks
                   8. Muurzit
                   9. Burpees
                  10. Sit-ups
                >
                """)
            tmux.send("hurdle", "Enter")
            #expect(tmux.wait(for: "Er is niets met de naam 'hurdle'; kies een nummer van 1 tot en met 10, of een naam.\nWelke oefening?") == """
                   1. Squats
                   2. Push-ups
                   3. Plank
                   4. Uitvalspassen
                   5. Kuitheffingen
                   6. Rekken
                   7. Jumping jacks
                   8. Muurzit
                   9. Burpees
                  10. Sit-ups
                > hurdle
                Er is niets met de naam 'hurdle'; kies een nummer van 1 tot en met 10, of een naam.
                Welke oefening?
                   1. Squats
                   2. Push-ups
                   3. Plank
                   4. Uitvalspassen
                   5. Kuitheffingen
                   6. Rekken
                   7. Jumping jacks
                   8. Muurzit
                   9. Burpees
                  10. Sit-ups
                >
                """)
            tmux.send("squats", "Enter")
            tmux.wait(for: "Hoeveel?")
            tmux.send("veel", "Enter")
            #expect(tmux.wait(for: "Verwacht een geheel getal van 1 tot en met 3600, kreeg 'veel'.\nHoeveel? (1–3600) [15]") == """
                   6. Rekken
                   7. Jumping jacks
                   8. Muurzit
                   9. Burpees
                  10. Sit-ups
                > hurdle
                Er is niets met de naam 'hurdle'; kies een nummer van 1 tot en met 10, of een naam.
                Welke oefening?
                   1. Squats
                   2. Push-ups
                   3. Plank
                   4. Uitvalspassen
                   5. Kuitheffingen
                   6. Rekken
                   7. Jumping jacks
                   8. Muurzit
                   9. Burpees
                  10. Sit-ups
                > squats
                Hoeveel? (1–3600) [15]
                > veel
                Verwacht een geheel getal van 1 tot en met 3600, kreeg 'veel'.
                Hoeveel? (1–3600) [15]
                >
                """)
            // Out of range is asked again too.
            tmux.send("0", "Enter")
            #expect(tmux.wait(for: "Verwacht een geheel getal van 1 tot en met 3600, kreeg '0'.\nHoeveel? (1–3600) [15]") == """
                   9. Burpees
                  10. Sit-ups
                > hurdle
                Er is niets met de naam 'hurdle'; kies een nummer van 1 tot en met 10, of een naam.
                Welke oefening?
                   1. Squats
                   2. Push-ups
                   3. Plank
                   4. Uitvalspassen
                   5. Kuitheffingen
                   6. Rekken
                   7. Jumping jacks
                   8. Muurzit
                   9. Burpees
                  10. Sit-ups
                > squats
                Hoeveel? (1–3600) [15]
                > veel
                Verwacht een geheel getal van 1 tot en met 3600, kreeg 'veel'.
                Hoeveel? (1–3600) [15]
                > 0
                Verwacht een geheel getal van 1 tot en met 3600, kreeg '0'.
                Hoeveel? (1–3600) [15]
                >
                """)
            tmux.send("12", "Enter")
            #expect(tmux.wait(for: "12 squats gelogd · +12 XP\nPrestatie behaald: Eerste log\nEXIT=0") == """
                Welke oefening?
                   1. Squats
                   2. Push-ups
                   3. Plank
                   4. Uitvalspassen
                   5. Kuitheffingen
                   6. Rekken
                   7. Jumping jacks
                   8. Muurzit
                   9. Burpees
                  10. Sit-ups
                > squats
                Hoeveel? (1–3600) [15]
                > veel
                Verwacht een geheel getal van 1 tot en met 3600, kreeg 'veel'.
                Hoeveel? (1–3600) [15]
                > 0
                Verwacht een geheel getal van 1 tot en met 3600, kreeg '0'.
                Hoeveel? (1–3600) [15]
                > 12
                12 squats gelogd · +12 XP
                Prestatie behaald: Eerste log
                EXIT=0
                """)
        }
    }

    @Test("--json gives numbers as numbers and one object per command: --dry-run's values, refresh's providers")
    func jsonShapes() throws {
        let dryRun = try JSONSerialization.jsonObject(with: Data(sandbox.run("run", "logexercise", "exercise=squats", "--dry-run", "--json").stdout.utf8)) as? [String: Any]
        let parameters = dryRun?["parameters"] as? [[String: Any]] ?? []
        #expect(parameters.first { $0["name"] as? String == "count" }?["value"] as? Int == 15)
        #expect(parameters.first { $0["name"] as? String == "exercise" }?["value"] as? String == "squats")
        let refresh = try JSONSerialization.jsonObject(with: Data(sandbox.run("refresh", "--json").stdout.utf8)) as? [String: Any]
        #expect(refresh?["status"] as? String == "ok")
        #expect((refresh?["providers"] as? [[String: Any]])?.first?["plugin"] as? String == "com.standfit")
    }

    @Test("doctor lists what stops the other commands: an unresolved $(VAR), a broken config.json, a bad routine, a state that is no database; --json is structured")
    func doctorDiagnoses() throws {
        let manifest = try writeManifest(viewStreakType: "$(PRODUCT_BUNDLE_IDENTIFIER).viewstreak")
        let unresolved = "\(manifest.path): UIApplicationShortcutItems[0].UIApplicationShortcutItemType uses $(PRODUCT_BUNDLE_IDENTIFIER), which is not defined; pass --define PRODUCT_BUNDLE_IDENTIFIER=VALUE or set it in the environment."
        #expect(sandbox.run("list", "--manifest", manifest.path).status == 5)
        let doctor = sandbox.run("doctor", "--manifest", manifest.path)
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("Manifest: \(manifest.path): cannot be read\n"))
        #expect(doctor.stdout.hasSuffix("1 problem:\n  - \(unresolved)\n"))
        #expect(sandbox.run("doctor", "--manifest", manifest.path, "--define", "PRODUCT_BUNDLE_IDENTIFIER=nl.me.StandFit").stdout
            .contains("Manifest: \(manifest.path): 2 items\n"))

        sandbox.writeConfig(#"{"menuLimit": "four"}"#)
        let shortcuts = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: shortcuts, withIntermediateDirectories: true)
        try Data(#"{"type": "user.loop", "title": "Loop", "steps": [{"type": "user.loop"}]}"#.utf8).write(to: shortcuts.appendingPathComponent("loop.json"))
        // A warm server keeps the state open; the file is replaced between its runs, as by a
        // user whose disk failed, and the next server opens it afresh.
        sandbox.server.stopAll()
        let state = sandbox.root.appendingPathComponent("data/standfit/state.sqlite")
        try FileManager.default.createDirectory(at: state.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a database\n".utf8).write(to: state)
        #expect(sandbox.run("list").status == 5)

        struct Report: Decodable {
            struct Problem: Decodable, Equatable { var area: String; var message: String }
            struct Settings: Decodable { var valid: Bool; var menuLimit: Int }
            struct Database: Decodable { var path: String; var integrity: String? }
            struct Plugin: Decodable { var id: String; var types: Int }
            var problems: [Problem]
            var settings: Settings
            var state: Database
            var plugins: [Plugin]
        }
        let json = sandbox.run("doctor", "--json")
        #expect(json.status == 1)
        let report = try JSONDecoder().decode(Report.self, from: Data(json.stdout.utf8))
        try #require(report.problems.map(\.area) == ["settings", "state", "routine"])
        #expect(report.problems.first?.message == "menuLimit in \(sandbox.configDirectory.path)/config.json must be a whole number from 1 to 100, got \"four\".")
        #expect(report.problems[1].message == "The host's state \(state.path) cannot be opened (file is not a database): every command but doctor stops at it; move it aside (mv \(state.path) \(state.path).broken) and the next command starts afresh, without the pins, donations and dynamic items it held.")
        #expect(report.problems[2].message == "Shortcut \(shortcuts.path)/loop.json, step 1: routine 'user.loop' leads back to 'user.loop', which would never end; remove the loop.")
        #expect(report.settings.valid == false && report.settings.menuLimit == 4)
        #expect(report.state.path == state.path && report.state.integrity == nil)
        #expect(report.plugins.map(\.id) == ["com.standfit"])
        // The stand-in state doctor examined with is gone, and the broken one untouched.
        #expect(try String(contentsOf: state, encoding: .utf8) == "not a database\n")
    }
}
