import Foundation

/// A month or a year of logs: per week (a month) or per month (a year), and per exercise with
/// its reps or seconds against the period before — what `viewprogress period=month|year`
/// draws and returns as data.
public struct PeriodProgress: Sendable, Equatable, Encodable {
    public enum Period: String, Sendable, Encodable, CaseIterable {
        case week, month, year
    }

    /// A part of the period: a week of a month, or a month of a year.
    public struct Part: Sendable, Equatable, Encodable {
        /// Its first and last local dates, `yyyy-MM-dd`.
        public var start: String
        public var end: String
        public var logs: Int
        /// Sum of counts per exercise id.
        public var totals: [String: Int]
    }

    public struct ExerciseTotal: Sendable, Equatable, Encodable {
        public var exercise: String
        public var unit: Exercise.Unit
        public var logs: Int
        public var total: Int
        /// The same exercise's in the period before.
        public var previousLogs: Int
        public var previousTotal: Int
    }

    public var period: Period
    /// First and last local dates of the period, `yyyy-MM-dd`.
    public var start: String
    public var end: String
    public var parts: [Part]
    /// The exercises logged in the period or the one before, most logs first (then catalogue order).
    public var exercises: [ExerciseTotal]
    public var totalLogs: Int
    public var previousTotalLogs: Int
    /// How the period stands against the goals (`GoalProgress`); absent without goals.
    public var goals: [GoalProgress]?

    /// The `period` that contains `now`, `ago` periods back, and the one before it.
    public static func intervals(_ period: Period, ago: Int, now: Date, calendar: Calendar) -> (current: DateInterval, previous: DateInterval)? {
        let component: Calendar.Component = switch period {
        case .week: .weekOfYear
        case .month: .month
        case .year: .year
        }
        guard let shifted = calendar.date(byAdding: component, value: -ago, to: now),
              let current = calendar.dateInterval(of: component, for: shifted),
              let before = calendar.date(byAdding: component, value: -1, to: current.start),
              let previous = calendar.dateInterval(of: component, for: before) else { return nil }
        return (current, previous)
    }

    /// Folds `entries` (instant, exercise, count; any order) into the period's parts and totals.
    public init(period: Period, current: DateInterval, previous: DateInterval,
                entries: some Sequence<(at: Date, exercise: String, count: Int)>, calendar: Calendar, catalogue: ExerciseCatalogue) {
        self.period = period
        let partComponent: Calendar.Component = period == .year ? .month : (period == .month ? .weekOfYear : .day)
        var starts: [Date] = []
        var parts: [Part] = []
        var cursor = current.start
        while cursor < current.end {
            guard let part = calendar.dateInterval(of: partComponent, for: cursor) else { break }
            // A month's first and last weeks are cut at the month's edges.
            let start = max(part.start, current.start), end = min(part.end, current.end)
            guard end > cursor else { break }
            starts.append(start)
            parts.append(Part(start: WeeklyProgress.dateText(start, calendar: calendar),
                              end: WeeklyProgress.dateText(end.addingTimeInterval(-1), calendar: calendar), logs: 0, totals: [:]))
            cursor = end
        }
        var totals: [String: ExerciseTotal] = [:]
        var previousLogs = 0
        for entry in entries {
            let unit = catalogue.exercise(id: entry.exercise)?.unit ?? .reps
            var total = totals[entry.exercise]
                ?? ExerciseTotal(exercise: entry.exercise, unit: unit, logs: 0, total: 0, previousLogs: 0, previousTotal: 0)
            if current.start <= entry.at, entry.at < current.end {
                guard let index = starts.lastIndex(where: { $0 <= entry.at }) else { continue }
                parts[index].logs += 1
                parts[index].totals[entry.exercise, default: 0] += entry.count
                total.logs += 1
                total.total += entry.count
            } else if previous.start <= entry.at, entry.at < previous.end {
                total.previousLogs += 1
                total.previousTotal += entry.count
                previousLogs += 1
            } else {
                continue
            }
            totals[entry.exercise] = total
        }
        let order = Dictionary(uniqueKeysWithValues: catalogue.exercises.enumerated().map { ($1.id, $0) })
        // Most logs first, then most logs before, then catalogue order, then id (an exercise of
        // the user's own has no place in the catalogue: the order must not depend on a hash).
        exercises = totals.values.sorted {
            let left = ($0.logs, $0.previousLogs, -(order[$0.exercise] ?? .max)), right = ($1.logs, $1.previousLogs, -(order[$1.exercise] ?? .max))
            return left != right ? left > right : $0.exercise < $1.exercise
        }
        self.parts = parts
        start = WeeklyProgress.dateText(current.start, calendar: calendar)
        end = WeeklyProgress.dateText(current.end.addingTimeInterval(-1), calendar: calendar)
        totalLogs = parts.reduce(0) { $0 + $1.logs }
        previousTotalLogs = previousLogs
    }
}
