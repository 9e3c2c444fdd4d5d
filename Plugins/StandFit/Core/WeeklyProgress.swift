import Foundation

/// This week's logs per day and per exercise: what `viewprogress` draws and returns as data.
public struct WeeklyProgress: Sendable, Equatable, Encodable {
    public struct Day: Sendable, Equatable, Encodable {
        /// The local date, `yyyy-MM-dd`.
        public var date: String
        public var logs: Int
        /// Sum of counts per exercise id logged that day.
        public var totals: [String: Int]
    }

    public struct ExerciseTotal: Sendable, Equatable, Encodable {
        public var exercise: String
        public var unit: Exercise.Unit
        public var logs: Int
        public var total: Int
    }

    /// First and last local dates of the week, `yyyy-MM-dd`.
    public var weekStart: String
    public var weekEnd: String
    public var days: [Day]
    /// Exercises logged this week, most logs first (then catalogue order).
    public var exercises: [ExerciseTotal]
    public var totalLogs: Int
    /// How the period stands against the goals (`GoalProgress`); absent without goals.
    public var goals: [GoalProgress]?

    /// The week containing `now`, starting on `calendar.firstWeekday`, from `entries` (any
    /// order; entries outside the week are ignored).
    public init(week: DateInterval, entries: [LogEntry], calendar: Calendar, catalogue: ExerciseCatalogue) {
        var days: [Day] = []
        var starts: [Date] = []
        var day = week.start
        while day < week.end, days.count < 7 {
            starts.append(day)
            days.append(Day(date: WeeklyProgress.dateText(day, calendar: calendar), logs: 0, totals: [:]))
            guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
            day = next
        }
        var perExercise: [String: ExerciseTotal] = [:]
        for entry in entries where week.contains(entry.loggedAt) && entry.loggedAt < week.end {
            let start = calendar.startOfDay(for: entry.loggedAt)
            guard let index = starts.lastIndex(where: { $0 <= start }) else { continue }
            days[index].logs += 1
            days[index].totals[entry.exercise, default: 0] += entry.count
            let unit = catalogue.exercise(id: entry.exercise)?.unit ?? .reps
            var total = perExercise[entry.exercise] ?? ExerciseTotal(exercise: entry.exercise, unit: unit, logs: 0, total: 0)
            total.logs += 1
            total.total += entry.count
            perExercise[entry.exercise] = total
        }
        let order = Dictionary(uniqueKeysWithValues: catalogue.exercises.enumerated().map { ($1.id, $0) })
        exercises = perExercise.values.sorted {
            let left = ($0.logs, -(order[$0.exercise] ?? .max)), right = ($1.logs, -(order[$1.exercise] ?? .max))
            return left != right ? left > right : $0.exercise < $1.exercise
        }
        self.days = days
        weekStart = days.first?.date ?? ""
        weekEnd = days.last?.date ?? ""
        totalLogs = days.reduce(0) { $0 + $1.logs }
    }

    /// The week containing `now` in `calendar`.
    public static func week(containing now: Date, calendar: Calendar) -> DateInterval? {
        calendar.dateInterval(of: .weekOfYear, for: now)
    }

    static func dateText(_ date: Date, calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
