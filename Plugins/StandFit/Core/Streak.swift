import Foundation

/// A streak: consecutive local days with at least one log, ending today or yesterday (a day
/// not yet logged does not break the streak until it is over).
public struct Streak: Sendable, Equatable, Codable {
    /// Consecutive days; 0 when the last logged day is before yesterday or nothing is logged.
    public var days: Int
    /// Whether today has a log.
    public var includesToday: Bool

    public init(days: Int, includesToday: Bool) {
        self.days = days
        self.includesToday = includesToday
    }

    /// Counts the streak from log instants, newest first, at `now` in `calendar`'s time zone,
    /// taking them one at a time from `next` (nil at the end), and no more of them than the
    /// streak needs: a year of history costs the streak's days, not the year. Days are compared
    /// as calendar days, so 23- and 25-hour days (DST) count as one day each.
    public init(now: Date, calendar: Calendar, next: () throws -> Date?) rethrows {
        let today = calendar.startOfDay(for: now)
        guard let yesterday = calendar.date(byAdding: .day, value: -1, to: today).map(calendar.startOfDay) else {
            self.init(days: 0, includesToday: false)
            return
        }
        var days = 0
        var includesToday = false
        // The day the streak needs next, walking back from today.
        var expected = today
        while let time = try next() {
            let day = calendar.startOfDay(for: time)
            if day > today { continue }   // logged "in the future" of a fixed clock
            if day == expected {
                days += 1
                if day == today { includesToday = true }
                guard let previous = calendar.date(byAdding: .day, value: -1, to: day) else { break }
                expected = calendar.startOfDay(for: previous)
            } else if day > expected {
                continue   // another log on a day already counted
            } else if days == 0 && expected == today && day == yesterday {
                // Nothing today yet: the streak may end yesterday.
                days = 1
                guard let previous = calendar.date(byAdding: .day, value: -1, to: day) else { break }
                expected = calendar.startOfDay(for: previous)
            } else {
                break
            }
        }
        self.init(days: days, includesToday: includesToday)
    }
}
