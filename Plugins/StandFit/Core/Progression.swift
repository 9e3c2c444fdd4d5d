import Foundation

/// XP, levels and achievements, derived from the log alone: replaying the entries in the order
/// they happened gives every entry's XP and the moment each achievement was earned. So undo,
/// delete and edit take back exactly what the log no longer supports, and nothing can drift.
///
/// The rules (README, "XP and achievements"):
/// - A log earns its exercise's effort × count: XP per 10 reps or per 10 seconds (squats 10,
///   push-ups 15, burpees 20, …), rounded, at least 1.
/// - The first log of a day earns a streak bonus of 2 XP for every day of the streak before it
///   (day 3 of a streak: +4), at most 20.
/// - Level n starts at 50·n·(n−1) XP: level 2 at 100, 3 at 300, 4 at 600, 5 at 1,000.
/// - Achievements: first log; 3- and 7-day streaks; 100 squats in total; every exercise tried;
///   five days logged in one week (Monday to Sunday, whatever the language: an achievement must
///   not come and go with `--locale`); an early-morning log (04:00–06:59 local).
public struct Progression: Sendable, Equatable {
    /// XP per 10 reps (or 10 seconds) of each exercise; others earn 10.
    public static let effort: [String: Int] = [
        "squats": 10, "pushups": 15, "plank": 2, "lunges": 12, "calfraises": 5, "stretching": 1,
        "jumpingjacks": 5, "wallsit": 2, "burpees": 20, "situps": 10,
    ]
    /// The streak bonus per earlier day of the streak, and its cap.
    public static let bonusPerDay = 2
    public static let bonusCap = 20

    /// One achievement: what it takes and how far the log is.
    public struct Achievement: Sendable, Equatable, Codable {
        public var id: String
        public var progress: Int
        public var target: Int
        /// When the log first met it, and the entry that did; nil while not earned.
        public var earnedAt: Date?
        public var earnedBy: Int64?
        public var earned: Bool { earnedAt != nil }
    }

    /// XP of each entry, by id.
    public var xp: [Int64: Int]
    public var totalXP: Int
    public var bestStreak: Int
    public var achievements: [Achievement]

    public var level: Int { Progression.level(forXP: totalXP) }
    /// XP still needed for the next level.
    public var xpToNextLevel: Int { Progression.threshold(level: level + 1) - totalXP }

    public static func threshold(level: Int) -> Int { 50 * level * (level - 1) }

    public static func level(forXP xp: Int) -> Int {
        var level = 1
        while threshold(level: level + 1) <= xp { level += 1 }
        return level
    }

    /// The XP a log of `count` of `exercise` earns before any streak bonus.
    public static func baseXP(exercise: String, count: Int) -> Int {
        max(1, (count * (effort[exercise] ?? 10) + 5) / 10)
    }

    /// Replays `entries` in the order they happened, in `calendar`'s time zone and weeks.
    public init(entries: [LogEntry], calendar: Calendar, catalogue: ExerciseCatalogue) {
        let ordered = entries.sorted { ($0.loggedAt, $0.id ?? 0) < ($1.loggedAt, $1.id ?? 0) }
        // Weeks run Monday to Sunday: counted in whole days from a Monday's local midnight
        // (1 January 2001), so finding a day's week asks the calendar nothing.
        let monday = calendar.date(from: DateComponents(year: 2001, month: 1, day: 1)) ?? Date(timeIntervalSinceReferenceDate: 0)
        var xp: [Int64: Int] = [:], total = 0
        var streak = 0, best = 0
        var squats = 0, tried = Set<String>(), daysOfWeek: [Int: Int] = [:], mostDaysInWeek = 0, early = 0
        var earned: [String: (Date, Int64)] = [:]
        // The local day of the entries being replayed, and what is computed once per day: the
        // entries come in time order, so the calendar (most of a replay's cost) is asked per
        // day, not per entry.
        var day = Date.distantPast, nextDay = Date.distantPast, earlyHours: Range<Date>?
        for entry in ordered {
            var gained = Progression.baseXP(exercise: entry.exercise, count: entry.count)
            if entry.loggedAt >= nextDay {
                let start = calendar.startOfDay(for: entry.loggedAt)
                // Its first log: the streak goes on when the day before was logged (compared as
                // day starts: in zones that change the clock at midnight a day may start at 01:00).
                let previous = calendar.date(byAdding: .day, value: -1, to: start).map(calendar.startOfDay)
                streak = previous == day ? streak + 1 : 1
                best = max(best, streak)
                gained += min(Progression.bonusCap, Progression.bonusPerDay * (streak - 1))
                day = start
                nextDay = calendar.date(byAdding: .day, value: 1, to: start).map(calendar.startOfDay) ?? start.addingTimeInterval(86_400)
                // Local midnights are whole days apart, give or take a change of the clock.
                let days = Int((start.timeIntervalSince(monday) / 86_400).rounded())
                let week = days >= 0 ? days / 7 : (days - 6) / 7
                daysOfWeek[week, default: 0] += 1
                mostDaysInWeek = max(mostDaysInWeek, daysOfWeek[week] ?? 0)
                if let from = calendar.date(bySettingHour: 4, minute: 0, second: 0, of: start),
                   let until = calendar.date(bySettingHour: 7, minute: 0, second: 0, of: start), from < until {
                    earlyHours = from..<until
                } else {
                    earlyHours = nil
                }
            }
            xp[entry.id ?? 0] = gained
            total += gained
            if entry.exercise == "squats" { squats += entry.count }
            if catalogue.exercise(id: entry.exercise) != nil { tried.insert(entry.exercise) }
            if earlyHours?.contains(entry.loggedAt) == true { early = 1 }
            for measure in Progression.measures(logs: 1, best: best, squats: squats, tried: tried.count,
                                                daysInWeek: mostDaysInWeek, early: early, catalogue: catalogue)
            where measure.current >= measure.target && earned[measure.id] == nil {
                earned[measure.id] = (entry.loggedAt, entry.id ?? 0)
            }
        }
        self.xp = xp
        totalXP = total
        bestStreak = best
        achievements = Progression.measures(logs: ordered.count, best: best, squats: squats, tried: tried.count,
                                            daysInWeek: mostDaysInWeek, early: early, catalogue: catalogue).map { measure in
            Achievement(id: measure.id, progress: min(measure.current, measure.target), target: measure.target,
                        earnedAt: earned[measure.id]?.0, earnedBy: earned[measure.id]?.1)
        }
    }

    /// Each achievement, in the order they are listed, with how far the log is and what earns it:
    /// one place for the targets, for earning them during the replay and for the progress after.
    private static func measures(logs: Int, best: Int, squats: Int, tried: Int, daysInWeek: Int, early: Int,
                                 catalogue: ExerciseCatalogue) -> [(id: String, current: Int, target: Int)] {
        [("first-log", logs, 1), ("streak-3", best, 3), ("streak-7", best, 7), ("squats-100", squats, 100),
         ("every-exercise", tried, catalogue.exercises.count), ("five-days-week", daysInWeek, 5),
         ("early-bird", early, 1)]
    }

    /// What changed from `before` to `after` (a log, an undo, a correction): XP gained (negative
    /// when taken back), achievements earned and taken back, and a level reached.
    public struct Change: Sendable, Equatable {
        public var xp: Int
        public var unlocked: [String]
        public var takenBack: [String]
        public var newLevel: Int?
    }

    public static func change(from before: Progression, to after: Progression) -> Change {
        let was = Set(before.achievements.filter(\.earned).map(\.id))
        let now = after.achievements.filter(\.earned).map(\.id)
        return Change(xp: after.totalXP - before.totalXP,
                      unlocked: now.filter { !was.contains($0) },
                      takenBack: before.achievements.filter(\.earned).map(\.id).filter { !now.contains($0) },
                      newLevel: after.level > before.level ? after.level : nil)
    }
}
