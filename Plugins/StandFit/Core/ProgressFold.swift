import Foundation

/// The replay of the log as a fold: the state after some entries, and the step that adds the
/// next one (in time order). `Progression` replays a whole log with it; the store keeps the
/// state after each logged day (`ExerciseStore+Progress`), so a change replays only from the
/// day it touches. One rule set, two uses: they cannot disagree.
public struct ProgressState: Sendable, Equatable, Codable {
    /// The current streak and the start of the last logged day (Unix seconds), nil before any.
    public var streak = 0
    public var day: Double?
    public var best = 0
    public var squats = 0
    /// The exercises of the catalogue tried, sorted.
    public var tried: [String] = []
    /// The week of the last logged day (whole weeks from Monday 1 January 2001) and how many
    /// days of it were logged; the most days logged in any week.
    public var week = Int.min
    public var daysInWeek = 0
    public var mostDaysInWeek = 0
    public var early = 0
    public var totalXP = 0
    public var logs = 0
    /// The last logged day's amount per exercise (for goals), the daily goals met so far, the
    /// last day that met every daily goal (its start, Unix seconds), and the run of such days.
    public var dayAmounts: [String: Int] = [:]
    public var goalsMet = 0
    public var goalDay: Double?
    public var goalStreak = 0
    public var bestGoalStreak = 0
    /// When each achievement was earned and by which entry.
    public var earned: [String: Earned] = [:]

    public struct Earned: Sendable, Equatable, Codable {
        public var at: Date
        public var by: Int64
    }

    public init() {}
}

/// Adds entries to a `ProgressState`, asking the calendar once per local day.
struct ProgressFolder {
    var state: ProgressState
    /// The calendar, exercises, the user's own timed exercises and every goal ever set.
    let rules: ExerciseStore.Rules
    let calendar: Calendar
    /// Monday 1 January 2001, local midnight: weeks are counted from it in whole days, so a
    /// day's week asks the calendar nothing.
    private let monday: Date
    /// The start of the day after the last logged one, and its early-morning hours.
    private var nextDay = Date.distantPast
    private var earlyHours: Range<Date>?

    /// The daily goals that stood at the end of the last logged day, and the start of the day
    /// before it.
    private var dayGoals: [Goal] = []
    private var dayBefore: Double?

    init(_ state: ProgressState, rules: ExerciseStore.Rules) {
        self.state = state
        self.rules = rules
        self.calendar = rules.calendar
        monday = calendar.date(from: DateComponents(year: 2001, month: 1, day: 1)) ?? Date(timeIntervalSinceReferenceDate: 0)
        if let day = state.day { enter(Date(timeIntervalSince1970: day)) }
    }

    /// The local day `instant` falls on.
    func dayStart(_ instant: Date) -> Date { calendar.startOfDay(for: instant) }

    /// Adds `entry`, which happened no earlier than every entry added before: the XP it earns.
    mutating func add(_ entry: LogEntry) -> Int {
        var gained = Progression.baseXP(exercise: entry.exercise, count: entry.count, timed: rules.timed.contains(entry.exercise))
        if entry.loggedAt >= nextDay {
            let start = calendar.startOfDay(for: entry.loggedAt)
            // Its first log: the streak goes on when the day before was logged (compared as day
            // starts: in zones that change the clock at midnight a day may start at 01:00).
            let previous = calendar.date(byAdding: .day, value: -1, to: start).map(calendar.startOfDay)
            state.streak = previous.map { $0.timeIntervalSince1970 } == state.day ? state.streak + 1 : 1
            state.best = max(state.best, state.streak)
            gained += min(Progression.bonusCap, Progression.bonusPerDay * (state.streak - 1))
            state.day = start.timeIntervalSince1970
            enter(start)
            // Local midnights are whole days apart, give or take a change of the clock.
            let days = Int((start.timeIntervalSince(monday) / 86_400).rounded())
            let week = days >= 0 ? days / 7 : (days - 6) / 7
            state.daysInWeek = week == state.week ? state.daysInWeek + 1 : 1
            state.week = week
            state.mostDaysInWeek = max(state.mostDaysInWeek, state.daysInWeek)
            state.dayAmounts = [:]
        }
        if !dayGoals.isEmpty { meetGoals(entry) }
        state.totalXP += gained
        state.logs += 1
        if entry.exercise == "squats" { state.squats += entry.count }
        if rules.catalogue.exercise(id: entry.exercise) != nil, !state.tried.contains(entry.exercise) {
            state.tried.append(entry.exercise)
            state.tried.sort()
        }
        if earlyHours?.contains(entry.loggedAt) == true { state.early = 1 }
        for measure in Progression.measures(state, catalogue: rules.catalogue, goals: !rules.goals.isEmpty)
        where measure.current >= measure.target && state.earned[measure.id] == nil {
            state.earned[measure.id] = ProgressState.Earned(at: entry.loggedAt, by: entry.id ?? 0)
        }
        return gained
    }

    /// Adds `entry` to its day's amounts: a daily goal it fills is met, and when every daily goal
    /// of the day is met, the day extends the run of such days (or starts one).
    private mutating func meetGoals(_ entry: LogEntry) {
        func amount(_ goal: Goal) -> Int {
            goal.exercise.map { state.dayAmounts[$0] ?? 0 }
                ?? state.dayAmounts.reduce(0) { $0 + (rules.isTimed($1.key) ? 0 : $1.value) }
        }
        let before = dayGoals.map(amount)
        state.dayAmounts[entry.exercise, default: 0] += entry.count
        let after = dayGoals.map(amount)
        for (goal, (was, now)) in zip(dayGoals, zip(before, after)) where was < goal.count && now >= goal.count {
            state.goalsMet += 1
        }
        if state.goalDay != state.day, zip(dayGoals, after).allSatisfy({ $1 >= $0.count }) {
            state.goalStreak = state.goalDay != nil && state.goalDay == dayBefore ? state.goalStreak + 1 : 1
            state.goalDay = state.day
            state.bestGoalStreak = max(state.bestGoalStreak, state.goalStreak)
        }
    }

    /// What is asked of the calendar once per day: where the next day starts, the early hours,
    /// and the daily goals that stood at the day's end.
    private mutating func enter(_ start: Date) {
        nextDay = calendar.date(byAdding: .day, value: 1, to: start).map(calendar.startOfDay) ?? start.addingTimeInterval(86_400)
        if !rules.goals.isEmpty {
            let end = nextDay
            dayGoals = rules.goals.filter { $0.per == .day && $0.holds(endingAt: end) }
            dayBefore = calendar.date(byAdding: .day, value: -1, to: start).map { calendar.startOfDay(for: $0).timeIntervalSince1970 }
        }
        if let from = calendar.date(bySettingHour: 4, minute: 0, second: 0, of: start),
           let until = calendar.date(bySettingHour: 7, minute: 0, second: 0, of: start), from < until {
            earlyHours = from..<until
        } else {
            earlyHours = nil
        }
    }
}
