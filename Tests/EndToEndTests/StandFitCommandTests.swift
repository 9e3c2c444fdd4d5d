import Foundation
import Testing
import TestSupport

/// The product's main job on the built binary and the built StandFit plugin: log exercise,
/// then see it in the menu, in English and Dutch.
@Suite("StandFit through standfit-host", .timeLimit(.minutes(10)))
struct StandFitCommandTests {
    let sandbox = HostSandbox.standFit()

    @Test("logging shows up in the menu: View Streak with 1 day, Log Squats, View Progress", .needs(.sqlite3))
    func mainJob() {
        // Nothing logged: only Log Exercise (seed UX29), the provider asked on this first list.
        #expect(sandbox.run("list") == ProcessResult(status: 0, stdout: """
            1. Log Exercise  (com.standfit.logexercise)

            """, stderr: ""))
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20")
            == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(sandbox.run("list") == ProcessResult(status: 0, stdout: """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 1 day  (com.standfit.viewstreak)
            3. Log Squats — 20 reps  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """, stderr: ""))
        #expect(sandbox.run("run", "viewstreak").stdout == "Streak: 1 day\nBest streak: 1 day · level 1 · 20 XP\n")
        #expect(sandbox.integrityCheck() == "ok")
    }

    @Test("the dynamic item runs with its userInfo, as the menu and the desktop pass it")
    func runDynamicItem() {
        _ = sandbox.run("run", "logexercise", "exercise=plank", "count=90")
        #expect(sandbox.run("run", "com.standfit.logexercise", "--user-info", #"{"count":90,"exercise":"plank"}"#)
            == ProcessResult(status: 0, stdout: "Logged 90 seconds of plank · +18 XP\n", stderr: ""))
        // Without userInfo or arguments the exercise is missing.
        let bare = sandbox.run("run", "logexercise")
        #expect(bare.status == 3)
        #expect(bare.stderr == "standfit-host: Missing required parameter 'exercise' for com.standfit.logexercise; pass exercise=VALUE.\n")
    }

    @Test("the bundled plugin passes its own plugins check --strict, in English and Dutch (no title or subtitle longer than a menu shows)")
    func checksItself() {
        var dutch = sandbox
        dutch.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        // The report is in the run's language too (issue 51).
        for (home, subtitle, ok) in [(sandbox, "subtitle: \"Any exercise, any count\"", "OK: com.standfit loads, with 17 types and no warnings."),
                                     (dutch, "ondertitel: \"Elke oefening, elk aantal\"", "OK: com.standfit laadt, met 17 types en geen waarschuwingen.")] {
            let check = home.run("plugins", "check", "--strict", Fixtures.standFitPlugin.path)
            #expect(check.status == 0 && check.stdout.hasSuffix(ok + "\n"), "\(check)")
            #expect(check.stdout.contains("      \(subtitle)\n"), "\(check)")
        }
    }

    @Test("a note longer than 200 characters is refused naming the cap; a note's line breaks show as ↵ in history")
    func notes() {
        let long = String(repeating: "x", count: 201)
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "note=\(long)", "--json") == ProcessResult(status: 3, stdout: """
            {
              "message" : "note: at most 200 characters, got 201; shorten it.",
              "parameter" : "note",
              "plugin" : "com.standfit",
              "status" : "invalid-input",
              "type" : "com.standfit.logexercise"
            }

            """, stderr: ""))
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=2", "note=one\ntwo").status == 0)
        #expect(sandbox.run("run", "history", "days=1").stdout == "Logged today:\n#1  Sun 22 Nov 14:05  2 squats — one ↵ two\n")
    }

    @Test("Dutch: messages, plugin titles and dynamic items")
    func dutch() {
        #expect(sandbox.run("run", "logexercise", "exercise=Push-Ups", "count=12", "--locale", "nl").stdout
            == "12 push-ups gelogd · +18 XP\nPrestatie behaald: Eerste log\n")
        #expect(sandbox.run("list", "--locale", "nl") == ProcessResult(status: 0, stdout: """
            1. Oefening loggen  (com.standfit.logexercise)
            2. Reeks bekijken — 1 dag  (com.standfit.viewstreak)
            3. Push-ups loggen — 12 herhalingen  (com.standfit.logexercise)
            4. Voortgang bekijken  (com.standfit.viewprogress)

            """, stderr: ""))
        var dutch = sandbox
        dutch.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        #expect(dutch.run("run", "undo").stdout == "12 push-ups van 14:05 gewist · −18 XP\nPrestatie ingetrokken: Eerste log\n")
    }

    @Test("loglast, undo and bad input: statuses and one-sentence answers", .needs(.sqlite3))
    func statuses() {
        let none = sandbox.run("run", "loglast")
        #expect(none.status == 1)
        #expect(none.stderr == "standfit-host: Nothing is logged yet, so there is no last exercise to repeat; log one first, e.g. standfit-host run logexercise exercise=squats.\n")
        #expect(sandbox.run("run", "undo") == ProcessResult(status: 1, stdout: "", stderr: "standfit-host: Nothing to undo: the log is empty.\n"))
        let unknown = sandbox.run("run", "logexercise", "exercise=yoga")
        #expect(unknown.status == 3)
        #expect(unknown.stderr == "standfit-host: exercise: no exercise is called 'yoga'; choose one of squats, pushups, plank, lunges, calfraises, stretching, jumpingjacks, wallsit, burpees, situps.\n")
        let ten = sandbox.run("run", "logexercise", "exercise=squats", "count=ten")
        #expect(ten.status == 3)
        #expect(ten.stderr == "standfit-host: count: expected an integer, got 'ten'.\n")
        _ = sandbox.run("run", "logexercise", "exercise=squats")
        #expect(sandbox.run("run", "loglast").stdout == "Logged 15 squats · +15 XP\n")
        #expect(sandbox.run("run", "undo").stdout == "Removed 15 squats logged at 14:05 · −15 XP\n")
        #expect(sandbox.integrityCheck() == "ok")
    }

    @Test("undo undoes the log made last, not the one logged for the latest time: after a backfill, the backfill goes and today's log stays; said with its date")
    func undoAfterBackfill() throws {
        let sandbox = HostSandbox.standFit()
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(sandbox.run("run", "logexercise", "exercise=burpees", "count=5", "at=yesterday 11:00").status == 0)
        #expect(sandbox.run("run", "undo") == ProcessResult(status: 0, stdout: "Removed 5 burpees logged on 21 Nov at 11:00 · −12 XP\n", stderr: ""))
        #expect(sandbox.run("run", "history").stdout == "Logged in the last 7 days:\n#1  Sun 22 Nov 14:05  20 squats\n")
        #expect(sandbox.run("run", "undo") == ProcessResult(status: 0, stdout: "Removed 20 squats logged at 14:05 · −20 XP\nAchievement taken back: First log\n", stderr: ""))
    }

    @Test("a date of another year carries its year everywhere: the log's reply, undo, achievements, history; in English and Dutch")
    func yearsWhereTheyDiffer() throws {
        let sandbox = HostSandbox.standFit()
        let logged = sandbox.run("run", "logexercise", "exercise=squats", "count=3", "at=2025-11-25 10:00")
        #expect(logged == ProcessResult(status: 0, stdout: "Logged 3 squats on 25 Nov 2025 at 10:00 · +3 XP\nAchievement unlocked: First log\n", stderr: ""))
        let achievements = sandbox.run("run", "achievements")
        #expect(achievements.stdout == """
            Level 1 · 3 XP · 97 XP to level 2
            Earned
            ✓ First log · 25 Nov 2025
            Next
            · 3-day streak                              1/3
            · 7-day streak                              1/7
            · 100 squats                                3/100
            · Every exercise tried                      1/10
            · Five days in one week                     1/5
            · Early bird (a log between 4:00 and 7:00)  0/1

            """, "\(achievements)")
        #expect(sandbox.run("run", "history", "days=366").stdout == "Logged in the last 366 days:\n#1  Tue 25 Nov 2025 10:00  3 squats\n")
        #expect(sandbox.run("run", "achievements", "--locale", "nl").stdout == """
            Niveau 1 · 3 XP · nog 97 XP tot niveau 2
            Behaald
            ✓ Eerste log · 25 nov 2025
            Volgende
            · Reeks van 3 dagen                               1/3
            · Reeks van 7 dagen                               1/7
            · 100 squats                                      3/100
            · Elke oefening geprobeerd                        1/10
            · Vijf dagen in één week                          1/5
            · Vroege vogel (een log tussen 4.00 en 7.00 uur)  0/1

            """)
        let undone = sandbox.run("run", "undo", "--locale", "nl")
        #expect(undone.stdout == "3 squats van 25 nov 2025 10:00 gewist · −3 XP\nPrestatie ingetrokken: Eerste log\n", "\(undone)")
        // This year's dates keep the short form.
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=2", "at=yesterday 09:00").stdout
            == "Logged 2 squats on 21 Nov at 09:00 · +2 XP\nAchievement unlocked: First log\n")
    }

    @Test("logexercise --json carries the stored entry under data")
    func json() {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20", "note=after lunch", "--json").stdout == """
            {
              "data" : {
                "count" : 20,
                "exercise" : "squats",
                "id" : 1,
                "loggedAt" : "2026-11-22T13:05:00Z",
                "note" : "after lunch",
                "progress" : {
                  "level" : 1,
                  "takenBack" : [

                  ],
                  "totalXP" : 20,
                  "unlocked" : [
                    "first-log"
                  ],
                  "xp" : 20
                },
                "unit" : "reps"
              },
              "message" : "Logged 20 squats · +20 XP\\nAchievement unlocked: First log",
              "plugin" : "com.standfit",
              "status" : "handled",
              "type" : "com.standfit.logexercise"
            }

            """)
    }

    @Test("history, editlog and deletelog through the host: text and --json, Dutch, the menu follows")
    func historyAndCorrections() throws {
        var earlier = sandbox
        earlier.extraEnvironment["STANDFIT_NOW"] = "2026-11-20T08:00:00Z"
        #expect(earlier.run("run", "logexercise", "exercise=squats", "count=20", "note=morning set").status == 0)
        #expect(sandbox.run("run", "logexercise", "exercise=plank", "count=60").status == 0)
        #expect(sandbox.run("run", "history") == ProcessResult(status: 0, stdout: """
            Logged in the last 7 days:
            #2  Sun 22 Nov 14:05  60 seconds of plank
            #1  Fri 20 Nov 09:00  20 squats — morning set

            """, stderr: ""))
        #expect(sandbox.run("run", "history", "exercise=squats", "--locale", "nl").stdout
            == "Gelogd in de afgelopen 7 dagen (Squats):\n#1  vr 20 nov 09:00  20 squats — morning set\n")
        let json = sandbox.run("run", "history", "days=1", "--json")
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let data = try #require(document["data"] as? [String: Any])
        let entries = try #require(data["entries"] as? [[String: Any]])
        #expect(data["days"] as? Int == 1 && entries.count == 1)
        #expect(entries.first?["id"] as? Int == 2 && entries.first?["localTime"] as? String == "2026-11-22 14:05")
        #expect(sandbox.run("run", "editlog", "id=2", "count=90") == ProcessResult(status: 0, stdout: """
            Changed #2 to 90 seconds of plank, logged at 14:05 · +6 XP

            """, stderr: ""))
        // The menu's "Log ⟨last⟩" follows the correction.
        #expect(sandbox.run("list").stdout == """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 1 day  (com.standfit.viewstreak)
            3. Log Plank — 90 seconds  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """)
        #expect(sandbox.run("run", "deletelog", "id=2").stdout == "Removed 90 seconds of plank logged at 14:05 · −18 XP\n")
        // Today's log is gone, and with it the streak (the squats were on Friday).
        #expect(sandbox.run("list").stdout == """
            1. Log Exercise  (com.standfit.logexercise)
            2. Log Squats — 20 reps  (com.standfit.logexercise)
            3. View Progress  (com.standfit.viewprogress)

            """)
        #expect(sandbox.run("run", "deletelog", "id=2") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: id: no log has id 2; give the number after a log's #: the newest are below, and 'standfit-host run history' shows the rest.
              #1  Fri 20 Nov 09:00  20 squats — morning set

            """))
        #expect(sandbox.run("run", "editlog", "id=1", "--locale", "nl").stderr
            == "standfit-host: Niets te wijzigen in log 1: geef count=GETAL of note=TEKST (een lege notitie wist haar).\n")
    }

    @Test("backfill: logexercise at= in the user's words and zone, counted on its day; refusals say what is accepted; editlog at=")
    func backfill() {
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20", "at=yesterday 18:00")
            == ProcessResult(status: 0, stdout: "Logged 20 squats on 21 Nov at 18:00 · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(sandbox.run("run", "viewstreak").stdout == "Streak: 1 day; log an exercise today to keep it going.\nBest streak: 1 day · level 1 · 20 XP\n")
        #expect(sandbox.run("run", "logexercise", "exercise=plank", "count=30", "at=2 uur geleden", "--locale", "nl").stdout
            == "30 seconden plank gelogd (12:05) · +8 XP\n")
        #expect(sandbox.run("run", "viewstreak").stdout == "Streak: 2 days\nBest streak: 2 days · level 1 · 28 XP\n")
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "at=next week") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: at: 'next week' is not a time StandFit reads; give an ISO 8601 time (2026-11-21T18:00:00Z), a local date and \
            time (2026-11-21 18:00), yesterday or today with an optional time (yesterday 18:00), or a time ago (-2h, 2h ago, 30 min ago).

            """))
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "at=2026-11-23 09:00").stderr
            == "standfit-host: at: '2026-11-23 09:00' is in the future; log what was done, now or up to a year back.\n")
        #expect(sandbox.run("run", "editlog", "id=1", "at=2026-11-20T07:00:00Z").stdout
            == "Changed #1 to 20 squats, logged on 20 Nov at 08:00 · −2 XP\n")
        #expect(sandbox.run("run", "viewstreak").stdout == "Streak: 1 day\nBest streak: 1 day · level 1 · 26 XP\n")
    }

    /// The sandbox at another instant (Amsterdam, as every StandFit sandbox).
    func at(_ instant: String) -> HostSandbox {
        var moved = sandbox
        moved.extraEnvironment["STANDFIT_NOW"] = instant
        return moved
    }

    @Test("the menu follows seed UX29 in every state: empty, streak alive, streak waiting for today, streak broken; in Dutch too")
    func conditionalItems() {
        #expect(sandbox.run("list").stdout == "1. Log Exercise  (com.standfit.logexercise)\n")
        // Five days in a row, Wednesday to Sunday.
        for day in 18...22 {
            #expect(at("2026-11-\(day)T07:30:00Z").run("run", "logexercise", "exercise=lunges", "count=12").status == 0)
        }
        #expect(sandbox.run("list") == ProcessResult(status: 0, stdout: """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 5 days  (com.standfit.viewstreak)
            3. Log Lunges — 12 reps  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """, stderr: ""))
        // Monday: today is not logged yet, so the streak still stands. Asked once in Dutch, the
        // provider answers in both languages from then on, also when the streak item expires.
        #expect(sandbox.run("refresh", "--locale", "nl").status == 0)
        #expect(at("2026-11-23T09:00:00Z").run("list", "--locale", "nl").stdout == """
            1. Oefening loggen  (com.standfit.logexercise)
            2. Reeks bekijken — 5 dagen  (com.standfit.viewstreak)
            3. Uitvalspassen loggen — 12 herhalingen  (com.standfit.logexercise)
            4. Voortgang bekijken  (com.standfit.viewprogress)

            """)
        // Two days on, with nothing run in between: the streak is over, and every surface says so.
        let later = at("2026-11-24T09:00:00Z")
        #expect(later.run("list") == ProcessResult(status: 0, stdout: """
            1. Log Exercise  (com.standfit.logexercise)
            2. Log Lunges — 12 reps  (com.standfit.logexercise)
            3. View Progress  (com.standfit.viewprogress)

            """, stderr: ""))
        #expect(later.run("run", "viewstreak").stdout == "No streak yet: log an exercise today to start one.\nBest streak: 5 days · level 1 · 90 XP\n")
        // Each surface on a home of its own, so that none relies on another having asked first.
        let client = Fixtures.hostBinary.path
        let surfaces: [([String], String)] = [
            (["export", "desktop"], #"""
                [Desktop Entry]
                Type=Application
                Version=1.4
                Name=StandFit
                Comment=Quick actions: Log Exercise, Log Lunges and View Progress
                Comment[nl]=Snelle acties: Oefening loggen, Uitvalspassen loggen en Voortgang bekijken
                Keywords=Log;Exercise;Lunges;View;Progress;quick;actions;
                Keywords[nl]=Oefening;loggen;Uitvalspassen;Voortgang;bekijken;snelle;acties;
                Icon=list-add
                Exec=\#(client) menu
                Terminal=true
                Categories=Utility;
                Actions=com-standfit-logexercise;com-standfit-logexercise-2;com-standfit-viewprogress;

                [Desktop Action com-standfit-logexercise]
                Name=Log Exercise
                Name[nl]=Oefening loggen
                Icon=list-add
                Exec=\#(client) run -- com.standfit.logexercise

                [Desktop Action com-standfit-logexercise-2]
                Name=Log Lunges — 12 reps
                Name[nl]=Uitvalspassen loggen — 12 herhalingen
                Icon=emoji-activities
                Exec=\#(client) run --user-info "{\\"count\\":12,\\"exercise\\":\\"lunges\\"}" -- com.standfit.logexercise

                [Desktop Action com-standfit-viewprogress]
                Name=View Progress
                Name[nl]=Voortgang bekijken
                Icon=x-office-spreadsheet
                Exec=\#(client) run -- com.standfit.viewprogress

                """#),
            (["rofi"], [
                "\u{0}prompt\u{1F}StandFit\n",
                "\u{0}use-hot-keys\u{1F}true\n",
                "Log Exercise\u{0}icon\u{1F}list-add\u{1F}info\u{1F}standfit:eyJhcmd1bWVudHMiOnt9LCJ0eXBlIjoiY29tLnN0YW5kZml0LmxvZ2V4ZXJjaXNlIn0\n",
                "Log Lunges — 𝟷𝟸 reps\u{0}icon\u{1F}emoji-activities\u{1F}info\u{1F}standfit:eyJhcmd1bWVudHMiOnt9LCJ0eXBlIjoiY29tLnN0YW5kZml0LmxvZ2V4ZXJjaXNlIiwidXNlckluZm8iOnsiY291bnQiOjEyLCJleGVyY2lzZSI6Imx1bmdlcyJ9fQ\n",
                "View Progress\u{0}icon\u{1F}x-office-spreadsheet\u{1F}info\u{1F}standfit:eyJhcmd1bWVudHMiOnt9LCJ0eXBlIjoiY29tLnN0YW5kZml0LnZpZXdwcm9ncmVzcyJ9\n",
            ].joined()),
            (["rofi", "--dmenu"], "Log Exercise\nLog Lunges — 𝟷𝟸 reps\nView Progress\n"),
        ]
        for (surface, expected) in surfaces {
            var home = HostSandbox.standFit()
            for day in 18...22 {
                home.extraEnvironment["STANDFIT_NOW"] = "2026-11-\(day)T07:30:00Z"
                #expect(home.run("run", "logexercise", "exercise=lunges", "count=12").status == 0)
            }
            home.extraEnvironment["STANDFIT_NOW"] = "2026-11-24T09:00:00Z"
            let shown = home.run(surface).stdout
            #expect(shown == expected, "\(surface): \(shown)")
        }
        // Everything undone: only Log Exercise again. Undo corrects a mistake: it is not donated,
        // so the menu never suggests it, however often it ran; and each log it undid is withdrawn.
        for _ in 1...5 { #expect(later.run("run", "undo").status == 0) }
        #expect(later.run("list").stdout == "1. Log Exercise  (com.standfit.logexercise)\n")
        #expect(later.run("donations", "list", "--type", "logexercise").stdout == "No runs of com.standfit.logexercise (Log Exercise) are recorded.\n")
        #expect(later.run("donations").stdout == "2026-11-24 10:00:00  com.standfit.viewstreak\n")
    }

    @Test("the streak item holds until local midnight, also across the change to winter time; list --explain and --json say until when")
    func itemLifetimeAcrossDST() throws {
        // Saturday 24 October 2026, 23:30 in Amsterdam (summer time); the night after has 25 hours.
        #expect(at("2026-10-24T21:30:00Z").run("run", "logexercise", "exercise=squats", "count=10").status == 0)
        #expect(at("2026-10-24T21:59:00Z").run("list", "--explain").stdout == """
            StandFit (com.standfit): its own menu, at most 4 shown
            1. Log Exercise  (com.standfit.logexercise)
                 default item of plugin com.standfit
            2. View Streak — 1 day  (com.standfit.viewstreak)
                 dynamic, from plugin com.standfit's provider, rank 1, true until 2026-10-25 00:00:00+02:00
            3. Log Squats — 10 reps  (com.standfit.logexercise)
                 dynamic, from plugin com.standfit's provider, rank 2
            4. View Progress  (com.standfit.viewprogress)
                 dynamic, from plugin com.standfit's provider, rank 3

            """)
        // Sunday 23:30 winter time (22:30 UTC): the streak waits for today's log.
        let sunday = at("2026-10-25T22:30:00Z")
        #expect(sunday.run("list", "--explain").stdout == """
            StandFit (com.standfit): its own menu, at most 4 shown
            1. Log Exercise  (com.standfit.logexercise)
                 default item of plugin com.standfit
            2. View Streak — 1 day  (com.standfit.viewstreak)
                 dynamic, from plugin com.standfit's provider, rank 1, true until 2026-10-26 00:00:00+01:00
            3. Log Squats — 10 reps  (com.standfit.logexercise)
                 dynamic, from plugin com.standfit's provider, rank 2
            4. View Progress  (com.standfit.viewprogress)
                 dynamic, from plugin com.standfit's provider, rank 3

            """)
        let json = sunday.run("list", "--json")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(items.map { $0["validUntil"] as? String } == [nil, "2026-10-25T23:00:00Z", nil, nil])
        // Monday 00:00:30 winter time: over.
        #expect(at("2026-10-25T23:00:30Z").run("list").stdout == """
            1. Log Exercise  (com.standfit.logexercise)
            2. Log Squats — 10 reps  (com.standfit.logexercise)
            3. View Progress  (com.standfit.viewprogress)

            """)
    }

    @Test("XP and achievements through the host: each log says what it earned, achievements and viewstreak sum up, undo takes back; --json; Dutch", .needs(.sqlite3))
    func xpAndAchievements() throws {
        #expect(at("2026-11-20T05:30:00Z").run("run", "logexercise", "exercise=squats", "count=20") == ProcessResult(status: 0, stdout: """
            Logged 20 squats · +20 XP
            Achievement unlocked: First log
            Achievement unlocked: Early bird (a log between 4:00 and 7:00)

            """, stderr: ""))
        #expect(at("2026-11-21T10:00:00Z").run("run", "logexercise", "exercise=squats", "count=20").stdout == "Logged 20 squats · +22 XP\n")
        #expect(sandbox.run("say", "log 20 squats").stdout == "Logged 20 squats · +24 XP\nAchievement unlocked: 3-day streak\n")
        let json = sandbox.run("run", "logexercise", "exercise=burpees", "count=30", "--json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["message"] as? String == "Logged 30 burpees · +60 XP\nLevel 2 reached")
        let progress = try #require((document["data"] as? [String: Any])?["progress"] as? [String: Any])
        #expect(progress["xp"] as? Int == 60 && progress["totalXP"] as? Int == 126 && progress["level"] as? Int == 2)
        #expect(progress["unlocked"] as? [String] == [] && progress["takenBack"] as? [String] == [])
        #expect(sandbox.run("run", "viewstreak").stdout == "Streak: 3 days\nBest streak: 3 days · level 2 · 126 XP\n")
        #expect(sandbox.run("run", "achievements") == ProcessResult(status: 0, stdout: """
            Level 2 · 126 XP · 174 XP to level 3
            Earned
            ✓ First log · 20 Nov
            ✓ 3-day streak · 22 Nov
            ✓ Early bird (a log between 4:00 and 7:00) · 20 Nov
            Next
            · 7-day streak           3/7
            · 100 squats             60/100
            · Every exercise tried   2/10
            · Five days in one week  3/5

            """, stderr: ""))
        // Taking back: the 21st's log goes, and with it the streak and its bonus.
        #expect(sandbox.run("run", "deletelog", "id=2").stdout == """
            Removed 20 squats logged on 21 Nov at 11:00 · −26 XP
            Achievement taken back: 3-day streak

            """)
        // Undo takes back that deletion, with its XP and streak; redo deletes it again.
        #expect(sandbox.run("run", "undo", "--locale", "nl").stdout == "20 squats van 21 nov 11:00 teruggezet · +26 XP\nPrestatie behaald: Reeks van 3 dagen\n")
        #expect(sandbox.run("run", "redo", "--locale", "nl").stdout
            == "Opnieuw 20 squats van 21 nov 11:00 gewist · −26 XP\nPrestatie ingetrokken: Reeks van 3 dagen\n")
        #expect(sandbox.run("run", "deletelog", "id=4", "--locale", "nl").stdout == "30 burpees van 14:05 gewist · −60 XP\n")
        #expect(sandbox.run("run", "achievements", "--locale", "nl").stdout == """
            Niveau 1 · 40 XP · nog 60 XP tot niveau 2
            Behaald
            ✓ Eerste log · 20 nov
            ✓ Vroege vogel (een log tussen 4.00 en 7.00 uur) · 20 nov
            Volgende
            · Reeks van 3 dagen         1/3
            · Reeks van 7 dagen         1/7
            · 100 squats                40/100
            · Elke oefening geprobeerd  1/10
            · Vijf dagen in één week    2/5

            """)
        // The database keeps each log's XP and the achievements earned, in the same transaction.
        let database = sandbox.dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite").path
        #expect(runProcess(ExternalTool.sqlite3.url, arguments: [database, "SELECT id, xp FROM log ORDER BY id; SELECT id FROM achievement ORDER BY id;"]).stdout
            == "1|20\n3|20\nearly-bird\nfirst-log\n")
    }

    @Test("streak across midnight in the user's time zone, and the week's chart")
    func acrossMidnight() {
        var late = sandbox
        late.extraEnvironment["STANDFIT_NOW"] = "2026-11-20T22:59:00Z"   // 23:59 Friday in Amsterdam
        _ = late.run("run", "logexercise", "exercise=squats", "count=10")
        var early = sandbox
        early.extraEnvironment["STANDFIT_NOW"] = "2026-11-20T23:01:00Z"  // 00:01 Saturday
        _ = early.run("run", "logexercise", "exercise=plank", "count=30")
        #expect(early.run("run", "viewstreak").stdout == "Streak: 2 days\nBest streak: 2 days · level 1 · 18 XP\n")
        var tokyo = early
        tokyo.extraEnvironment["TZ"] = "Asia/Tokyo"   // both fall on Saturday there
        #expect(tokyo.run("run", "viewstreak").stdout == "Streak: 1 day\nBest streak: 1 day · level 1 · 16 XP\n")
        var monday = sandbox
        monday.extraEnvironment["STANDFIT_NOW"] = "2026-11-23T08:00:00Z"
        #expect(monday.run("run", "viewstreak").stdout == "No streak yet: log an exercise today to start one.\nBest streak: 2 days · level 1 · 18 XP\n")
        var sunday = sandbox
        sunday.extraEnvironment["STANDFIT_NOW"] = "2026-11-22T08:00:00Z"
        #expect(sunday.run("run", "viewstreak").stdout == "Streak: 2 days; log an exercise today to keep it going.\nBest streak: 2 days · level 1 · 18 XP\n")
        #expect(monday.run("run", "viewprogress", "--locale", "nl").stdout == """
            Deze week, 23 nov – 29 nov 2026
            ma 23  · 0
            di 24  · 0
            wo 25  · 0
            do 26  · 0
            vr 27  · 0
            za 28  · 0
            zo 29  · 0
            Deze week is er nog niets gelogd.

            █ = 1 log

            """)
        #expect(sandbox.run("run", "viewprogress").stdout == """
            This week, 22 Nov – 28 Nov 2026
            Sun 22  · 0
            Mon 23  · 0
            Tue 24  · 0
            Wed 25  · 0
            Thu 26  · 0
            Fri 27  · 0
            Sat 28  · 0
            Nothing logged this week yet.

            █ = 1 log

            """)
        var friday = sandbox
        friday.extraEnvironment["STANDFIT_NOW"] = "2026-11-21T08:00:00Z"
        let chart = friday.run("run", "viewprogress", "--json")
        #expect(canonicalJSON(chart.stdout) == #"{"data":{"days":[{"date":"2026-11-15","logs":0,"totals":{}},{"date":"2026-11-16","logs":0,"totals":{}},{"date":"2026-11-17","logs":0,"totals":{}},{"date":"2026-11-18","logs":0,"totals":{}},{"date":"2026-11-19","logs":0,"totals":{}},{"date":"2026-11-20","logs":1,"totals":{"squats":10}},{"date":"2026-11-21","logs":1,"totals":{"plank":30}}],"exercises":[{"exercise":"squats","logs":1,"total":10,"unit":"reps"},{"exercise":"plank","logs":1,"total":30,"unit":"seconds"}],"totalLogs":2,"weekEnd":"2026-11-21","weekStart":"2026-11-15"},"message":"This week, 15 Nov – 21 Nov 2026\nSun 15  · 0\nMon 16  · 0\nTue 17  · 0\nWed 18  · 0\nThu 19  · 0\nFri 20  █ 1\nSat 21  █ 1\n\nBy exercise\nSquats  █ 1 log, 10 reps\nPlank   █ 1 log, 30 seconds\n\n█ = 1 log","plugin":"com.standfit","status":"handled","type":"com.standfit.viewprogress"}"#)
        #expect(friday.run("run", "viewprogress").stdout == """
            This week, 15 Nov – 21 Nov 2026
            Sun 15  · 0
            Mon 16  · 0
            Tue 17  · 0
            Wed 18  · 0
            Thu 19  · 0
            Fri 20  █ 1
            Sat 21  █ 1

            By exercise
            Squats  █ 1 log, 10 reps
            Plank   █ 1 log, 30 seconds

            █ = 1 log

            """)
    }
}

extension HostSandbox {
    /// `PRAGMA integrity_check` of the host's and StandFit's databases, "ok" when both are sound.
    func integrityCheck() -> String {
        let files = [dataHome.appendingPathComponent("standfit/state.sqlite"),
                     dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite")]
        let answers = files.map { file in
            runProcess(ExternalTool.sqlite3.url, arguments: [file.path, "PRAGMA integrity_check;"])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return Set(answers) == ["ok"] ? "ok" : answers.joined(separator: " / ")
    }
}
