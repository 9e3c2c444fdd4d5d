import Foundation

/// Where StandFit gets "now" and its calendar from: the side effect passed in, so tests can
/// stand at any instant in any time zone.
public struct StandFitClock: Sendable {
    public var now: @Sendable () -> Date
    /// Gregorian, in the user's time zone, weeks starting on the locale's first weekday.
    public var calendar: Calendar

    public init(now: @escaping @Sendable () -> Date, calendar: Calendar) {
        self.now = now
        self.calendar = calendar
    }

    /// The real clock in the process's time zone (`TZ`). `STANDFIT_NOW` (an ISO 8601
    /// instant) fixes "now", for replaying a day or testing across midnight and DST changes.
    public static func live(language: String, environment: [String: String]) throws -> StandFitClock {
        let calendar = StandFitClock.calendar(language: language, timeZone: .current)
        guard let fixed = environment["STANDFIT_NOW"] else {
            return StandFitClock(now: { Date() }, calendar: calendar)
        }
        guard let instant = try? Date(fixed, strategy: .iso8601) else {
            throw StandFitClockError(value: fixed)
        }
        return StandFitClock(now: { instant }, calendar: calendar)
    }

    /// A Gregorian calendar for `language` in `timeZone`.
    public static func calendar(language: String, timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = Locale(identifier: language)
        return calendar
    }
}

/// `STANDFIT_NOW` is set but is not an instant.
public struct StandFitClockError: Error, CustomStringConvertible {
    public var value: String
    public var description: String {
        "STANDFIT_NOW is '\(value)', which is not an ISO 8601 instant; set it like 2026-03-29T08:30:00Z or unset it."
    }
}
