import Foundation
import GRDB
import StandFitCore
import Testing
import TestSupport

@Suite("StandFit XP and achievements", .timeLimit(.minutes(10)))
struct ProgressionTests {
    func entries(_ fixture: StandFitFixture, _ logs: [(String, Int, String)]) -> [LogEntry] {
        logs.enumerated().map { index, log in
            LogEntry(id: Int64(index + 1), exercise: log.0, count: log.1, loggedAt: fixture.local(log.2))
        }
    }

    @Test("XP per log is effort × count, at least 1; the first log of a day earns 2 per earlier streak day, at most 20")
    func xpRules() {
        #expect(Progression.baseXP(exercise: "squats", count: 20) == 20)
        #expect(Progression.baseXP(exercise: "pushups", count: 10) == 15)
        #expect(Progression.baseXP(exercise: "burpees", count: 10) == 20)
        #expect(Progression.baseXP(exercise: "plank", count: 60) == 12)
        #expect(Progression.baseXP(exercise: "stretching", count: 4) == 1)
        let fixture = StandFitFixture()
        // Twelve days in a row, a second log on day 3.
        var logs = (1...12).map { ("squats", 20, String(format: "2026-11-%02d 10:00", $0)) }
        logs.insert(("squats", 20, "2026-11-03 18:00"), at: 3)
        let progression = Progression(entries: entries(fixture, logs), calendar: fixture.calendar, catalogue: .standard)
        // Day 1: 20; day 2: 22; day 3: 24 and 20 for its second log; day 11 and 12: capped at +20.
        #expect(progression.xp[1] == 20 && progression.xp[2] == 22 && progression.xp[3] == 24 && progression.xp[4] == 20)
        #expect(progression.xp[12] == 40 && progression.xp[13] == 40)
        #expect(progression.totalXP == progression.xp.values.reduce(0, +))
        #expect(progression.bestStreak == 12)
    }

    @Test("levels start at 50·n·(n−1) XP")
    func levels() {
        #expect([0, 99, 100, 299, 300, 600, 1_000].map(Progression.level(forXP:)) == [1, 1, 2, 2, 3, 4, 5])
        #expect(Progression.threshold(level: 6) == 1_500)
    }

    @Test("achievements are earned by the log that meets them, in the order things happened; early bird is 04:00–06:59 local")
    func achievements() {
        let fixture = StandFitFixture()
        let logs = [
            ("squats", 60, "2026-11-16 03:59"),   // Monday; not early: still night
            ("squats", 30, "2026-11-17 07:00"),   // not early
            ("plank", 60, "2026-11-18 12:00"),
            ("squats", 10, "2026-11-19 06:59"),   // early; 100 squats; 4 days in a row
            ("lunges", 12, "2026-11-20 12:00"),
        ]
        let progression = Progression(entries: entries(fixture, logs), calendar: fixture.calendar, catalogue: .standard)
        let byID = Dictionary(uniqueKeysWithValues: progression.achievements.map { ($0.id, $0) })
        #expect(byID["first-log"]?.earnedBy == 1)
        #expect(byID["streak-3"]?.earnedBy == 3 && byID["streak-3"]?.earnedAt == fixture.local("2026-11-18 12:00"))
        #expect(byID["squats-100"]?.earnedBy == 4)
        #expect(byID["early-bird"]?.earnedBy == 4)
        #expect(byID["streak-7"]?.earned == false && byID["streak-7"]?.progress == 5)
        #expect(byID["every-exercise"]?.progress == 3 && byID["every-exercise"]?.target == 10)
        // Monday to Friday: five days in one week (Monday to Sunday, in any language).
        #expect(byID["five-days-week"]?.earnedBy == 5)
        // Logged in the wrong order (a backfill), the same log earns them.
        let shuffled = Progression(entries: entries(fixture, logs).reversed(), calendar: fixture.calendar, catalogue: .standard)
        #expect(shuffled == Progression(entries: entries(fixture, logs), calendar: fixture.calendar, catalogue: .standard))
    }

    @Test("a streak across the change to winter time counts calendar days, and its bonus follows")
    func acrossDST() {
        let fixture = StandFitFixture()
        let logs = [("squats", 20, "2026-10-24 23:30"), ("squats", 20, "2026-10-25 23:30"), ("squats", 20, "2026-10-26 00:30")]
        let progression = Progression(entries: entries(fixture, logs), calendar: fixture.calendar, catalogue: .standard)
        #expect(progression.bestStreak == 3)
        #expect([1, 2, 3].map { progression.xp[Int64($0)] } == [20, 22, 24])
    }

    @Test("undo, delete and edit take XP and achievements back: the stored XP and achievements follow the log in the same transaction")
    func takenBack() throws {
        let fixture = StandFitFixture()
        let store = try ExerciseStore(directory: fixture.directory)
        let rules = ExerciseStore.Rules(calendar: fixture.calendar, catalogue: .standard)
        for day in 20...22 {
            try store.log(LogEntry(exercise: "squats", count: 20, loggedAt: fixture.local("2026-11-\(day) 10:00")), rules: rules)
        }
        #expect(try store.storedAchievements().keys.sorted() == ["first-log", "streak-3"])
        #expect(try store.progression(rules).totalXP == 66)
        _ = try store.remove(id: 2, rules: rules)
        #expect(try store.storedAchievements().keys.sorted() == ["first-log"])
        #expect(try store.progression(rules).totalXP == 40)
        _ = try store.update(id: 3, count: 40, note: nil, loggedAt: fixture.local("2026-11-21 10:00"), rules: rules)
        #expect(try store.storedAchievements().keys.sorted() == ["first-log"])
        // Each entry's XP is in the log (below); the progression the store reads is their sum.
        #expect(try store.progression(rules).totalXP == 62)
        let stored = try DatabaseQueue(path: store.url.path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, xp FROM log ORDER BY id").map { [$0["id"], $0["xp"]] as [Int] }
        }
        #expect(stored == [[1, 20], [3, 42]])
        _ = try store.removeLast(rules: rules)
        _ = try store.removeLast(rules: rules)
        #expect(try store.storedAchievements().isEmpty)
        #expect(try store.progression(rules).totalXP == 0)
    }

    @Test("a change made without the rules drops the day states, and the next change with them folds the log again")
    func changeWithoutRules() throws {
        let fixture = StandFitFixture()
        let store = try ExerciseStore(directory: fixture.directory)
        let rules = ExerciseStore.Rules(calendar: fixture.calendar, catalogue: .standard)
        try store.log(LogEntry(exercise: "squats", count: 20, loggedAt: fixture.local("2026-11-20 10:00")), rules: rules)
        try store.log(LogEntry(exercise: "squats", count: 20, loggedAt: fixture.local("2026-11-21 10:00")))
        #expect(try store.progression(rules).totalXP == 42)
        try store.log(LogEntry(exercise: "squats", count: 20, loggedAt: fixture.local("2026-11-22 10:00")), rules: rules)
        #expect(try store.progression(rules).totalXP == 66)
    }

    @Test("a log made before XP existed (schema v1) migrates: its XP and achievements are there after the next change")
    func migrationFromV1() throws {
        let fixture = StandFitFixture()
        try FileManager.default.createDirectory(at: fixture.directory, withIntermediateDirectories: true)
        let path = fixture.directory.appendingPathComponent("standfit.sqlite").path
        // The schema as version 1 made it, with GRDB's record of that migration.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1');
                CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, exercise TEXT NOT NULL,
                                  count INTEGER NOT NULL CHECK (count > 0), note TEXT, loggedAt DATETIME NOT NULL);
                CREATE INDEX log_on_loggedAt ON log(loggedAt);
                INSERT INTO log (exercise, count, loggedAt) VALUES ('squats', 20, '2026-11-20 09:00:00.000');
                INSERT INTO log (exercise, count, loggedAt) VALUES ('squats', 20, '2026-11-21 09:00:00.000');
                """)
        }
        let app = try fixture.app(at: "2026-11-22 10:00")
        // Reads need no migration: the progression comes from the log.
        #expect(try app.store.progression(app.rules).totalXP == 42)
        let logged = try app.logExercise("squats", count: 20, note: nil)
        #expect(logged.dialog == "Logged 20 squats · +24 XP\nAchievement unlocked: 3-day streak")
        #expect(try app.store.storedAchievements().keys.sorted() == ["first-log", "streak-3"])
        // A log with entries keeps the donation names its runs were given ("log/3"), not a new id.
        #expect(try app.store.storeID() == "")
        #expect(logged.donationID == "log/3")
        // A new log gets an id of its own, in its donations' names.
        let fresh = try StandFitFixture().app(at: "2026-11-22 10:00")
        let first = try fresh.logExercise("squats", count: 20, note: nil)
        let id = try fresh.store.storeID()
        #expect(id.count == 8 && first.donationID == "log/\(id)/1")
        let columns = try DatabaseQueue(path: path).read { db in try db.columns(in: "log").map(\.name) }
        #expect(columns.contains("xp"))
    }

    @Test("a log of thousands of entries from before the stored day states (schema v2) migrates: the first change folds it once, in its transaction, and matches the replay")
    func migrationFromV2() throws {
        let fixture = StandFitFixture()
        try FileManager.default.createDirectory(at: fixture.directory, withIntermediateDirectories: true)
        let path = fixture.directory.appendingPathComponent("standfit.sqlite").path
        // Schema v2 as it was: the log with each entry's XP, the achievements, GRDB's record.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1'), ('v2');
                CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, exercise TEXT NOT NULL,
                                  count INTEGER NOT NULL CHECK (count > 0), note TEXT, loggedAt DATETIME NOT NULL,
                                  xp INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX log_on_loggedAt ON log(loggedAt);
                CREATE TABLE achievement (id TEXT PRIMARY KEY, earnedAt DATETIME NOT NULL, entryId INTEGER);
                """)
            let insert = try db.makeStatement(sql: "INSERT INTO log (exercise, count, loggedAt) VALUES (?, ?, ?)")
            let exercises = ["squats", "pushups", "plank", "lunges"]
            for index in 0..<3_000 {
                // Three a day for a thousand days, up to the day before the fixture's "now".
                let day = fixture.local("2026-11-21 08:00").addingTimeInterval(-Double(999 - index / 3) * 86_400)
                try insert.execute(arguments: [exercises[index % 4], 10 + index % 7, day.addingTimeInterval(Double(index % 3) * 3_600)])
            }
        }
        let app = try fixture.app(at: "2026-11-22 10:00")
        let replayed = Progression(entries: try app.store.entries(in: DateInterval(start: .distantPast, end: .distantFuture)),
                                   calendar: app.rules.calendar, catalogue: .standard)
        // Before any change, reads replay (they never write).
        #expect(try app.store.progression(app.rules).totalXP == replayed.totalXP)
        #expect(replayed.totalXP > 0)
        let logged = try app.logExercise("squats", count: 20, note: nil)
        #expect(logged.dialog == "Logged 20 squats · +40 XP")
        let entries = try app.store.entries(in: DateInterval(start: .distantPast, end: .distantFuture))
        let after = Progression(entries: entries, calendar: app.rules.calendar, catalogue: .standard)
        let stored = try app.store.progression(app.rules)
        #expect(stored.totalXP == after.totalXP && stored.bestStreak == 1_001 && stored.achievements == after.achievements)
        let (days, xp) = try DatabaseQueue(path: path).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM progressDay"), try Int.fetchOne(db, sql: "SELECT sum(xp) FROM log"))
        }
        #expect(days == 1_001)
        #expect(xp == after.totalXP)
    }

    @Test("what a log, an undo and viewstreak say: XP, achievements, level; in Dutch too")
    func answers() throws {
        let fixture = StandFitFixture()
        #expect(try fixture.app(at: "2026-11-20 06:30").logExercise("squats", count: 20, note: nil).dialog
            == "Logged 20 squats · +20 XP\nAchievement unlocked: First log\nAchievement unlocked: Early bird (a log between 4:00 and 7:00)")
        #expect(try fixture.app(at: "2026-11-20 12:00").logExercise("burpees", count: 50, note: nil).dialog
            == "Logged 50 burpees · +100 XP\nLevel 2 reached")
        let dutch = StandFitFixture(language: "nl")
        let app = try StandFitApp(store: ExerciseStore(directory: fixture.directory),
                                  clock: fixture.app(at: "2026-11-20 13:00").clock, text: dutch.app(at: "2026-11-20 13:00").text)
        #expect(try app.viewStreak().dialog == "Reeks: 1 dag\nBeste reeks: 1 dag · niveau 2 · 120 XP")
        #expect(try app.undo().dialog == "50 burpees van 12:00 gewist · −100 XP")
        #expect(try app.achievements().dialog == """
            Niveau 1 · 20 XP · nog 80 XP tot niveau 2
            Behaald
            ✓ Eerste log · 20 nov
            ✓ Vroege vogel (een log tussen 4.00 en 7.00 uur) · 20 nov
            Volgende
            · Reeks van 3 dagen         1/3
            · Reeks van 7 dagen         1/7
            · 100 squats                20/100
            · Elke oefening geprobeerd  1/10
            · Vijf dagen in één week    1/5
            """)
        #expect(try StandFitFixture().app(at: "2026-11-20 13:00").viewStreak().dialog == "No streak yet: log an exercise today to start one.")
    }

    @Test("random logs, backfills, edits, deletes, undos and a change of zone: the stored progression and every entry's XP are always the full replay's",
          arguments: [1, 2, 3, 4] as [UInt64])
    func incrementalMatchesReplay(seed: UInt64) throws {
        let fixture = StandFitFixture()
        let store = try ExerciseStore(directory: fixture.directory)
        defer { store.close() }
        let amsterdam = ExerciseStore.Rules(calendar: fixture.calendar, catalogue: .standard)
        let tokyo = ExerciseStore.Rules(calendar: StandFitFixture(timeZone: "Asia/Tokyo").calendar, catalogue: .standard)
        var random = SplitMix64(seed: seed)
        let base = fixture.local("2026-10-01 05:00")
        let exercises = ExerciseCatalogue.standard.exercises.map(\.id)
        let everything = DateInterval(start: .distantPast, end: .distantFuture)
        let database = try DatabaseQueue(path: store.url.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        var latest = base
        for step in 0..<160 {
            // A zone change in the middle: the stored states are rebuilt for it, then kept.
            let rules = step >= 80 && step < 100 ? tokyo : amsterdam
            let ids = try store.entries(in: everything).compactMap(\.id)
            let before = Progression(entries: try store.entries(in: everything), calendar: rules.calendar, catalogue: .standard)
            let reported: ExerciseStore.ProgressionChange?
            let what = random.below(12)
            let exercise = exercises[random.below(exercises.count)], count = 1 + random.below(60)
            switch what {
            case 0...3:   // today's kind of log: after everything else, minutes to two days later
                latest = latest.addingTimeInterval(Double(60 + random.below(2 * 86_400)))
                reported = try store.log(LogEntry(exercise: exercise, count: count, loggedAt: latest), rules: rules).progression
            case 4...5:   // a backfill anywhere in the last 40 days
                let when = base.addingTimeInterval(Double(random.below(40 * 86_400)))
                reported = try store.log(LogEntry(exercise: exercise, count: count, loggedAt: when), rules: rules).progression
            case 6:
                reported = try store.removeLast(rules: rules)?.progression
            case 7 where !ids.isEmpty:
                reported = try store.remove(id: ids[random.below(ids.count)], rules: rules)?.progression
            case 8 where !ids.isEmpty:
                reported = try store.update(id: ids[random.below(ids.count)], count: count, note: nil, rules: rules)?.progression
            case 9 where !ids.isEmpty:
                let when = base.addingTimeInterval(Double(random.below(40 * 86_400)))
                reported = try store.update(id: ids[random.below(ids.count)], count: nil, note: nil, loggedAt: when, rules: rules)?.progression
            default:
                latest = latest.addingTimeInterval(Double(random.below(3_600)))
                reported = try store.log(LogEntry(exercise: exercise, count: count, loggedAt: latest), rules: rules).progression
            }
            let entries = try store.entries(in: everything)
            let replay = Progression(entries: entries, calendar: rules.calendar, catalogue: .standard)
            let stored = try store.progression(rules)
            let context = "seed \(seed), step \(step), change \(what)"
            #expect(stored.totalXP == replay.totalXP, "\(context)")
            #expect(stored.bestStreak == replay.bestStreak, "\(context)")
            #expect(stored.achievements == replay.achievements, "\(context)")
            let xp = try database.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, xp FROM log").map { (row: Row) -> (Int64, Int) in (row["id"], row["xp"]) })
            }
            #expect(xp == replay.xp, "\(context)")
            if let reported {
                #expect(reported.before.totalXP == before.totalXP && reported.after.totalXP == replay.totalXP, "\(context)")
                #expect(reported.after.achievements == replay.achievements, "\(context)")
            }
        }
    }
}
