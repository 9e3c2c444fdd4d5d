import Foundation
import PluginAPI

/// Goals (`setgoal`), and how the log stands against them in View Streak, View Progress, the
/// suggestions and the quick actions.
extension StandFitApp {
    /// What `setgoal` returns as data: the goal as it is now (nil when removed), the one before,
    /// and how today or this week stands against it.
    public struct GoalReport: Encodable, Sendable {
        public var goal: GoalProgress?
        public var previousCount: Int?
    }

    /// Sets the goal of `count` of `exercise` (nil: every exercise counted in reps) a day or a
    /// week (`per`); a count of 0 removes it.
    public func setGoal(exercise: String?, count: Int, per: String?) throws -> ActionResult {
        guard let per = Goal.Per(rawValue: per?.lowercased() ?? "day") else {
            let known = Goal.Per.allCases.map(\.rawValue).joined(separator: ", ")
            return .invalidInput(text("error.goal.per", ["value": per ?? "", "known": known]), parameter: "per")
        }
        guard (0...StandFitApp.maximumCount).contains(count) else {
            return .invalidInput(text("error.goal.count", ["value": "\(count)", "max": "\(StandFitApp.maximumCount)"]), parameter: "count")
        }
        var id: String?
        if let exercise {
            guard let found = catalogue.match(exercise, names: text.names(in: catalogue)) else { return unknownExercise(exercise) }
            id = found.id
        }
        let key = Goal.Key(exercise: id, per: per)
        let now = clock.now()
        let holding = try store.goals().last { $0.key == key && $0.until == nil }
        if count == 0, holding == nil {
            return .invalidInput(text("error.goal.none", ["what": goalSubject(id), "per": text("goal.per.\(per.rawValue)")]),
                                 parameter: "count")
        }
        if let holding, holding.count == count {
            let standing = try goalStanding(now: now).first { $0.exercise == id && $0.per == per }
            return .handled(([text("goal.unchanged", ["goal": goalPhrase(key, count: count)])] + [standing.map(goalLine)].compactMap { $0 })
                                .joined(separator: "\n"),
                            data: GoalReport(goal: standing, previousCount: count))
        }
        let (_, progression) = try store.setGoal(key, count: count, now: now, rules: rules(goals:))
        // Achievements follow goals: one met (or one no longer met) already is said at once.
        var change = Progression.change(from: progression.before, to: progression.after)
        change.xp = 0
        change.newLevel = nil
        guard count > 0 else {
            return .handled(announce(text("goal.removed", ["goal": goalPhrase(key, count: holding?.count ?? 0)]), change),
                            data: GoalReport(goal: nil, previousCount: holding?.count))
        }
        let standing = try goalStanding(now: now).first { $0.exercise == id && $0.per == per }
        let sentence = holding.map { text("goal.changed", ["goal": goalPhrase(key, count: count), "before": "\($0.count)"]) }
            ?? text("goal.set", ["goal": goalPhrase(key, count: count)])
        return .handled(([announce(sentence, change)] + [standing.map(goalLine)].compactMap { $0 }).joined(separator: "\n"),
                        data: GoalReport(goal: standing, previousCount: holding?.count))
    }

    /// How today (daily goals) and this week (weekly goals) stand against the goals that hold.
    func goalStanding(now: Date) throws -> [GoalProgress] {
        try goalStanding(store.goals(), now: now)
    }

    /// The same, of `goals` (every goal ever set, as the store has them).
    func goalStanding(_ goals: [Goal], now: Date) throws -> [GoalProgress] {
        guard !goals.isEmpty, let week = clock.calendar.dateInterval(of: .weekOfYear, for: now) else { return [] }
        return try goalProgress(goals, in: week, now: now, entries: store.amounts(in: week)).filter { $0.current != nil }
    }

    /// The goals' standing over `interval` up to `now`, from `entries` that cover its whole weeks.
    func goalProgress(_ goals: [Goal], in interval: DateInterval, now: Date,
                      entries: some Sequence<(at: Date, exercise: String, count: Int)>) -> [GoalProgress] {
        GoalProgress.standing(goals, in: interval, now: now, entries: entries, calendar: clock.calendar,
                              isTimed: rules(goals: goals).isTimed)
    }

    /// "20 squats a day", "60 seconds of plank a day", "500 reps a week in total".
    func goalPhrase(_ key: Goal.Key, count: Int) -> String {
        let per = text("goal.per.\(key.per.rawValue)")
        guard let exercise = key.exercise else {
            return text("goal.phrase.total", ["amount": text.amount(count, unit: .reps), "per": per])
        }
        return text("goal.phrase", ["amount": amount(count, of: exercise), "per": per])
    }

    /// "20 squats", "60 seconds of plank", as `history` says them.
    func amount(_ count: Int, of exercise: String) -> String {
        let unit = catalogue.exercise(id: exercise)?.unit ?? .reps
        return text("history.amount.\(unit.rawValue)", ["count": "\(count)", "amount": text.amount(count, unit: unit),
                                                         "name": text.name(exercise, count: count)])
    }

    /// "squats", or "every exercise in reps" for a goal in total.
    private func goalSubject(_ exercise: String?) -> String {
        exercise.map { text.name($0, count: 2) } ?? text("goal.subject.total")
    }

    /// "· 20 squats a day: 12 today, 8 to go", "· 500 reps a week in total: 520 this week ✓".
    func goalLine(_ progress: GoalProgress) -> String {
        let phrase = goalPhrase(Goal.Key(exercise: progress.exercise, per: progress.per), count: progress.count)
        let done = progress.current ?? 0
        let when = progress.per == .day ? "today" : "thisWeek"
        let key = done >= progress.count ? "goal.\(when).met" : "goal.\(when)"
        return "· " + text(key, ["goal": phrase, "done": "\(done)", "left": "\(progress.count - done)"])
    }

    /// `lines` of a chart with the goals' lines before its legend (after its last line when it
    /// has none).
    func withGoals(_ lines: [String], _ goals: [GoalProgress], period: PeriodProgress.Period) -> [String] {
        let added = goalLines(goals, period: period)
        guard !added.isEmpty else { return lines }
        guard lines.count >= 2, lines[lines.count - 2].isEmpty else { return lines + added }
        return Array(lines.dropLast(2)) + added + lines.suffix(2)
    }

    /// The lines a progress chart ends with: the goals over its period ("met on 3 of 5 days"),
    /// and this week's weekly goals as they stand; none without goals.
    func goalLines(_ goals: [GoalProgress], period: PeriodProgress.Period) -> [String] {
        guard !goals.isEmpty else { return [] }
        var lines = ["", text("goals.header")]
        for goal in goals {
            let phrase = goalPhrase(Goal.Key(exercise: goal.exercise, per: goal.per), count: goal.count)
            if goal.per == .week, period == .week, goal.current == nil {
                // A past week's weekly goal.
                lines.append("· " + text(goal.met > 0 ? "goal.week.met" : "goal.week.missed", ["goal": phrase]))
            } else if goal.per == .week && period == .week || goal.periods == 0 {
                // This week's weekly goal, or a goal whose only day or week is the one under way.
                lines.append(goalLine(goal))
            } else {
                let periods = goal.per == .day ? text.days(goal.periods) : text("weeks.\(goal.periods == 1 ? "one" : "other")", ["count": "\(goal.periods)"])
                lines.append("· " + text("goal.met", ["goal": phrase, "met": "\(goal.met)", "periods": periods]))
            }
        }
        return lines
    }

    /// `goalreminder`: with `exercise`, logs what is left of its goal today (or this week; its
    /// count when it has no goal left); without one, asks which exercise while a goal is not met
    /// ("Still to do: 8 squats today. Which exercise?"), and declines once every goal is met, so a
    /// reminder scheduled with it stays quiet then.
    public func goalReminder(exercise: String?) throws -> ActionResult {
        let now = clock.now()
        let standing = try goalStanding(now: now)
        // No goals: nothing to remind of (a reminder stays quiet); said how to set one.
        guard !standing.isEmpty else { return .declined(text("error.goal.noGoals")) }
        if let exercise {
            guard let found = catalogue.match(exercise, names: text.names(in: catalogue)) else { return unknownExercise(exercise) }
            let left = unmetGoals(in: standing, now: now).first { $0.exercise == found.id }?.left
            return try logExercise(found.id, count: left.map { min($0, StandFitApp.maximumCount) } ?? found.defaultCount, note: nil)
        }
        let unmet = standing.filter { ($0.current ?? 0) < $0.count }
        guard !unmet.isEmpty else { return .declined(text("goal.reminder.met")) }
        let left = unmet.map { goal in
            let count = goal.count - (goal.current ?? 0)
            let worded = goal.exercise.map { amount(count, of: $0) } ?? text("goal.left.total", ["amount": text.amount(count, unit: .reps)])
            return text("goal.left.\(goal.per.rawValue)", ["amount": worded])
        }
        return .invalidInput(text("goal.reminder.ask", ["left": left.joined(separator: ", ")]), parameter: "exercise")
    }

    /// The exercises whose goal is not met yet in `standing` (`goalStanding`: today's daily
    /// goals, then this week's weekly ones, each in the order of their exercises' ids) with what is left and until when it is
    /// today's or this week's.
    func unmetGoals(in standing: [GoalProgress], now: Date) -> [(exercise: String, left: Int, until: Date)] {
        var unmet: [(exercise: String, left: Int, until: Date)] = []
        for progress in standing {
            guard let exercise = progress.exercise, catalogue.exercises.contains(where: { $0.id == exercise }),
                  let done = progress.current, done < progress.count, !unmet.contains(where: { $0.exercise == exercise }),
                  let span = clock.calendar.dateInterval(of: progress.per == .day ? .day : .weekOfYear, for: now) else { continue }
            unmet.append((exercise, progress.count - done, span.end))
        }
        return unmet
    }
}
