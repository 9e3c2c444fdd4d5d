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

    /// The host's clock (`now`: the SDK's, which is the system clock unless the user fixed it
    /// with `STANDFIT_NOW`, for replaying a day or testing across midnight and DST changes) in
    /// the process's time zone (`TZ`).
    public static func live(language: String, now: @escaping @Sendable () -> Date) -> StandFitClock {
        StandFitClock(now: now, calendar: StandFitClock.calendar(language: language, timeZone: .current))
    }

    /// A Gregorian calendar for `language` in `timeZone`.
    public static func calendar(language: String, timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = Locale(identifier: language)
        return calendar
    }
}

