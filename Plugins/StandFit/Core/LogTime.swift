import Foundation

/// When something was done, as people write it for `logexercise at=` and `editlog at=`: an
/// ISO 8601 instant (`2026-11-21T18:00:00Z`, `2026-11-21T19:00+01:00`), a local date and time
/// (`2026-11-21 18:00`, `2026-11-21T18:00`), a local date (`2026-11-21`, at the time of day it
/// is now), `yesterday`/`gisteren`/`today`/`vandaag` with an optional `[at|om] HH:mm`, a bare `HH:mm`
/// (today), or a time ago (`-2h`, `-30m`, `-1d`, `2h ago`, `30 min ago`, `2 uur geleden`).
/// Local times are in the calendar's time zone (the user's `TZ`).
public enum LogTime {
    /// Why a time was refused.
    public enum Refusal: Error, Equatable, Sendable {
        /// Not a form listed above.
        case unreadable
        /// Later than now.
        case future
        /// More than a year before now.
        case tooOld
    }

    /// The instant `text` names, relative to `now` in `calendar`; at most a minute in the
    /// future (clocks differ) and at most a year back.
    public static func parse(_ text: String, now: Date, calendar: Calendar) -> Result<Date, Refusal> {
        guard let instant = instant(text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased(), now: now, calendar: calendar) else {
            return .failure(.unreadable)
        }
        if instant > now.addingTimeInterval(60) { return .failure(.future) }
        if let yearAgo = calendar.date(byAdding: .year, value: -1, to: now), instant < yearAgo { return .failure(.tooOld) }
        return .success(instant)
    }

    /// The instant a file's `date` names, with no reference to now: an ISO 8601 instant with
    /// its zone (seconds and their fractions optional: `2026-11-21T18:00:00+01:00`,
    /// `2026-11-21T17:00Z`), a local date and time (`2026-11-21 18:00`, `2026-11-21T18:00:30`), or
    /// a local date (`2026-11-21`, taken as noon, so that importing the file again finds it).
    public static func absolute(_ text: String, calendar: Calendar) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces).uppercased()
        // What `export` writes, read without a regular expression: a year of rows is imported at once.
        if text.count == 25 || text.hasSuffix("Z"), let instant = try? Date(text, strategy: .iso8601) { return instant }
        if text.range(of: #"T.*(Z|[+-]\d{2}:?\d{2})$"#, options: .regularExpression) != nil {
            return isoWithoutSeconds(text) ?? (try? Date(text, strategy: .iso8601))
                ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" }).map(String.init)
        guard let first = parts.first, parts.count <= 2, let day = date(first, calendar: calendar) else { return nil }
        guard parts.count == 2 else { return calendar.date(bySettingHour: 12, minute: 0, second: 0, of: day) }
        let fields = parts[1].split(separator: ":").map { Int($0) }
        guard (2...3).contains(fields.count), let hour = fields[0], let minute = fields[1], (0...23).contains(hour),
              (0...59).contains(minute) else { return nil }
        let second = fields.count == 3 ? fields[2] : 0
        guard let second, (0...59).contains(second) else { return nil }
        return calendar.date(bySettingHour: hour, minute: minute, second: second, of: day)
    }

    private static func instant(_ text: String, now: Date, calendar: Calendar) -> Date? {
        if text.isEmpty { return nil }
        if let relative = ago(text) { return now.addingTimeInterval(-relative) }
        // An instant with its zone: Foundation's ISO 8601 reader (which wants the seconds).
        let upper = text.uppercased()
        if upper.range(of: #"T.*(Z|[+-]\d{2}:?\d{2})$"#, options: .regularExpression) != nil {
            return isoWithoutSeconds(upper) ?? (try? Date(upper, strategy: .iso8601))
        }
        var words = text.split(separator: " ").map(String.init)
        if let spoken = spokenDay(words, now: now, calendar: calendar) { return spoken }
        // "yesterday at 18:00", "gisteren om 18:00".
        if words.count == 3, ["at", "om"].contains(words[1]) { words.remove(at: 1) }
        // "at 18:00", "om 18:00".
        if words.count == 2, ["at", "om"].contains(words[0]) { words.removeFirst() }
        let today = calendar.startOfDay(for: now)
        let dayWords: [String: Int] = ["today": 0, "vandaag": 0, "yesterday": -1, "gisteren": -1, "eergisteren": -2]
        if let first = words.first, let offset = dayWords[first], words.count <= 2 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { return nil }
            if words.count == 2 { return time(words[1], on: day, calendar: calendar) }
            return sameTimeOfDay(as: now, on: day, calendar: calendar)
        }
        if words.count == 1, let at = time(words[0], on: today, calendar: calendar) { return at }
        // A local date, with a time after a space or a T.
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "t" }).map(String.init)
        guard let first = parts.first, parts.count <= 2, let day = date(first, calendar: calendar) else { return nil }
        if parts.count == 2 { return time(parts[1], on: day, calendar: calendar) }
        return sameTimeOfDay(as: now, on: day, calendar: calendar)
    }

    /// Days as people say them, with or without a time, in either order: "at 18:00 yesterday",
    /// "last monday", "monday at 7:30", "this morning", "yesterday evening", "afgelopen maandag
    /// om 18.00", "gisteravond", "vanochtend". A part of the day is its usual hour (morning 9:00,
    /// afternoon 15:00, evening 19:00, night 21:00); no time keeps the time of day it is now. A
    /// weekday is the last one on or before today ("last monday": before today). Nil for other
    /// text, which the forms above read.
    private static func spokenDay(_ words: [String], now: Date, calendar: Calendar) -> Date? {
        var words = words.filter { !["at", "om", "on", "op"].contains($0) }
        var clock: (hour: Int, minute: Int)?
        if let index = words.firstIndex(where: { clockTime($0) != nil }) {
            clock = clockTime(words[index])
            words.remove(at: index)
        }
        guard !words.isEmpty else { return nil }
        let today = calendar.startOfDay(for: now)
        var offset: Int?
        var partHour: Int?
        // A weekday said alone is the last one done: later today means a week ago.
        var weekdayAlone = false
        if let part = words.last.flatMap({ dayParts[$0] }), words.count >= 2 {
            partHour = part
            words.removeLast()
        }
        switch words.count {
        case 1:
            if let compound = compoundDays[words[0]] {
                guard partHour == nil else { return nil }
                (offset, partHour) = (compound.offset, compound.hour)
            } else if let day = dayWords[words[0]] {
                offset = day
            } else if let weekday = weekdays[words[0]] {
                offset = -((calendar.component(.weekday, from: today) - weekday + 7) % 7)
                weekdayAlone = true
            } else if let (weekday, part) = weekdayPart(words[0]), partHour == nil {
                offset = -((calendar.component(.weekday, from: today) - weekday + 7) % 7)
                partHour = part
                weekdayAlone = true
            } else if words[0] == "tonight", partHour == nil {
                (offset, partHour) = (0, 21)
            } else if ["this", "deze"].contains(words[0]), partHour != nil {
                offset = 0
            } else if words[0] == "last", partHour == 21 {
                offset = -1  // "last night"
            }
        case 2:
            if ["last", "afgelopen", "vorige"].contains(words[0]), let weekday = weekdays[words[1]] {
                let back = (calendar.component(.weekday, from: today) - weekday + 7) % 7
                offset = -(back == 0 ? 7 : back)
            }
        default:
            break
        }
        guard let offset else { return nil }
        func instant(_ offset: Int) -> Date? {
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { return nil }
            if let clock { return calendar.date(bySettingHour: clock.hour, minute: clock.minute, second: 0, of: day) }
            if let partHour { return calendar.date(bySettingHour: partHour, minute: 0, second: 0, of: day) }
            return sameTimeOfDay(as: now, on: day, calendar: calendar)
        }
        guard let said = instant(offset) else { return nil }
        return weekdayAlone && offset == 0 && said > now.addingTimeInterval(60) ? instant(-7) : said
    }

    private static let dayWords: [String: Int] = ["today": 0, "vandaag": 0, "yesterday": -1, "gisteren": -1, "eergisteren": -2]
    private static let weekdays: [String: Int] = [
        "sunday": 1, "monday": 2, "tuesday": 3, "wednesday": 4, "thursday": 5, "friday": 6, "saturday": 7,
        "zondag": 1, "maandag": 2, "dinsdag": 3, "woensdag": 4, "donderdag": 5, "vrijdag": 6, "zaterdag": 7,
    ]
    private static let dayParts: [String: Int] = [
        "morning": 9, "afternoon": 15, "evening": 19, "night": 21,
        "ochtend": 9, "middag": 15, "avond": 19, "nacht": 21,
    ]
    /// Dutch says a part of a day in one word.
    private static let compoundDays: [String: (offset: Int, hour: Int)] = [
        "vanochtend": (0, 9), "vanmorgen": (0, 9), "vanmiddag": (0, 15), "vanavond": (0, 19),
        "gisterochtend": (-1, 9), "gistermorgen": (-1, 9), "gistermiddag": (-1, 15), "gisteravond": (-1, 19),
    ]

    /// "maandagavond": a weekday and a part of it in one word.
    private static func weekdayPart(_ word: String) -> (weekday: Int, hour: Int)? {
        for (part, hour) in dayParts where word.hasSuffix(part) {
            if let weekday = weekdays[String(word.dropLast(part.count))] { return (weekday, hour) }
        }
        return nil
    }

    /// `18:00`, `18.00`, `9:05` as an hour and a minute.
    private static func clockTime(_ text: String) -> (hour: Int, minute: Int)? {
        let fields = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == ":" || $0 == "." }).map { Int($0) }
        guard fields.count == 2, let hour = fields[0], let minute = fields[1], (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return (hour, minute)
    }

    /// Seconds ago for `-2h`, `-90m`, `-1d`, `2h ago`, `2 h ago`, `30 min ago`, `2 hours ago`,
    /// `2 uur geleden`, `30 minuten geleden`, `1 dag geleden`.
    private static func ago(_ text: String) -> TimeInterval? {
        var body = text
        if body.hasPrefix("-") {
            body.removeFirst()
        } else if body.hasSuffix(" ago") {
            body.removeLast(4)
        } else if body.hasSuffix(" geleden") {
            body.removeLast(8)
        } else {
            return nil
        }
        body = body.trimmingCharacters(in: .whitespaces)
        let digits = body.prefix { $0.isNumber }
        guard let amount = Int(digits), amount >= 0 else { return nil }
        let unit = body.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let seconds: [String: TimeInterval] = [
            "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "minuut": 60, "minuten": 60,
            "h": 3_600, "hr": 3_600, "hrs": 3_600, "hour": 3_600, "hours": 3_600, "u": 3_600, "uur": 3_600,
            "d": 86_400, "day": 86_400, "days": 86_400, "dag": 86_400, "dagen": 86_400,
        ]
        return seconds[unit].map { TimeInterval(amount) * $0 }
    }

    /// `2026-11-21T18:00Z` or `2026-11-21T18:00+01:00`, which Foundation's reader wants with seconds.
    private static func isoWithoutSeconds(_ text: String) -> Date? {
        guard let range = text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(Z|[+-]\d{2}:?\d{2})$"#, options: .regularExpression) else {
            return nil
        }
        var withSeconds = String(text[range])
        withSeconds.insert(contentsOf: ":00", at: withSeconds.index(withSeconds.startIndex, offsetBy: 16))
        return try? Date(withSeconds, strategy: .iso8601)
    }

    /// `2026-11-21` as the start of that local day.
    private static func date(_ text: String, calendar: Calendar) -> Date? {
        let fields = text.split(separator: "-").compactMap { Int($0) }
        guard fields.count == 3, text.count == 10 else { return nil }
        var components = DateComponents(year: fields[0], month: fields[1], day: fields[2])
        components.calendar = calendar
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    /// `18:00` (or `18.00`, `9:05`) on `day`, in local time.
    private static func time(_ text: String, on day: Date, calendar: Calendar) -> Date? {
        let fields = text.split(whereSeparator: { $0 == ":" || $0 == "." }).compactMap { Int($0) }
        guard fields.count == 2, (0...23).contains(fields[0]), (0...59).contains(fields[1]) else { return nil }
        return calendar.date(bySettingHour: fields[0], minute: fields[1], second: 0, of: day)
    }

    private static func sameTimeOfDay(as now: Date, on day: Date, calendar: Calendar) -> Date? {
        let time = calendar.dateComponents([.hour, .minute, .second], from: now)
        return calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: time.second ?? 0, of: day)
    }
}
