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
    /// Without `withData` (the host shows no data: not `--json`), the entries are not made data.
    public func history(days: Int?, exercise name: String?, limit: Int? = nil, before: Int? = nil,
                        withData: Bool = true) throws -> ActionResult {
        let limit = limit ?? (days == nil ? StandFitApp.defaultHistoryLimit : nil)
        let days = days ?? 7
        guard (1...StandFitApp.maximumHistoryDays).contains(days) else {
            return .invalidInput(text("error.days", ["value": "\(days)", "max": "\(StandFitApp.maximumHistoryDays)"]), parameter: "days")
        }
        var exercise: Exercise?
        if let name {
            guard let found = catalogue.match(name, names: text.names(in: catalogue)) else { return unknownExercise(name) }
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
        var localTime = MinuteLabels(days: { _ in "yyyy-MM-dd" }, text: text)
        // A log of another year says its year: "Tue 30 Dec 2025 10:00" is not read as to come.
        let thisYear = clock.calendar.component(.year, from: now)
        var shownTime = MinuteLabels(days: { $0 == thisYear ? "EEE d MMM" : "EEE d MMM yyyy" }, text: text)
        let data = !withData ? nil : History(days: days, exercise: exercise?.id, entries: entries.map { entry in
            var shown = logged(entry, catalogue.exercise(id: entry.exercise))
            shown.localTime = localTime.label(entry.loggedAt)
            return shown
        }, more: more)
        let period = days == 1 ? text("history.today") : text("history.period", ["days": text.days(days)])
        let scope = exercise.map { text("history.scope.exercise", ["period": period, "exercise": text.title($0.id)]) } ?? period
        guard !entries.isEmpty else {
            if let before { return .handled(text("history.noOlder", ["scope": scope, "id": "\(before)"]), data: data) }
            return .handled(text("history.empty", ["scope": scope]), data: data)
        }
        var lines = [text("history.header", ["scope": scope])]
        lines += entryLines(entries, shownTime: &shownTime)
        if more > 0, let oldest = entries.last?.id {
            lines.append(text("history.more", ["count": "\(more)", "id": "\(oldest)"]))
        }
        return .handled(lines.joined(separator: "\n"), data: data)
    }

    /// `history`'s lines for `entries`: "#12  Sun 22 Nov 14:05  20 squats — a note".
    func entryLines(_ entries: [LogEntry], shownTime: inout MinuteLabels) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(entries.count)
        // A year has a few hundred distinct amounts ("20 squats"): each is worded once.
        var amounts: [AmountKey: String] = [:]
        for entry in entries {
            let key = AmountKey(exercise: entry.exercise, count: entry.count)
            let worded = amounts[key] ?? {
                let worded = amount(entry.count, of: entry.exercise)
                amounts[key] = worded
                return worded
            }()
            var line = "#\(entry.id ?? 0)  \(shownTime.label(entry.loggedAt))  \(worded)"
            if let note = entry.note { line += " — \(StandFitText.oneLine(note))" }
            lines.append(line)
        }
        return lines
    }

    /// How many logs a correction without an id lists to choose from.
    static let pickCount = 5

    /// The answer to a correction without an id, or with one no log has: which log, with the
    /// newest ones listed as `history` shows them. On a terminal the host asks for the id again.
    func pickLog(_ id: Int?) throws -> ActionResult {
        let newest = try store.page(in: DateInterval(start: .distantPast, end: .distantFuture), exercise: nil, before: nil,
                                    limit: StandFitApp.pickCount)?.entries ?? []
        guard !newest.isEmpty else { return .declined(text("pick.empty")) }
        let thisYear = clock.calendar.component(.year, from: clock.now())
        var shownTime = MinuteLabels(days: { $0 == thisYear ? "EEE d MMM" : "EEE d MMM yyyy" }, text: text)
        let head = id.map { text("error.noEntry.pick", ["value": "\($0)"]) } ?? text("error.pick")
        return .invalidInput(([head] + entryLines(newest, shownTime: &shownTime).map { "  " + $0 }).joined(separator: "\n"), parameter: "id")
    }

    /// Removes log `id` (the short id `history` shows); without one, which log?
    public func deleteLog(id: Int?) throws -> ActionResult {
        guard let id else { return try pickLog(nil) }
        guard let (entry, after) = try store.remove(id: Int64(id), rules: rules) else {
            return try pickLog(id)
        }
        let exercise = catalogue.exercise(id: entry.exercise)
        let sentence = text.sentence("undo", entry: entry, unit: exercise?.unit ?? .reps,
                                     ["when": text.when(entry.loggedAt, now: clock.now())])
        let change = progressChange(after)
        return ActionResult.handled(announce(sentence, change?.0), data: logged(entry, exercise, change?.1))
            .withdrawing(try donationID(of: entry))
    }

    /// Changes log `id`'s count, note (an empty note removes it) and time (`at`, as `LogTime`
    /// reads it).
    public func editLog(id: Int?, count: Int?, note: String?, at: String? = nil) throws -> ActionResult {
        guard count != nil || note != nil || at != nil else {
            return .invalidInput(id.map { text("error.editNothing", ["value": "\($0)"]) } ?? text("error.editNothing.any"))
        }
        guard let id else { return try pickLog(nil) }
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
        if let refusal = noteRefusal(note) { return refusal }
        guard let (_, after, progression) = try store.update(id: Int64(id), count: count, note: note, loggedAt: loggedAt,
                                                             rules: rules) else {
            return try pickLog(id)
        }
        let exercise = catalogue.exercise(id: after.exercise)
        let sentence = text.sentence("edited", entry: after, unit: exercise?.unit ?? .reps,
                                     ["id": "\(id)", "when": text.when(after.loggedAt, now: clock.now())])
        let change = progressChange(progression)
        // The run that logged it was donated with the values it had: they are no suggestion now.
        return ActionResult.handled(announce(sentence, change?.0, note: after.note), data: logged(after, exercise, change?.1))
            .withdrawing(try donationID(of: after))
    }
}

private struct AmountKey: Hashable {
    var exercise: String
    var count: Int
}

/// Instants shown to the minute in the user's zone and language, as "<day> HH:mm" with the day's
/// ICU pattern chosen by its year: each local day and each minute of the day is formatted once.
/// Rationale: ICU formats a date in microseconds, and a year of `history` is 20,000 instants on
/// at most 366 days and 1,440 minutes; Foundation has no cache of its own for this.
struct MinuteLabels {
    private let dayPattern: (Int) -> String
    private let text: StandFitText
    private var dayFormatters: [String: DateFormatter] = [:]
    private let timeFormatter: DateFormatter
    private var dayLabels: [Int: String] = [:]
    private var minuteLabels: [Int: String] = [:]

    /// `days` gives the ICU pattern of a day in the given year.
    init(days: @escaping (Int) -> String, text: StandFitText) {
        dayPattern = days
        self.text = text
        timeFormatter = text.formatter("HH:mm")
    }

    mutating func label(_ date: Date) -> String {
        let zone = text.calendar.timeZone
        let local = Int((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let minute = (local - day * 86_400) / 60
        let dayLabel = dayLabels[day] ?? {
            let pattern = dayPattern(text.calendar.component(.year, from: date))
            let formatter = dayFormatters[pattern] ?? text.formatter(pattern)
            dayFormatters[pattern] = formatter
            let label = formatter.string(from: date)
            dayLabels[day] = label
            return label
        }()
        let minuteLabel = minuteLabels[minute] ?? {
            let label = timeFormatter.string(from: date)
            minuteLabels[minute] = label
            return label
        }()
        return "\(dayLabel) \(minuteLabel)"
    }
}
