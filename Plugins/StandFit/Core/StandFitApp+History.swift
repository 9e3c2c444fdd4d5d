import Foundation
import PluginAPI

/// What was logged, and correcting it: `history`, `deletelog`, `editlog`.
extension StandFitApp {
    /// What `history` returns as data: the days it covers, the exercise it was limited to, and
    /// each entry with its local time.
    public struct History: Encodable, Sendable {
        public var days: Int
        public var exercise: String?
        /// Each entry as logging returns it, with its local time.
        public var entries: [Logged]
        /// How many more entries of the range are older than these (with `limit`).
        public var more: Int
    }

    /// The most days `history` looks back.
    public static let maximumHistoryDays = 366

    /// The most entries one page of `history` shows (`limit`).
    public static let maximumHistoryLimit = 10_000
    /// The page `history` shows with neither `days` nor `limit`: a glance, not a year.
    public static let defaultHistoryLimit = 100

    /// The entries of the last `days` days (today included; 7 when not given), of `exercise`
    /// only when given, newest first: each with its short id (`#12`), local time, amount and
    /// note. With `limit`, a page of at most that many, and a line that says how many more
    /// are older and how to see them; with `before`, the entries older than that id.
    public func history(days: Int?, exercise name: String?, limit: Int? = nil, before: Int? = nil) throws -> ActionResult {
        let limit = limit ?? (days == nil ? StandFitApp.defaultHistoryLimit : nil)
        let days = days ?? 7
        guard (1...StandFitApp.maximumHistoryDays).contains(days) else {
            return .invalidInput(text("error.days", ["value": "\(days)", "max": "\(StandFitApp.maximumHistoryDays)"]), parameter: "days")
        }
        var exercise: Exercise?
        if let name {
            guard let found = catalogue.match(name, names: text.names(in: catalogue)) else {
                let known = catalogue.exercises.map(\.id).joined(separator: ", ")
                return .invalidInput(text("error.unknownExercise", ["value": name, "known": known]), parameter: "exercise")
            }
            exercise = found
        }
        let now = clock.now()
        let today = clock.calendar.startOfDay(for: now)
        guard let start = clock.calendar.date(byAdding: .day, value: -(days - 1), to: today),
              let end = clock.calendar.date(byAdding: .day, value: 1, to: today) else {
            throw StandFitError("The last \(days) days before \(now) cannot be computed in time zone \(clock.calendar.timeZone.identifier).")
        }
        if let limit, !(1...StandFitApp.maximumHistoryLimit).contains(limit) {
            return .invalidInput(text("error.limit", ["value": "\(limit)", "max": "\(StandFitApp.maximumHistoryLimit)"]), parameter: "limit")
        }
        guard let (entries, more) = try store.page(in: DateInterval(start: start, end: end), exercise: exercise?.id,
                                                  before: before.map(Int64.init), limit: limit) else {
            return .invalidInput(text("error.noBefore", ["value": "\(before ?? 0)"]), parameter: "before")
        }
        let localTime = text.formatter("yyyy-MM-dd HH:mm"), shortTime = text.formatter("EEE d MMM HH:mm")
        // A log of another year says its year: "Tue 30 Dec 2025 10:00" is not read as to come.
        let otherYear = text.formatter("EEE d MMM yyyy HH:mm"), thisYear = clock.calendar.component(.year, from: now)
        let data = History(days: days, exercise: exercise?.id, entries: entries.map { entry in
            var shown = logged(entry, catalogue.exercise(id: entry.exercise))
            shown.localTime = localTime.string(from: entry.loggedAt)
            return shown
        }, more: more)
        let period = days == 1 ? text("history.today") : text("history.period", ["days": text.days(days)])
        let scope = exercise.map { text("history.scope.exercise", ["period": period, "exercise": text.title($0.id)]) } ?? period
        guard !entries.isEmpty else {
            if let before { return .handled(text("history.noOlder", ["scope": scope, "id": "\(before)"]), data: data) }
            return .handled(text("history.empty", ["scope": scope]), data: data)
        }
        var lines = [text("history.header", ["scope": scope])]
        for entry in entries {
            let unit = catalogue.exercise(id: entry.exercise)?.unit ?? .reps
            let when = clock.calendar.component(.year, from: entry.loggedAt) == thisYear ? shortTime : otherYear
            var line = "#\(entry.id ?? 0)  \(when.string(from: entry.loggedAt))  "
                + text.sentence("history.amount", entry: entry, unit: unit)
            if let note = entry.note { line += " — \(note)" }
            lines.append(line)
        }
        if more > 0, let oldest = entries.last?.id {
            lines.append(text("history.more", ["count": "\(more)", "id": "\(oldest)"]))
        }
        return .handled(lines.joined(separator: "\n"), data: data)
    }

    /// Removes log `id` (the short id `history` shows).
    public func deleteLog(id: Int) throws -> ActionResult {
        guard let (entry, after) = try store.remove(id: Int64(id), rules: rules) else {
            return .invalidInput(text("error.noEntry", ["value": "\(id)"]), parameter: "id")
        }
        let exercise = catalogue.exercise(id: entry.exercise)
        let sentence = text.sentence("undo", entry: entry, unit: exercise?.unit ?? .reps,
                                     ["when": text.when(entry.loggedAt, now: clock.now())])
        let change = progressChange(after)
        return ActionResult.handled(announce(sentence, change?.0), data: logged(entry, exercise, change?.1))
            .withdrawing(StandFitApp.donationID(of: entry))
    }

    /// Changes log `id`'s count, note (an empty note removes it) and time (`at`, as `LogTime`
    /// reads it).
    public func editLog(id: Int, count: Int?, note: String?, at: String? = nil) throws -> ActionResult {
        guard count != nil || note != nil || at != nil else {
            return .invalidInput(text("error.editNothing", ["value": "\(id)"]))
        }
        if let count, !(1...StandFitApp.maximumCount).contains(count) {
            return .invalidInput(text("error.count", ["value": "\(count)", "max": "\(StandFitApp.maximumCount)"]), parameter: "count")
        }
        var loggedAt: Date?
        if let at {
            switch logTime(at) {
            case .instant(let instant): loggedAt = instant
            case .refused(let refusal): return refusal
            }
        }
        let note = note.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let (_, after, progression) = try store.update(id: Int64(id), count: count, note: note, loggedAt: loggedAt,
                                                             rules: rules) else {
            return .invalidInput(text("error.noEntry", ["value": "\(id)"]), parameter: "id")
        }
        let exercise = catalogue.exercise(id: after.exercise)
        let sentence = text.sentence("edited", entry: after, unit: exercise?.unit ?? .reps,
                                     ["id": "\(id)", "when": text.when(after.loggedAt, now: clock.now())])
        let change = progressChange(progression)
        // The run that logged it was donated with the values it had: they are no suggestion now.
        return ActionResult.handled(announce(sentence, change?.0, note: after.note), data: logged(after, exercise, change?.1))
            .withdrawing(StandFitApp.donationID(of: after))
    }
}
