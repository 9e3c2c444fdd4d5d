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
    let calendar: Calendar
    let catalogue: ExerciseCatalogue
    /// Monday 1 January 2001, local midnight: weeks are counted from it in whole days, so a
    /// day's week asks the calendar nothing.
    private let monday: Date
    /// The start of the day after the last logged one, and its early-morning hours.
    private var nextDay = Date.distantPast
    private var earlyHours: Range<Date>?

    /// The user's own exercises that are timed: they earn as StandFit's timed ones do least.
    let timed: Set<String>

    init(_ state: ProgressState, calendar: Calendar, catalogue: ExerciseCatalogue, timed: Set<String> = []) {
        self.state = state
        self.calendar = calendar
        self.catalogue = catalogue
        self.timed = timed
        monday = calendar.date(from: DateComponents(year: 2001, month: 1, day: 1)) ?? Date(timeIntervalSinceReferenceDate: 0)
        if let day = state.day { enter(Date(timeIntervalSince1970: day)) }
    }

    /// The local day `instant` falls on.
    func dayStart(_ instant: Date) -> Date { calendar.startOfDay(for: instant) }

    /// Adds `entry`, which happened no earlier than every entry added before: the XP it earns.
    mutating func add(_ entry: LogEntry) -> Int {
        var gained = Progression.baseXP(exercise: entry.exercise, count: entry.count, timed: timed.contains(entry.exercise))
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
        }
        state.totalXP += gained
        state.logs += 1
        if entry.exercise == "squats" { state.squats += entry.count }
        if catalogue.exercise(id: entry.exercise) != nil, !state.tried.contains(entry.exercise) {
            state.tried.append(entry.exercise)
            state.tried.sort()
        }
        if earlyHours?.contains(entry.loggedAt) == true { state.early = 1 }
        for measure in Progression.measures(state, catalogue: catalogue)
        where measure.current >= measure.target && state.earned[measure.id] == nil {
            state.earned[measure.id] = ProgressState.Earned(at: entry.loggedAt, by: entry.id ?? 0)
        }
        return gained
    }

    /// What is asked of the calendar once per day: where the next day starts, and the early hours.
    private mutating func enter(_ start: Date) {
        nextDay = calendar.date(byAdding: .day, value: 1, to: start).map(calendar.startOfDay) ?? start.addingTimeInterval(86_400)
        if let from = calendar.date(bySettingHour: 4, minute: 0, second: 0, of: start),
           let until = calendar.date(bySettingHour: 7, minute: 0, second: 0, of: start), from < until {
            earlyHours = from..<until
        } else {
            earlyHours = nil
        }
    }
}
