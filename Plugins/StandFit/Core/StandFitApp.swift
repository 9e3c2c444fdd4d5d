import Foundation
import PluginAPI

/// StandFit's actions as plain functions over the store, the clock and the words: the plugin
/// shell only binds parameters and calls these. Tests call them directly.
public struct StandFitApp: Sendable {
    public var store: ExerciseStore
    public var clock: StandFitClock
    public var text: StandFitText
    public var catalogue: ExerciseCatalogue

    public init(store: ExerciseStore, clock: StandFitClock, text: StandFitText,
                catalogue: ExerciseCatalogue = .standard) {
        self.store = store
        self.clock = clock
        self.text = text
        self.catalogue = catalogue
    }

    /// What `logexercise` and `loglast` return as data.
    public struct Logged: Encodable, Sendable {
        public var id: Int64
        public var exercise: String
        public var count: Int
        public var unit: Exercise.Unit
        public var note: String?
        public var loggedAt: Date
        /// The time in the user's time zone, as `history` shows it ("2026-11-22 14:05").
        public var localTime: String?
        /// What the log, undo or correction did to XP and achievements.
        public var progress: ProgressChange?
    }

    /// The largest count one log may hold (an hour of seconds, or 1,000 reps, is plenty; more
    /// is a typo).
    public static let maximumCount = 3_600
    /// The longest note a log takes, in characters: a line, not a diary.
    public static let maximumNoteLength = 200

    /// The refusal of a note longer than `maximumNoteLength`, or nil.
    func noteRefusal(_ note: String?) -> ActionResult? {
        guard let note, note.count > StandFitApp.maximumNoteLength else { return nil }
        return .invalidInput(text("error.note", ["length": "\(note.count)", "max": "\(StandFitApp.maximumNoteLength)"]), parameter: "note")
    }

    /// Logs `count` of exercise `name`, now or at `at` (`LogTime`: "yesterday 18:00", "2h ago").
    /// Logs a set of `name`: `count` repetitions or seconds, or a time given as `seconds` or
    /// `minutes` (said "30 seconds of plank", "a minute of plank"), which only a timed exercise
    /// takes. A time is the amount logged, and `count` is then not read: the exercise brings its
    /// latest count to every run that names it, so a count beside a time cannot be told from
    /// one the user gave. Seconds and minutes together are refused.
    public func logExercise(_ name: String, count: Int?, seconds: Int? = nil, minutes: Int? = nil, note: String?,
                            at: String? = nil) throws -> ActionResult {
        guard let exercise = catalogue.match(name, names: text.names(in: catalogue)) else { return unknownExercise(name) }
        let time = minutes != nil ? "minutes" : seconds != nil ? "seconds" : nil
        if let time {
            guard seconds == nil || minutes == nil else {
                return .invalidInput(text("error.amounts"), parameter: time)
            }
            guard exercise.unit == .seconds else {
                return .invalidInput(text("error.untimed", ["exercise": text.name(exercise.id, count: 2), "parameter": time,
                                                            "example": "\(exercise.defaultCount) \(text.name(exercise.id, count: exercise.defaultCount))"]),
                                     parameter: time)
            }
        }
        let count = seconds ?? minutes.map { $0 * 60 } ?? count ?? exercise.defaultCount
        guard (1...StandFitApp.maximumCount).contains(count) else {
            return .invalidInput(text("error.count", ["value": "\(count)", "max": "\(StandFitApp.maximumCount)"]), parameter: "count")
        }
        let note = note.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        if let refusal = noteRefusal(note) { return refusal }
        let now = clock.now()
        var loggedAt = now
        if let at {
            switch logTime(at) {
            case .instant(let instant): loggedAt = instant
            case .refused(let refusal): return refusal
            }
        }
        let (entry, after) = try store.log(LogEntry(exercise: exercise.id, count: count, note: note, loggedAt: loggedAt), rules: rules)
        let sentence = at == nil ? text.sentence("logged", entry: entry, unit: exercise.unit)
            : text.sentence("logged.at", entry: entry, unit: exercise.unit, ["when": text.when(loggedAt, now: now)])
        let change = progressChange(after)
        return ActionResult.handled(announce(sentence, change?.0), data: logged(entry, exercise, change?.1))
            .donated(as: try donationID(of: entry))
    }

    /// What a log's donation is called, so that the run that removes the log withdraws it (an
    /// undone log is no suggestion material): "log/<store>/<entry>", with the database's own id,
    /// since a log started afresh numbers its entries from 1 again; "log/<entry>" for a log that
    /// had entries before the ids.
    func donationID(of entry: LogEntry) throws -> String {
        let store = try store.storeID()
        return store.isEmpty ? "log/\(entry.id ?? 0)" : "log/\(store)/\(entry.id ?? 0)"
    }

    /// What an `at=` comes to: its instant, or the invalid-input answer that says what is accepted.
    enum AtAnswer {
        case instant(Date)
        case refused(ActionResult)
    }

    func logTime(_ at: String) -> AtAnswer {
        switch LogTime.parse(at, now: clock.now(), calendar: clock.calendar) {
        case .success(let instant): .instant(instant)
        case .failure(.unreadable): .refused(.invalidInput(text("error.at.unreadable", ["value": at]), parameter: "at"))
        case .failure(.future): .refused(.invalidInput(text("error.at.future", ["value": at]), parameter: "at"))
        case .failure(.tooOld): .refused(.invalidInput(text("error.at.tooOld", ["value": at]), parameter: "at"))
        }
    }

    public func logLast() throws -> ActionResult {
        guard let last = try store.last() else { return .declined(text("loglast.none")) }
        return try logExercise(last.exercise, count: last.count, note: nil)
    }

    public func streak() throws -> Streak {
        try store.streak(now: clock.now(), calendar: clock.calendar)
    }

    /// What `viewstreak` returns as data.
    public struct StreakReport: Encodable, Sendable {
        public var days: Int
        public var includesToday: Bool
        public var best: Int
        public var level: Int
        public var xp: Int
        /// Today's daily goals and this week's weekly ones, as they stand; absent without goals.
        public var goals: [GoalProgress]?
    }

    /// The streak, then the best streak, level and XP once anything is logged.
    public func viewStreak() throws -> ActionResult {
        let streak = try streak()
        let progression = try store.progression(rules)
        let key = streak.days == 0 ? "streak.none" : (streak.includesToday ? "streak.days" : "streak.pending")
        var lines = [text(key, ["days": text.days(streak.days)])] + [bestStreakLine(progression)].compactMap { $0 }
        let goals = try goalStanding(now: clock.now())
        if !goals.isEmpty { lines += [text("goals.header")] + goals.map(goalLine) }
        return .handled(lines.joined(separator: "\n"),
                        data: StreakReport(days: streak.days, includesToday: streak.includesToday, best: progression.bestStreak,
                                           level: progression.level, xp: progression.totalXP, goals: goals.isEmpty ? nil : goals))
    }

    public func progress() throws -> WeeklyProgress {
        let now = clock.now()
        guard let week = WeeklyProgress.week(containing: now, calendar: clock.calendar) else {
            throw StandFitError("The week of \(now) cannot be computed in time zone \(clock.calendar.timeZone.identifier).")
        }
        return WeeklyProgress(week: week, entries: try store.entries(in: week), calendar: clock.calendar,
                              catalogue: catalogue)
    }

    /// This week's chart; with `period`, the week, month or year that is `ago` of them back
    /// (0: this one), a month or a year per week or month with each exercise against the
    /// period before.
    public func viewProgress(period: String? = nil, ago: Int? = nil) throws -> ActionResult {
        let ago = ago ?? 0
        guard (0...100).contains(ago) else {
            return .invalidInput(text("error.ago", ["value": "\(ago)"]), parameter: "ago")
        }
        guard let period = PeriodProgress.Period(rawValue: period?.lowercased() ?? "week") else {
            let known = PeriodProgress.Period.allCases.map(\.rawValue).joined(separator: ", ")
            return .invalidInput(text("error.period", ["value": period ?? "", "known": known]), parameter: "period")
        }
        let now = clock.now()
        guard let (current, previous) = PeriodProgress.intervals(period, ago: ago, now: now, calendar: clock.calendar) else {
            throw StandFitError("The \(period.rawValue) of \(now) cannot be computed in time zone \(clock.calendar.timeZone.identifier).")
        }
        let goals = try store.goals()
        if period == .week {
            var progress = WeeklyProgress(week: current, entries: try store.entries(in: current), calendar: clock.calendar,
                                          catalogue: catalogue)
            let standing = goals.isEmpty ? [] : goalProgress(goals, in: current, now: now, entries: try store.amounts(in: current))
            progress.goals = standing.isEmpty ? nil : standing
            var chart = ProgressChart(progress: progress, text: text)
            chart.isPast = ago > 0
            return .handled(withGoals(chart.lines, standing, period: period).joined(separator: "\n"), data: progress)
        }
        // The goals' weeks count whole: the entries reach to the weeks that cross the period's edges.
        let both = GoalProgress.coverage(of: DateInterval(start: previous.start, end: current.end), calendar: clock.calendar)
        let entries = try store.amounts(in: both)
        var progress = PeriodProgress(period: period, current: current, previous: previous, entries: entries,
                                      calendar: clock.calendar, catalogue: catalogue)
        let standing = goals.isEmpty ? [] : goalProgress(goals, in: current, now: now, entries: entries)
        progress.goals = standing.isEmpty ? nil : standing
        var chart = PeriodChart(progress: progress, text: text)
        chart.isPast = ago > 0
        return .handled(withGoals(chart.lines, standing, period: period).joined(separator: "\n"), data: progress)
    }

    /// Takes back the last change the user made (a log, a deletion, an edit, an import), by when
    /// it was made, not when it happened; a log from before the journal loses the entry made last.
    public func undo() throws -> ActionResult {
        if try store.hasJournal() {
            guard let step = try store.undoLast(rules: rules) else { return .declined(text("undo.nothing.more")) }
            return try report(step, undone: true)
        }
        guard let (entry, after) = try store.removeLast(rules: rules) else { return .declined(text("undo.nothing")) }
        let exercise = catalogue.exercise(id: entry.exercise)
        let sentence = text.sentence("undo", entry: entry, unit: exercise?.unit ?? .reps,
                                     ["when": text.when(entry.loggedAt, now: clock.now())])
        let change = progressChange(after)
        return ActionResult.handled(announce(sentence, change?.0), data: logged(entry, exercise, change?.1))
            .withdrawing(try donationID(of: entry))
    }

    /// The exercises as entity values: localized titles, every name people may use, and the
    /// count each brings (the last one logged for it, else its usual count).
    /// Hidden exercises are among them (a name still names one: old logs, showing it again);
    /// `suggestedExercises` leaves them out.
    public func exerciseValues() throws -> [EntityValue] {
        let all = catalogue.exercises + catalogue.hidden
        let recent = Dictionary(try store.recentCounts(of: all.map(\.id)).map { ($0.exercise, $0.count) }, uniquingKeysWith: { first, _ in first })
        let names = text.names(in: catalogue)
        return all.map { exercise in
            var synonyms: [String] = []
            for name in exercise.synonyms + (names[exercise.id] ?? []) where !synonyms.contains(name) {
                synonyms.append(name)
            }
            return EntityValue(id: exercise.id, title: text.title(exercise.id), synonyms: synonyms,
                               defaults: ["count": recent[exercise.id] ?? exercise.defaultCount])
        }
    }

    /// The exercises to offer first: those with a goal not met yet (today's, then this week's:
    /// a reminder's question follows the goals), then those logged most recently, then the rest
    /// in catalogue order.
    public func suggestedExercises() throws -> [EntityValue] {
        let shown = Set(catalogue.exercises.map(\.id))
        let values = try exerciseValues().filter { shown.contains($0.id) }
        let now = clock.now()
        let goals = unmetGoals(in: try goalStanding(now: now), now: now).compactMap { unmet in values.first { $0.id == unmet.exercise } }
        let recent = try store.recentCounts(of: catalogue.exercises.map(\.id)).compactMap { logged in values.first { $0.id == logged.exercise } }
        var ordered: [EntityValue] = []
        for value in goals + recent + values where !ordered.contains(where: { $0.id == value.id }) { ordered.append(value) }
        return ordered
    }

    /// The dynamic items, as seed UX29's `updateQuickActions` has them after the static "Log
    /// Exercise": "View Streak" with its days only while there is a streak (true until local
    /// midnight, when the streak grows, waits or ends), "Log ⟨last exercise⟩" with its count when
    /// anything is logged (or, while a goal is not met, its exercise with what is left), "View
    /// Progress" when anything is logged. With "Log Exercise" that is
    /// four at most.
    public func dynamicItems() throws -> [ShortcutItem] {
        var items: [ShortcutItem] = []
        let streak = try streak()
        if streak.days > 0 {
            let now = clock.now()
            let midnight = clock.calendar.date(byAdding: .day, value: 1, to: clock.calendar.startOfDay(for: now))
                ?? now.addingTimeInterval(86_400)
            items.append(ShortcutItem(type: StandFitTypes.viewStreak, title: text("action.viewstreak.title"),
                                      subtitle: text.days(streak.days), icon: "flame.fill", validUntil: midnight))
        }
        guard let last = try store.last() else { return items }
        // A goal not met yet takes the last log's place: log what is left of it ("Log Squats ·
        // 8 squats to go"), until it is met or its day or week ends. With goals, the last log's
        // item holds until midnight too: a new day may bring a goal not met.
        let now = clock.now()
        let goals = try store.goals()
        if let goal = unmetGoals(in: try goalStanding(goals, now: now), now: now).first, let exercise = catalogue.exercise(id: goal.exercise) {
            items.append(ShortcutItem(
                type: StandFitTypes.logExercise,
                title: text("item.loglast.title", ["exercise": text.title(exercise.id)]),
                subtitle: text("item.goal.left", ["amount": amount(goal.left, of: exercise.id)]),
                icon: exercise.icon,
                userInfo: ["exercise": exercise.id, "count": min(goal.left, StandFitApp.maximumCount)],
                validUntil: goal.until))
        } else if let exercise = catalogue.exercise(id: last.exercise) {
            items.append(ShortcutItem(
                type: StandFitTypes.logExercise,
                title: text("item.loglast.title", ["exercise": text.title(exercise.id)]),
                subtitle: text.amount(last.count, unit: exercise.unit),
                icon: exercise.icon,
                userInfo: ["exercise": exercise.id, "count": last.count],
                validUntil: goals.isEmpty ? nil : clock.calendar.dateInterval(of: .day, for: now)?.end))
        }
        items.append(ShortcutItem(type: StandFitTypes.viewProgress, title: text("action.viewprogress.title"),
                                  icon: "chart.bar.fill"))
        return items
    }

    func logged(_ entry: LogEntry, _ exercise: Exercise?, _ progress: ProgressChange? = nil) -> Logged {
        Logged(id: entry.id ?? 0, exercise: entry.exercise, count: entry.count, unit: exercise?.unit ?? .reps,
               note: entry.note, loggedAt: entry.loggedAt, progress: progress)
    }
}

/// The shortcut types StandFit registers.
public enum StandFitTypes {
    public static let logExercise = "com.standfit.logexercise"
    public static let logLast = "com.standfit.loglast"
    public static let viewStreak = "com.standfit.viewstreak"
    public static let viewProgress = "com.standfit.viewprogress"
    public static let undo = "com.standfit.undo"
    public static let redo = "com.standfit.redo"
    public static let history = "com.standfit.history"
    public static let deleteLog = "com.standfit.deletelog"
    public static let editLog = "com.standfit.editlog"
    public static let achievements = "com.standfit.achievements"
    public static let export = "com.standfit.export"
    public static let `import` = "com.standfit.import"
    public static let addExercise = "com.standfit.addexercise"
    public static let renameExercise = "com.standfit.renameexercise"
    public static let hideExercise = "com.standfit.hideexercise"
    public static let setGoal = "com.standfit.setgoal"
    public static let goalReminder = "com.standfit.goalreminder"
}

/// A fault in StandFit's own state, reported as the action's failure.
public struct StandFitError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
