import Foundation
import PluginAPI
import StandFitCore
import Testing
import TestSupport

/// StandFit's model without a host: a store in a temporary directory, a fixed clock in a
/// chosen time zone, and the real `.strings` tables.
struct StandFitFixture {
    static let localization = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Plugins/StandFit/Plugin/Localization")

    let directory: URL
    let timeZone: TimeZone
    let language: String

    init(timeZone: String = "Europe/Amsterdam", language: String = "en") {
        directory = makeTemporaryDirectory("standfit-tests")
        self.timeZone = TimeZone(identifier: timeZone)!
        self.language = language
    }

    /// An instant given as local wall-clock time in the fixture's zone: "2026-03-29 02:30".
    func local(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.timeZone = timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    var calendar: Calendar { StandFitClock.calendar(language: language, timeZone: timeZone) }

    func app(at now: String) throws -> StandFitApp {
        let instant = local(now)
        let strings = LocalizedStrings(directory: StandFitFixture.localization, language: language)
        return StandFitApp(store: try ExerciseStore(directory: directory),
                           clock: StandFitClock(now: { instant }, calendar: calendar),
                           text: StandFitText(strings: strings, calendar: calendar))
    }

    /// Logs `exercise` at each local time.
    func log(_ exercise: String, count: Int = 10, at times: String...) throws {
        let store = try ExerciseStore(directory: directory)
        for time in times {
            _ = try store.log(LogEntry(exercise: exercise, count: count, loggedAt: local(time)))
        }
    }
}

@Suite("StandFit catalogue", .timeLimit(.minutes(10)))
struct CatalogueTests {
    @Test("names match ignoring case, spaces and punctuation, in both languages",
          arguments: ["push ups", "push-ups", "Pushups", "PUSH-UP", "opdrukken", "Push-Ups"])
    func matching(text: String) {
        let strings = LocalizedStrings(directory: StandFitFixture.localization, language: "nl")
        let names = StandFitText(strings: strings, calendar: Calendar(identifier: .gregorian))
            .names(in: .standard)
        #expect(ExerciseCatalogue.standard.match(text, names: names)?.id == "pushups")
    }

    @Test("localized names match too, and unknown names do not")
    func localizedNames() {
        let strings = LocalizedStrings(directory: StandFitFixture.localization, language: "nl")
        let names = StandFitText(strings: strings, calendar: Calendar(identifier: .gregorian)).names(in: .standard)
        #expect(ExerciseCatalogue.standard.match("Kuitheffingen", names: names)?.id == "calfraises")
        #expect(ExerciseCatalogue.standard.match("yoga", names: names) == nil)
        #expect(ExerciseCatalogue.standard.match("  -- ", names: names) == nil)
    }

    @Test("at least eight exercises, each with a name in English and Dutch")
    func catalogue() {
        #expect(ExerciseCatalogue.standard.exercises.count >= 8)
        for language in ["en", "nl"] {
            let strings = LocalizedStrings(directory: StandFitFixture.localization, language: language)
            for exercise in ExerciseCatalogue.standard.exercises {
                for form in ["one", "other", "title"] {
                    #expect(strings.has("exercise.\(exercise.id).\(form)"), "\(language): exercise.\(exercise.id).\(form)")
                }
            }
        }
    }
}

@Suite("StandFit streaks", .timeLimit(.minutes(10)))
struct StreakTests {
    @Test("consecutive local days ending today, across midnight")
    func acrossMidnight() throws {
        let fixture = StandFitFixture()
        try fixture.log("squats", at: "2026-11-20 23:59", "2026-11-21 00:01", "2026-11-22 08:00")
        #expect(try fixture.app(at: "2026-11-22 09:00").streak() == Streak(days: 3, includesToday: true))
    }

    @Test("a streak ending yesterday still counts; one ending the day before does not")
    func endingYesterday() throws {
        let fixture = StandFitFixture()
        try fixture.log("plank", at: "2026-11-20 12:00", "2026-11-21 12:00")
        #expect(try fixture.app(at: "2026-11-22 09:00").streak() == Streak(days: 2, includesToday: false))
        #expect(try fixture.app(at: "2026-11-23 00:00").streak() == Streak(days: 0, includesToday: false))
    }

    @Test("a gap ends the streak")
    func gap() throws {
        let fixture = StandFitFixture()
        try fixture.log("squats", at: "2026-11-18 12:00", "2026-11-20 12:00", "2026-11-21 12:00", "2026-11-21 18:00")
        #expect(try fixture.app(at: "2026-11-21 20:00").streak() == Streak(days: 2, includesToday: true))
    }

    @Test("days across the spring DST change (23 hours) and the autumn one (25 hours) count once each")
    func daylightSaving() throws {
        let spring = StandFitFixture()
        // Amsterdam moves from 02:00 to 03:00 on 29 March 2026.
        try spring.log("squats", at: "2026-03-28 23:30", "2026-03-29 03:30", "2026-03-30 00:15")
        #expect(try spring.app(at: "2026-03-30 07:00").streak() == Streak(days: 3, includesToday: true))
        let autumn = StandFitFixture()
        // ... and back from 03:00 to 02:00 on 25 October 2026.
        try autumn.log("squats", at: "2026-10-24 23:50", "2026-10-25 02:30", "2026-10-26 00:05")
        #expect(try autumn.app(at: "2026-10-26 23:59").streak() == Streak(days: 3, includesToday: true))
    }

    @Test("the same instants make a different streak in another time zone")
    func timeZones() throws {
        let amsterdam = StandFitFixture(timeZone: "Europe/Amsterdam")
        // 22:30 UTC is 23:30 in Amsterdam but already the next day in Tokyo.
        try amsterdam.log("squats", at: "2026-11-20 23:30", "2026-11-21 23:30")
        #expect(try amsterdam.app(at: "2026-11-21 23:45").streak().days == 2)
        let tokyo = StandFitFixture(timeZone: "Asia/Tokyo")
        let store = try ExerciseStore(directory: tokyo.directory)
        for time in ["2026-11-20 23:30", "2026-11-21 23:30"] {
            _ = try store.log(LogEntry(exercise: "squats", count: 1, loggedAt: amsterdam.local(time)))
        }
        // In Tokyo both logs fall on 21 and 22 November: still two days, ending "today".
        let now = amsterdam.local("2026-11-21 23:45")
        let calendar = StandFitClock.calendar(language: "en", timeZone: tokyo.timeZone)
        let streak = try store.streak(now: now, calendar: calendar)
        #expect(streak == Streak(days: 2, includesToday: true))
    }
}

@Suite("StandFit actions", .timeLimit(.minutes(10)))
struct ActionTests {
    @Test("log, repeat the last, undo; messages in English and Dutch")
    func logAndUndo() throws {
        let fixture = StandFitFixture()
        let app = try fixture.app(at: "2026-11-22 14:05")
        let logged = try app.logExercise("Squats", count: 20, note: nil)
        #expect(logged.status == .handled)
        #expect(logged.dialog == "Logged 20 squats · +20 XP\nAchievement unlocked: First log")
        #expect(try app.logExercise("plank", count: nil, note: "  ").dialog == "Logged 60 seconds of plank · +12 XP")
        #expect(try app.logLast().dialog == "Logged 60 seconds of plank · +12 XP")
        #expect(try app.undo().dialog == "Removed 60 seconds of plank logged at 14:05 · −12 XP")
        let dutch = StandFitFixture(language: "nl")
        let nl = try dutch.app(at: "2026-11-22 14:05")
        #expect(try nl.logExercise("push-ups", count: 1, note: nil).dialog == "1 push-up gelogd · +2 XP\nPrestatie behaald: Eerste log")
        #expect(try nl.undo().dialog == "1 push-up van 14:05 gewist · −2 XP\nPrestatie ingetrokken: Eerste log")
        #expect(try nl.undo().status == .declined)
    }

    @Test("bad exercise and count are invalid input naming the parameter; nothing is stored")
    func invalid() throws {
        let fixture = StandFitFixture()
        let app = try fixture.app(at: "2026-11-22 14:05")
        let unknown = try app.logExercise("yoga", count: 5, note: nil)
        #expect(unknown.status == .invalidInput)
        #expect(unknown.dialog.hasPrefix("exercise: no exercise is called 'yoga'; choose one of squats, pushups,"))
        #expect(try app.logExercise("squats", count: 0, note: nil).dialog == "count: expected a number from 1 to 3600, got 0.")
        #expect(try app.store.last() == nil)
        #expect(try app.logLast().status == .declined)
    }

    @Test("dynamic items follow seed UX29 in each state: empty, one log, streak broken, streak alive (Dutch)")
    func dynamicItems() throws {
        let fixture = StandFitFixture()
        // Empty: nothing; the static "Log Exercise" is the menu.
        #expect(try fixture.app(at: "2026-11-22 10:00").dynamicItems().isEmpty)
        // One log today: streak of 1 day, the exercise to log again, progress.
        try fixture.log("lunges", count: 12, at: "2026-11-22 08:00")
        let one = try fixture.app(at: "2026-11-22 10:00").dynamicItems()
        #expect(one.map(\.title) == ["View Streak", "Log Lunges", "View Progress"])
        #expect(one.map(\.subtitle) == ["1 day", "12 reps", nil])
        #expect(one[1].userInfo == ["exercise": "lunges", "count": 12])
        #expect(one.map(\.type) == [StandFitTypes.viewStreak, StandFitTypes.logExercise, StandFitTypes.viewProgress])
        // The streak holds until local midnight; the rest until the log changes.
        #expect(one.map(\.validUntil) == [fixture.local("2026-11-23 00:00"), nil, nil])
        // Streak broken (the last log two days back): no View Streak.
        let broken = try fixture.app(at: "2026-11-24 10:00").dynamicItems()
        #expect(broken.map(\.title) == ["Log Lunges", "View Progress"])
        // Streak alive over two days; the last log is the one shown, in Dutch.
        try fixture.log("squats", count: 20, at: "2026-11-23 09:00")
        let dutch = StandFitFixture(language: "nl")
        let alive = try StandFitApp(store: ExerciseStore(directory: fixture.directory),
                                    clock: fixture.app(at: "2026-11-23 10:00").clock,
                                    text: dutch.app(at: "2026-11-23 10:00").text).dynamicItems()
        #expect(alive.map(\.title) == ["Reeks bekijken", "Squats loggen", "Voortgang bekijken"])
        #expect(alive.map(\.subtitle) == ["2 dagen", "20 herhalingen", nil])
    }

    @Test("the streak item's lifetime ends at local midnight: 25 hours on the day summer time ends, 23 on the day it starts")
    func streakItemLifetime() throws {
        let fixture = StandFitFixture()
        try fixture.log("squats", at: "2026-10-25 01:00", "2026-03-29 01:00")
        let autumn = try fixture.app(at: "2026-10-25 01:30").dynamicItems()
        #expect(autumn.first?.validUntil == fixture.local("2026-10-25 00:00").addingTimeInterval(25 * 3600))
        #expect(autumn.first?.validUntil == fixture.local("2026-10-26 00:00"))
        let spring = try fixture.app(at: "2026-03-29 01:30").dynamicItems()
        #expect(spring.first?.validUntil == fixture.local("2026-03-29 00:00").addingTimeInterval(23 * 3600))
        #expect(spring.first?.validUntil == fixture.local("2026-03-30 00:00"))
    }

    @Test("this week's progress per day and per exercise, drawn as bars with a legend")
    func progress() throws {
        let fixture = StandFitFixture(language: "nl")
        try fixture.log("squats", count: 20, at: "2026-11-16 08:00", "2026-11-18 08:00", "2026-11-18 12:00")
        try fixture.log("plank", count: 60, at: "2026-11-18 13:00")
        try fixture.log("squats", count: 5, at: "2026-11-15 23:59")   // last week (Sunday)
        let result = try fixture.app(at: "2026-11-19 10:00").viewProgress()
        #expect(result.dialog == """
            Deze week, 16 nov – 22 nov 2026
            ma 16  █ 1
            di 17  · 0
            wo 18  ███ 3
            do 19  · 0
            vr 20  · 0
            za 21  · 0
            zo 22  · 0

            Per oefening
            Squats  ███ 3 logs, 60 herhalingen
            Plank   █ 1 log, 60 seconden

            █ = 1 log
            """)
    }
}

@Suite("StandFit history and corrections", .timeLimit(.minutes(10)))
struct HistoryTests {
    @Test("history: the last days (today included), newest first, with short ids, local times and notes; by exercise; in Dutch")
    func history() throws {
        let fixture = StandFitFixture()
        let store = try ExerciseStore(directory: fixture.directory)
        _ = try store.log(LogEntry(exercise: "squats", count: 20, note: "morning set", loggedAt: fixture.local("2026-11-16 07:30")))
        _ = try store.log(LogEntry(exercise: "plank", count: 60, loggedAt: fixture.local("2026-11-21 23:59")))
        _ = try store.log(LogEntry(exercise: "squats", count: 10, loggedAt: fixture.local("2026-11-22 00:01")))
        let app = try fixture.app(at: "2026-11-22 14:05")
        #expect(try app.history(days: nil, exercise: nil).dialog == """
            Logged in the last 7 days:
            #3  Sun 22 Nov 00:01  10 squats
            #2  Sat 21 Nov 23:59  60 seconds of plank
            #1  Mon 16 Nov 07:30  20 squats — morning set
            """)
        // Today starts at local midnight: the plank a minute before is yesterday's.
        #expect(try app.history(days: 1, exercise: nil).dialog == "Logged today:\n#3  Sun 22 Nov 00:01  10 squats")
        #expect(try app.history(days: 6, exercise: "Squat").dialog == "Logged in the last 6 days (Squats):\n#3  Sun 22 Nov 00:01  10 squats")
        let dutch = try StandFitFixture(language: "nl").app(at: "2026-11-22 14:05")
        #expect(try dutch.history(days: 2, exercise: nil).dialog == "Niets gelogd in de afgelopen 2 dagen.")
        #expect(try app.history(days: 0, exercise: nil).status == .invalidInput)
        #expect(try app.history(days: 367, exercise: nil).dialog == "days: expected a number from 1 to 366, got 367.")
        #expect(try app.history(days: nil, exercise: "hurdles").status == .invalidInput)
    }

    @Test("a note is one line of history (line breaks shown as ↵) and at most 200 characters: a longer one is refused naming the cap, and one kept from before is cut with …")
    func notes() throws {
        let fixture = StandFitFixture()
        let app = try fixture.app(at: "2026-11-22 14:05")
        let logged = try app.logExercise("squats", count: 10, note: "felt good\nknees ok \r\n ")
        #expect(logged.dialog == "Logged 10 squats · +10 XP\nAchievement unlocked: First log")
        // The editing answer shows the note, on one line too.
        #expect(try app.editLog(id: 1, count: nil, note: "felt good\nknees ok").dialog == "Changed #1 to 10 squats, logged at 14:05 — felt good ↵ knees ok")
        let long = String(repeating: "x", count: 201)
        let refused = try app.logExercise("squats", count: 10, note: long)
        #expect(refused.status == .invalidInput && refused.parameter == "note")
        #expect(refused.dialog == "note: at most 200 characters, got 201; shorten it.")
        #expect(try app.logExercise("squats", count: 10, note: String(repeating: "y", count: 200)).status == .handled)
        #expect(try app.editLog(id: 1, count: nil, note: long).dialog == "note: at most 200 characters, got 201; shorten it.")
        let dutch = try StandFitFixture(language: "nl").app(at: "2026-11-22 14:05")
        #expect(try dutch.logExercise("squats", count: 10, note: long).dialog == "note: hoogstens 200 tekens, kreeg 201; maak de notitie korter.")
        // A note longer than the cap, kept from before it, is cut in the list.
        _ = try ExerciseStore(directory: fixture.directory).log(LogEntry(exercise: "plank", count: 30, note: String(repeating: "z", count: 5_000),
                                                                         loggedAt: fixture.local("2026-11-22 15:00")))
        let today = try app.history(days: 1, exercise: nil)
        #expect(today.dialog == """
            Logged today:
            #3  Sun 22 Nov 15:00  30 seconds of plank — \(String(repeating: "z", count: 200))…
            #2  Sun 22 Nov 14:05  10 squats — \(String(repeating: "y", count: 200))
            #1  Sun 22 Nov 14:05  10 squats — felt good ↵ knees ok
            """)
    }

    @Test("history pages: limit shows the newest, says how many are older and how to see them; before goes on from an id")
    func historyPages() throws {
        let fixture = StandFitFixture()
        let store = try ExerciseStore(directory: fixture.directory)
        for (index, time) in ["08:00", "09:00", "10:00", "11:00", "12:00"].enumerated() {
            _ = try store.log(LogEntry(exercise: index % 2 == 0 ? "squats" : "plank", count: 10 + index,
                                       loggedAt: fixture.local("2026-11-22 \(time)")))
        }
        let app = try fixture.app(at: "2026-11-22 14:05")
        #expect(try app.history(days: 1, exercise: nil, limit: 2).dialog == """
            Logged today:
            #5  Sun 22 Nov 12:00  14 squats
            #4  Sun 22 Nov 11:00  13 seconds of plank
            … and 3 older; add before=4 to see them.
            """)
        #expect(try app.history(days: 1, exercise: nil, limit: 2, before: 4).dialog == """
            Logged today:
            #3  Sun 22 Nov 10:00  12 squats
            #2  Sun 22 Nov 09:00  11 seconds of plank
            … and 1 older; add before=2 to see them.
            """)
        #expect(try app.history(days: 1, exercise: nil, limit: 2, before: 2).dialog == "Logged today:\n#1  Sun 22 Nov 08:00  10 squats")
        #expect(try app.history(days: 1, exercise: nil, limit: 2, before: 1).dialog == "Nothing logged today before #1.")

        #expect(try app.history(days: 1, exercise: "squats", limit: 1).dialog == """
            Logged today (Squats):
            #5  Sun 22 Nov 12:00  14 squats
            … and 2 older; add before=5 to see them.
            """)
        #expect(try app.history(days: 1, exercise: nil, before: 99).dialog
            == "before: there is no log with id 99; 'standfit-host run history' shows the ids.")
        #expect(try app.history(days: 1, exercise: nil, limit: 0).dialog == "limit: expected a number from 1 to 10000, got 0.")
        // With neither days nor limit, a glance: the newest 100 of the week; days= shows them all.
        for minute in 0..<100 {
            _ = try store.log(LogEntry(exercise: "squats", count: 1, loggedAt: fixture.local("2026-11-21 10:00").addingTimeInterval(Double(minute) * 60)))
        }
        let glance = try app.history(days: nil, exercise: nil).dialog.split(separator: "\n")
        #expect(glance.count == 102)
        #expect(glance.last == "… and 5 older; add before=11 to see them.")
        #expect(try app.history(days: 7, exercise: nil).dialog.split(separator: "\n").count == 106)
        // A log of last year says its year; this year's do not.
        _ = try store.log(LogEntry(exercise: "squats", count: 5, loggedAt: fixture.local("2025-12-30 10:00")))
        #expect(try app.history(days: 366, exercise: nil, limit: 2, before: 7).dialog == """
            Logged in the last 366 days:
            #6  Sat 21 Nov 10:00  1 squat
            #106  Tue 30 Dec 2025 10:00  5 squats
            """)
    }

    @Test("deletelog and editlog change one entry by its id; the streak follows; unknown ids and empty edits are refused")
    func corrections() throws {
        let fixture = StandFitFixture()
        try fixture.log("squats", count: 20, at: "2026-11-21 08:00")
        try fixture.log("plank", count: 60, at: "2026-11-22 08:00")
        let app = try fixture.app(at: "2026-11-22 14:05")
        #expect(try app.streak().days == 2)
        #expect(try app.editLog(id: 1, count: 25, note: "felt good").dialog
            == "Changed #1 to 25 squats, logged on 21 Nov at 08:00 · +5 XP — felt good")
        #expect(try app.editLog(id: 1, count: nil, note: "").dialog == "Changed #1 to 25 squats, logged on 21 Nov at 08:00")
        #expect(try app.editLog(id: 1, count: nil, note: nil).dialog
            == "Nothing to change in log 1: give count=NUMBER or note=TEXT (an empty note removes it).")
        #expect(try app.editLog(id: 1, count: 0, note: nil).status == .invalidInput)
        #expect(try app.deleteLog(id: 1).dialog == "Removed 25 squats logged on 21 Nov at 08:00 · −27 XP")
        #expect(try app.streak().days == 1)
        #expect(try app.deleteLog(id: 1).dialog == """
            id: no log has id 1; give the number after a log's #: the newest are below, and 'standfit-host run history' shows the rest.
              #2  Sun 22 Nov 08:00  60 seconds of plank
            """)
        #expect(try app.editLog(id: 7, count: 3, note: nil).status == .invalidInput)
        #expect(try app.history(days: nil, exercise: nil).dialog == "Logged in the last 7 days:\n#2  Sun 22 Nov 08:00  60 seconds of plank")
    }
}

@Suite("StandFit backfill times", .timeLimit(.minutes(10)))
struct LogTimeTests {
    let fixture = StandFitFixture()

    func parse(_ text: String, now: String = "2026-11-22 14:05") -> Result<Date, LogTime.Refusal> {
        LogTime.parse(text, now: fixture.local(now), calendar: fixture.calendar)
    }

    @Test("every accepted form, in the user's time zone", arguments: [
        ("yesterday 18:00", "2026-11-21 18:00"), ("Gisteren", "2026-11-21 14:05"), ("eergisteren 7:30", "2026-11-20 07:30"),
        ("yesterday at 18:00", "2026-11-21 18:00"), ("gisteren om 18.00", "2026-11-21 18:00"), ("at 9:30", "2026-11-22 09:30"),
        ("om 9.30", "2026-11-22 09:30"),
        ("today 08:00", "2026-11-22 08:00"), ("vandaag 8.15", "2026-11-22 08:15"), ("09:30", "2026-11-22 09:30"),
        ("-2h", "2026-11-22 12:05"), ("2h ago", "2026-11-22 12:05"), ("30 min ago", "2026-11-22 13:35"),
        ("2 uur geleden", "2026-11-22 12:05"), ("-1d", "2026-11-21 14:05"), ("3 dagen geleden", "2026-11-19 14:05"),
        ("2026-11-21 07:15", "2026-11-21 07:15"), ("2026-11-21T07:15", "2026-11-21 07:15"), ("2026-11-20", "2026-11-20 14:05"),
        ("2026-11-21T06:15:00Z", "2026-11-21 07:15"), ("2026-11-21T07:15+01:00", "2026-11-21 07:15"),
        ("2026-11-21T06:15Z", "2026-11-21 07:15"),
        // Days as people say them (22 November 2026 is a Sunday).
        ("at 18:00 yesterday", "2026-11-21 18:00"), ("18:00 yesterday", "2026-11-21 18:00"), ("om 18.00 gisteren", "2026-11-21 18:00"),
        ("last monday", "2026-11-16 14:05"), ("monday", "2026-11-16 14:05"), ("last sunday", "2026-11-15 14:05"),
        ("sunday 8:00", "2026-11-22 08:00"), ("last friday at 7:30", "2026-11-20 07:30"), ("on friday evening", "2026-11-20 19:00"),
        ("afgelopen maandag om 18.00", "2026-11-16 18:00"), ("vorige zaterdag", "2026-11-21 14:05"), ("op vrijdag", "2026-11-20 14:05"),
        ("this morning", "2026-11-22 09:00"), ("yesterday evening", "2026-11-21 19:00"),
        ("yesterday night", "2026-11-21 21:00"), ("vanochtend", "2026-11-22 09:00"), ("vanmorgen", "2026-11-22 09:00"),
        ("gisteravond", "2026-11-21 19:00"), ("gistermiddag", "2026-11-21 15:00"), ("maandagavond", "2026-11-16 19:00"),
        ("this morning at 7:15", "2026-11-22 07:15"), ("last night", "2026-11-21 21:00"),
        // Today is Sunday: a Sunday said alone that is later today was last week's.
        ("sunday evening", "2026-11-15 19:00"), ("sunday 18:00", "2026-11-15 18:00"), ("zondagochtend", "2026-11-22 09:00"),
    ])
    func accepted(_ text: String, _ local: String) {
        #expect(parse(text) == .success(fixture.local(local)), "\(text)")
    }

    @Test("unreadable, future and too old are told apart")
    func refused() {
        for text in ["tomorrow", "", "yesterday 25:00", "2026-13-01", "-2 parsecs", "last week", "this monday evening", "last", "morning",
                     "vanavond morning", "yesterday monday"] {
            #expect(parse(text) == .failure(.unreadable), "\(text)")
        }
        // Later today is not yet done.
        #expect(parse("this evening") == .failure(.future))
        #expect(parse("tonight") == .failure(.future))
        #expect(parse("this afternoon") == .failure(.future))
        #expect(parse("2026-11-22 14:07") == .failure(.future))
        #expect(parse("2026-11-22 14:05") == .success(fixture.local("2026-11-22 14:05")))
        #expect(parse("2025-11-22 14:04") == .failure(.tooOld))
        #expect(parse("2025-11-22 14:06") == .success(fixture.local("2025-11-22 14:06")))
    }

    @Test("across the change to summer time: a time ago counts real hours, a local time is that wall-clock time")
    func summerTime() {
        // 29 March 2026: Amsterdam's clocks go from 02:00 to 03:00.
        #expect(parse("-12h", now: "2026-03-29 12:00") == .success(fixture.local("2026-03-28 23:00")))
        #expect(parse("yesterday 18:00", now: "2026-03-29 12:00") == .success(fixture.local("2026-03-28 18:00")))
        #expect(parse("01:30", now: "2026-03-29 12:00") == .success(fixture.local("2026-03-29 01:30")))
    }

    @Test("a backfilled log counts on the day it happened: yesterday's keeps a streak going")
    func backfilledStreak() throws {
        let app = try fixture.app(at: "2026-11-22 14:05")
        #expect(try app.logExercise("squats", count: 20, note: nil, at: "yesterday 18:00").dialog
            == "Logged 20 squats on 21 Nov at 18:00 · +20 XP\nAchievement unlocked: First log")
        // Logged before yesterday's, it starts the streak: 6 XP, and yesterday's gains its bonus of 2.
        #expect(try app.logExercise("plank", count: 30, note: nil, at: "2 days ago").dialog == "Logged 30 seconds of plank on 20 Nov at 14:05 · +8 XP")
        // Yesterday and the day before, nothing yet today: two days, still to be kept going.
        #expect(try app.streak() == Streak(days: 2, includesToday: false))
        #expect(try app.logExercise("squats", count: 20, note: nil, at: "tomorrow").status == .invalidInput)
        #expect(try app.editLog(id: 1, count: nil, note: nil, at: "2026-11-19 08:00").dialog
            == "Changed #1 to 20 squats, logged on 19 Nov at 08:00")
        // Moved back, yesterday is empty: the streak is broken.
        #expect(try app.streak().days == 0)
    }
}
