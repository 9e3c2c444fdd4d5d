import Foundation

/// XP, levels and achievements, derived from the log alone: replaying the entries in the order
/// they happened gives every entry's XP and the moment each achievement was earned. So undo,
/// delete and edit take back exactly what the log no longer supports, and nothing can drift.
///
/// The rules (docs/STANDFIT.md, "XP and achievements"):
/// - A log earns its exercise's effort × count: XP per 10 reps or per 10 seconds (squats 10,
///   push-ups 15, burpees 20, …), rounded, at least 1.
/// - The first log of a day earns a streak bonus of 2 XP for every day of the streak before it
///   (day 3 of a streak: +4), at most 20.
/// - Level n starts at 50·n·(n−1) XP: level 2 at 100, 3 at 300, 4 at 600, 5 at 1,000.
/// - Achievements: first log; 3- and 7-day streaks; 100 squats in total; every exercise tried;
///   five days logged in one week (Monday to Sunday, whatever the language: an achievement must
///   not come and go with `--locale`); an early-morning log (04:00–06:59 local); with goals, a
///   day's goal met, and every daily goal met on 7 days in a row (each day against the daily
///   goals as they stood at its end).
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

    /// XP of each entry, by id, from a replay (`init(entries:…)`); empty when read from the
    /// store's states, which keep each entry's XP in the log itself.
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

    /// The XP a log of `count` of `exercise` earns before any streak bonus: an exercise of the
    /// user's own earns a point per rep, or per ten seconds when `timed`.
    public static func baseXP(exercise: String, count: Int, timed: Bool = false) -> Int {
        max(1, (count * (effort[exercise] ?? (timed ? 1 : 10)) + 5) / 10)
    }

    /// Replays `entries` in the order they happened, in `calendar`'s time zone and weeks.
    public init(entries: [LogEntry], calendar: Calendar, catalogue: ExerciseCatalogue, timed: Set<String> = []) {
        self.init(entries: entries, rules: ExerciseStore.Rules(calendar: calendar, catalogue: catalogue, timed: timed))
    }

    /// Replays `entries` under `rules` (its calendar, exercises and goals).
    public init(entries: [LogEntry], rules: ExerciseStore.Rules) {
        let ordered = entries.sorted { ($0.loggedAt, $0.id ?? 0) < ($1.loggedAt, $1.id ?? 0) }
        var folder = ProgressFolder(ProgressState(), rules: rules)
        var xp: [Int64: Int] = [:]
        for entry in ordered {
            xp[entry.id ?? 0] = folder.add(entry)
        }
        self.init(state: folder.state, catalogue: rules.catalogue, goals: !rules.goals.isEmpty)
        self.xp = xp
    }

    /// The XP, best streak and achievements of the log `state` was folded from (without each
    /// entry's XP); the goals' achievements listed when there are `goals` (or one was earned).
    public init(state: ProgressState, catalogue: ExerciseCatalogue, goals: Bool = false) {
        xp = [:]
        totalXP = state.totalXP
        bestStreak = state.best
        achievements = Progression.measures(state, catalogue: catalogue, goals: goals).map { measure in
            Achievement(id: measure.id, progress: min(measure.current, measure.target), target: measure.target,
                        earnedAt: state.earned[measure.id]?.at, earnedBy: state.earned[measure.id]?.by)
        }
    }

    /// Each achievement, in the order they are listed, with how far the log is and what earns it:
    /// one place for the targets, for earning them during the replay and for the progress after.
    /// The goals' two ("A day's goal met", "Daily goals met 7 days in a row") are listed only
    /// when there are goals, or one of them was earned.
    static func measures(_ state: ProgressState, catalogue: ExerciseCatalogue, goals: Bool) -> [(id: String, current: Int, target: Int)] {
        var measures = [("first-log", state.logs, 1), ("streak-3", state.best, 3), ("streak-7", state.best, 7), ("squats-100", state.squats, 100),
                        ("every-exercise", state.tried.count, catalogue.exercises.count), ("five-days-week", state.mostDaysInWeek, 5),
                        ("early-bird", state.early, 1)]
        if goals || state.goalsMet > 0 {
            measures += [("goal-met", state.goalsMet, 1), ("goal-days-7", state.bestGoalStreak, 7)]
        }
        return measures
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
