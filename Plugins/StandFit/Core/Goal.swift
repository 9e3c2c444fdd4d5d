import Foundation

/// A goal the user set: an amount of one exercise, or of every exercise counted in reps
/// together, per day or per week. A goal is kept with when it was set and when it was changed
/// or removed (`since`, `until`), so a day is measured against the goal as it stood at the day's
/// end, and a day before a goal existed is never counted as missing it.
public struct Goal: Sendable, Equatable, Codable {
    public enum Per: String, Sendable, Codable, CaseIterable {
        case day, week
    }

    /// The exercise's id; nil for a goal in total (every exercise counted in reps).
    public var exercise: String?
    public var per: Per
    public var count: Int
    public var since: Date
    /// When it was changed or removed; nil while it holds.
    public var until: Date?

    public init(exercise: String?, per: Per, count: Int, since: Date, until: Date? = nil) {
        self.exercise = exercise
        self.per = per
        self.count = count
        self.since = since
        self.until = until
    }

    /// The goal's identity across its changes: one exercise (or the total) and a period.
    public struct Key: Sendable, Hashable, Comparable {
        public var exercise: String?
        public var per: Per

        public static func < (left: Key, right: Key) -> Bool {
            (left.per == .day ? 0 : 1, left.exercise ?? "") < (right.per == .day ? 0 : 1, right.exercise ?? "")
        }

        /// Whether a log of `exercise` counts toward the goal: its own exercise, or, for a goal in
        /// total, any exercise counted in reps.
        public func counts(_ exercise: String, isTimed: (String) -> Bool) -> Bool {
            self.exercise.map { $0 == exercise } ?? !isTimed(exercise)
        }
    }

    public var key: Key { Key(exercise: exercise, per: per) }

    /// Whether the goal stood at the end of a day or week that ends at `end`: set before it, and
    /// not changed or removed by then (a period not over yet counts the goal as it stands now).
    public func holds(endingAt end: Date) -> Bool {
        since < end && (until.map { $0 >= end } ?? true)
    }
}

/// How the log stands against the goals over a period (`viewprogress`) or today and this week
/// (`viewstreak`): per goal, the days or weeks it held and those that met it, and the amount of
/// the day or week that holds `now`.
public struct GoalProgress: Sendable, Equatable, Encodable {
    public var exercise: String?
    public var per: Goal.Per
    /// The goal as it stands at the end of the period (or now): its amount and unit.
    public var count: Int
    public var unit: Exercise.Unit
    /// The days (a daily goal) or weeks (a weekly one) of the period the goal held on, those
    /// over and the one under way once met, and how many of them met it.
    public var periods: Int
    public var met: Int
    /// The amount done toward it in the day or week that holds `now`, when the period holds it.
    public var current: Int?

    public init(exercise: String?, per: Goal.Per, count: Int, unit: Exercise.Unit, periods: Int, met: Int, current: Int?) {
        self.exercise = exercise
        self.per = per
        self.count = count
        self.unit = unit
        self.periods = periods
        self.met = met
        self.current = current
    }

    /// The goals' standing over `interval` up to `now`, from `entries` (instant, exercise,
    /// count; any order) that cover every day and week of the interval up to now — a week
    /// reaching past the interval's edges counts whole (see `coverage`).
    public static func standing(_ goals: [Goal], in interval: DateInterval, now: Date,
                                entries: some Sequence<(at: Date, exercise: String, count: Int)>,
                                calendar: Calendar, isTimed: (String) -> Bool) -> [GoalProgress] {
        guard !goals.isEmpty else { return [] }
        let days = spans(.day, in: interval, now: now, calendar: calendar)
        let weeks = spans(.weekOfYear, in: interval, now: now, calendar: calendar)
        // Each goal's amount per span (by index): spans are sorted and do not overlap within a kind.
        let keys = goals.map(\.key).reduce(into: [Goal.Key]()) { if !$0.contains($1) { $0.append($1) } }.sorted()
        var amounts: [Goal.Key: [Int: Int]] = [:]
        for entry in entries {
            let day = index(of: entry.at, in: days), week = index(of: entry.at, in: weeks)
            for key in keys {
                guard let span = key.per == .day ? day : week, key.counts(entry.exercise, isTimed: isTimed) else { continue }
                amounts[key, default: [:]][span, default: 0] += entry.count
            }
        }
        var result: [GoalProgress] = []
        for key in keys {
            let spans = key.per == .day ? days : weeks
            let history = goals.filter { $0.key == key }
            var periods = 0, met = 0, current: Int?, standing: Goal?
            for (index, span) in spans.enumerated() {
                guard let goal = history.last(where: { $0.holds(endingAt: span.end) }) else { continue }
                standing = goal
                let done = amounts[key]?[index] ?? 0
                let isCurrent = span.start <= now && now < span.end
                if isCurrent { current = done }
                // The day or week under way counts once met: until it ends it is not missed.
                guard done >= goal.count || !isCurrent else { continue }
                periods += 1
                if done >= goal.count { met += 1 }
            }
            guard let goal = standing else { continue }
            let unit: Exercise.Unit = goal.exercise.map { isTimed($0) ? .seconds : .reps } ?? .reps
            result.append(GoalProgress(exercise: goal.exercise, per: goal.per, count: goal.count, unit: unit,
                                       periods: periods, met: met, current: current))
        }
        return result
    }

    /// The index of the span that holds `instant`, by bisection; nil when none does.
    static func index(of instant: Date, in spans: [DateInterval]) -> Int? {
        var low = 0, high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].start <= instant { low = middle + 1 } else { high = middle }
        }
        guard low > 0, instant < spans[low - 1].end else { return nil }
        return low - 1
    }

    /// The days or weeks that start in `interval` no later than `now` (weeks whole, as the
    /// calendar has them), in order.
    static func spans(_ component: Calendar.Component, in interval: DateInterval, now: Date, calendar: Calendar) -> [DateInterval] {
        var spans: [DateInterval] = []
        // The week holding the interval's first day may start before it: a month's first week
        // counts when it starts in the month; a week view's one week always does.
        guard var span = calendar.dateInterval(of: component, for: interval.start) else { return [] }
        if span.start < interval.start, component == .weekOfYear, interval.duration > 8 * 86_400,
           let next = calendar.dateInterval(of: component, for: span.end) {
            span = next
        }
        while span.start < interval.end, span.start <= now {
            spans.append(span)
            guard let next = calendar.dateInterval(of: component, for: span.end), next.start > span.start else { break }
            span = next
        }
        return spans
    }

    /// The instants `standing` needs entries for: the interval, widened to whole weeks.
    public static func coverage(of interval: DateInterval, calendar: Calendar) -> DateInterval {
        let start = calendar.dateInterval(of: .weekOfYear, for: interval.start)?.start ?? interval.start
        let end = calendar.dateInterval(of: .weekOfYear, for: interval.end.addingTimeInterval(-1))?.end ?? interval.end
        return DateInterval(start: min(start, interval.start), end: max(end, interval.end))
    }
}
