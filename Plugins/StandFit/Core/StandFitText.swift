import Foundation
import PluginAPI

/// StandFit's words in the user's language: exercise names with their plural forms, amounts
/// with units, dates and times. Everything shown goes through the `.strings` tables.
public struct StandFitText: Sendable {
    public let strings: LocalizedStrings
    public let calendar: Calendar

    public init(strings: LocalizedStrings, calendar: Calendar) {
        self.strings = strings
        self.calendar = calendar
    }

    public func callAsFunction(_ key: String, _ values: [String: String] = [:]) -> String {
        strings(key, values)
    }

    /// "squat" / "squats"; mass nouns ("plank") have one form.
    public func name(_ exercise: String, count: Int) -> String {
        if let own = ownNames[exercise] { return own }
        return strings("exercise.\(exercise).\(count == 1 ? "one" : "other")")
    }

    /// "Squats", as a title.
    public func title(_ exercise: String) -> String {
        if let own = ownNames[exercise] { return own.prefix(1).uppercased() + own.dropFirst() }
        return strings("exercise.\(exercise).title")
    }

    /// The user's names for exercises in this language, by id: their own exercises', and a
    /// catalogue exercise's they renamed. One name in every count, as they wrote it.
    public var ownNames: [String: String] = [:]
    /// The user's names for exercises in the other languages, by id: they name it too.
    public var otherNames: [String: [String]] = [:]

    /// Every localized name of each exercise, for matching what a user types.
    public func names(in catalogue: ExerciseCatalogue) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: (catalogue.exercises + catalogue.hidden).map { exercise in
            (exercise.id, (ownNames[exercise.id].map { [$0] } ?? ["one", "other", "title"].map { strings("exercise.\(exercise.id).\($0)") })
                + (otherNames[exercise.id] ?? []))
        })
    }

    /// "20 reps", "1 second".
    public func amount(_ count: Int, unit: Exercise.Unit) -> String {
        strings("amount.\(unit.rawValue).\(count == 1 ? "one" : "other")", ["count": "\(count)"])
    }

    /// "Logged 20 squats" / "Logged 60 seconds of plank", or the same with another verb key
    /// (`undo.reps`, `undo.seconds`), plus any extra placeholders.
    public func sentence(_ key: String, entry: LogEntry, unit: Exercise.Unit, _ extra: [String: String] = [:]) -> String {
        var values = extra
        values["count"] = "\(entry.count)"
        values["name"] = name(entry.exercise, count: entry.count)
        values["amount"] = amount(entry.count, unit: unit)
        return strings("\(key).\(unit.rawValue)", values)
    }

    /// A note on one line of a list: each line break shown as " ↵ ", and a note longer than
    /// `StandFitApp.maximumNoteLength` (kept from before the limit) cut there with "…".
    public static func oneLine(_ note: String) -> String {
        let cut = note.count > StandFitApp.maximumNoteLength ? String(note.prefix(StandFitApp.maximumNoteLength)) : note
        let lines = cut.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let joined = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ↵ ")
        return cut.count < note.count ? joined + "…" : joined
    }

    /// "1 day" / "5 days".
    public func days(_ count: Int) -> String {
        strings("days.\(count == 1 ? "one" : "other")", ["count": "\(count)"])
    }

    /// "at 14:05" today, "on 21 Nov at 14:05" another day, "on 25 Nov 2025 at 10:00" another year's.
    public func when(_ date: Date, now: Date) -> String {
        let time = format(date, "HH:mm")
        if calendar.isDate(date, inSameDayAs: now) {
            return strings("when.today", ["time": time])
        }
        return strings("when.other", ["date": day(date, now: now), "time": time])
    }

    /// "21 Nov" in `now`'s year, "25 Nov 2025" in another: a date of last year never reads as
    /// this year's.
    public func day(_ date: Date, now: Date) -> String {
        format(date, calendar.component(.year, from: date) == calendar.component(.year, from: now) ? "d MMM" : "d MMM yyyy")
    }

    /// `date` in the user's time zone and language with a fixed ICU pattern.
    public func format(_ date: Date, _ pattern: String) -> String {
        formatter(pattern).string(from: date)
    }

    /// A formatter for `pattern` in the user's calendar, zone and language: made once for a list
    /// (making one costs far more than formatting with it: `history days=366` of a year's logs
    /// spent most of its time here).
    public func formatter(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.locale = Locale(identifier: strings.language)
        formatter.dateFormat = pattern
        return formatter
    }
}
