import Foundation
import HostModel

/// When a suggestion comes to the user as a notification ("Log 10 Push-Ups?"), as iOS shows a
/// shortcut on the Lock Screen at the usual time: `suggestions offer`, which the user timer of
/// `suggestions on` runs every quarter of an hour. The rules, in order:
///
/// - never in the quiet hours (`suggestionQuietHours` in config.json; unless set, those the
///   user's runs show, `Suggestions.learnedQuietHours`, and 22:00-08:00 until there are enough);
/// - at most `suggestionsPerDay` offers a local day (3 unless set);
/// - only a suggestion the menu would make and then some: ran at least `minimumRuns` times on
///   two days at least (a notification interrupts, so it needs more than the menu's two),
///   usually within `window` minutes of now, suggestible, and not muted ("Stop suggesting this");
/// - each at most once a day at each of its times of day (whatever the answer: "Not now" means
///   not today at that time);
/// - never for an action already done today around its usual time (a run of the same type
///   within `Suggestions.timeWindowMinutes` of it), whatever its values.
///
/// The best one left (the ranking `suggest` shows) is offered.
public struct SuggestionOffers {
    /// Minutes either side of the usual time in which it is offered: the timer runs every 15
    /// minutes, so one of its runs always falls in.
    public static let window = 15
    /// Runs a suggestion needs before it comes as a notification.
    public static let minimumRuns = 3

    /// The ranked suggestions, muted and unsuggestible ones already left out.
    public var ranked: [Suggestions.Suggestion]
    public var now: Date
    public var timeZone: TimeZone
    public var quietHours: QuietHours?
    public var perDay: Int
    /// The offers made today.
    public var offeredToday: [SuggestionOffer]
    /// When an action (by type) ran today, by its donations.
    public var runsToday: (String) -> [Date]

    public init(ranked: [Suggestions.Suggestion], now: Date, timeZone: TimeZone, quietHours: QuietHours?, perDay: Int,
                offeredToday: [SuggestionOffer], runsToday: @escaping (String) -> [Date]) {
        self.ranked = ranked
        self.now = now
        self.timeZone = timeZone
        self.quietHours = quietHours
        self.perDay = perDay
        self.offeredToday = offeredToday
        self.runsToday = runsToday
    }

    /// Why a suggestion at its usual time is not offered.
    public enum Skip: Equatable, Sendable {
        case offeredToday
        /// It ran today at this time (local "08:50").
        case doneToday(String)
    }

    public enum Decision: Equatable, Sendable {
        case offer(Suggestions.Suggestion)
        /// In the quiet hours.
        case quiet(QuietHours)
        /// `perDay` offers were made today already.
        case capReached(Int)
        /// None is due: those at their usual time now, and why each is not offered.
        case nothing(skipped: [(Suggestions.Suggestion, Skip)])

        public static func == (lhs: Decision, rhs: Decision) -> Bool {
            switch (lhs, rhs) {
            case (.offer(let a), .offer(let b)): a == b
            case (.quiet(let a), .quiet(let b)): a == b
            case (.capReached(let a), .capReached(let b)): a == b
            case (.nothing(let a), .nothing(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
            default: false
            }
        }
    }

    public var minuteNow: Int { LocalMinute.of(now, in: timeZone) }

    /// The local day of `date`, "2026-11-27".
    public static func day(of date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The start of the local day of `date`.
    public static func startOfDay(of date: Date, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.startOfDay(for: date)
    }

    /// The suggestions at their usual time now, best first.
    public var due: [Suggestions.Suggestion] {
        ranked.filter {
            $0.isHabit(runs: SuggestionOffers.minimumRuns)
                && Suggestions.circularDistance(Double($0.usualMinute), Double(minuteNow)) <= Double(SuggestionOffers.window)
        }
    }

    public func decide() -> Decision {
        if let quietHours, quietHours.contains(minuteNow) { return .quiet(quietHours) }
        if offeredToday.count >= perDay { return .capReached(perDay) }
        var skipped: [(Suggestions.Suggestion, Skip)] = []
        for suggestion in due {
            if offeredToday.contains(where: {
                $0.type == suggestion.type && $0.parameters == suggestion.parameters
                    && Suggestions.circularDistance(Double(LocalMinute.of($0.offeredAt, in: timeZone)), Double(suggestion.usualMinute))
                        <= Suggestions.timeWindowMinutes
            }) {
                skipped.append((suggestion, .offeredToday))
                continue
            }
            let done = runsToday(suggestion.type).first {
                Suggestions.circularDistance(Double(LocalMinute.of($0, in: timeZone)), Double(suggestion.usualMinute))
                    <= Suggestions.timeWindowMinutes
            }
            if let done {
                skipped.append((suggestion, .doneToday(Suggestions.clock(Double(LocalMinute.of(done, in: timeZone))))))
                continue
            }
            return .offer(suggestion)
        }
        return .nothing(skipped: skipped)
    }
}
