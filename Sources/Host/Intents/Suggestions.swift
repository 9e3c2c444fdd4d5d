import Foundation
import HostModel

/// Ranks what to offer next from the donations, summed per action and values
/// (`DonationGroup`): scored by how often it ran (recent runs count more), how recently, and how
/// close the current time of day is to when it usually runs. Each score carries its reasons.
public struct Suggestions {
    public var groups: [DonationGroup]
    public var now: Date
    public var timeZone: TimeZone
    /// The words of the reasons.
    public var text: HostText

    public init(groups: [DonationGroup], now: Date, timeZone: TimeZone, language: String = "en") {
        self.groups = groups
        self.now = now
        self.timeZone = timeZone
        text = HostText(language: language)
    }

    /// Runs older than this many days count half as much as today's.
    public static let halfLifeDays = DonationGroup.halfLifeDays
    /// The time of day stops counting this many minutes from the usual time.
    public static let timeWindowMinutes = 120.0

    public struct Suggestion: Sendable, Equatable, Encodable {
        public var type: String
        public var parameters: [String: String]
        public var titles: [String: String]
        public var score: Double
        /// log2(1 + runs weighted by age): 1 for one run today, about 3.3 for nine.
        public var frequency: Double
        /// 1 right after the last run, 0.5 two days later.
        public var recency: Double
        /// 1 at the usual time of day, 0 two hours or more from it.
        public var timeOfDay: Double
        public var runs: Int
        public var lastRun: Date
        /// "09:10", the circular mean of the runs' local times.
        public var usualTime: String
        /// The same, in minutes from midnight.
        public var usualMinute: Int
        /// Why it ranks where it does, in words.
        public var reasons: String
        /// Whether its runs span two days at least (`DonationGroup.spansDays`): what the menu
        /// and the notifications need besides the number of runs, so that looking at
        /// something twice in a minute is no habit. Kept per action: a time of day of an action
        /// that is a habit at another needs its own runs (two for the menu, three to be
        /// offered), not its own two days.
        public var spansDays: Bool = true

        /// Whether it is a habit the menu offers: run at least `runs` times, on two days.
        public func isHabit(runs minimum: Int) -> Bool {
            runs >= minimum && spansDays
        }
    }

    /// The suggestions, best first. A group whose runs keep to two or more times of day
    /// (`DonationGroup.clusters`: a morning and an evening habit) is one suggestion per time of
    /// day, each with its own runs and usual time (its share of the group's weight), instead of
    /// one at their average, when nobody runs it.
    public func ranked() -> [Suggestion] {
        let minuteNow = Double(LocalMinute.of(now, in: timeZone))
        return groups.filter { $0.runs > 0 }.flatMap { group -> [Suggestion] in
            let clusters = group.clusters
            // One time of day: all the runs, at the usual time of that time of day (a single run
            // at an odd hour does not move it); none (runs scattered one by one): their mean.
            // Each time of day is a habit only when its own runs fell on two days at least.
            let times: [(runs: Int, usual: Double, spansDays: Bool)] = switch clusters.count {
            case 0: [(group.runs, group.usualMinute, group.spansDays)]
            case 1: [(group.runs, Double(clusters[0].usualMinute), group.spansDays && clusters[0].spansDays)]
            default: clusters.map { ($0.runs, Double($0.usualMinute), group.spansDays && $0.spansDays) }
            }
            return times.map { suggestion(group, runs: $0.runs, usual: $0.usual, spansDays: $0.spansDays, minuteNow: minuteNow) }
        }.sorted { ($0.score, $0.lastRun, $1.type, $1.usualMinute) > ($1.score, $1.lastRun, $0.type, $0.usualMinute) }
    }

    /// `group`'s suggestion at one of its times of day, `runs` of its runs usually at `usual`.
    private func suggestion(_ group: DonationGroup, runs: Int, usual: Double, spansDays: Bool, minuteNow: Double) -> Suggestion {
        let frequency = log2(1 + group.weight(at: now) * Double(runs) / Double(group.runs))
        let hoursSince = max(0, now.timeIntervalSince(group.lastRun)) / 3_600
        let recency = pow(0.5, hoursSince / 48)
        let distance = Suggestions.circularDistance(usual, minuteNow)
        let timeOfDay = max(0, 1 - distance / Suggestions.timeWindowMinutes)
        let score = frequency * (1 + timeOfDay) + recency
        let usualText = Suggestions.clock(usual)
        let reasons = [
            text(runs == 1 ? "suggest.ran.one" : "suggest.ran.many", ["count": "\(runs)", "frequency": format(frequency)]),
            text("suggest.last", ["ago": ago(hoursSince), "recency": format(recency)]),
            text("suggest.usual", ["usual": usualText, "now": Suggestions.clock(minuteNow), "timeOfDay": format(timeOfDay)]),
        ].joined(separator: "; ")
        return Suggestion(type: group.type, parameters: group.parameters, titles: group.titles, score: score,
                          frequency: frequency, recency: recency, timeOfDay: timeOfDay, runs: runs,
                          lastRun: group.lastRun, usualTime: usualText, usualMinute: Int(usual) % 1_440, reasons: reasons,
                          spansDays: spansDays)
    }

    /// The quiet hours the user's own runs show: the longest stretch of the day in which none
    /// of their runs fell, at least `minimumQuietHours` long, once there are `minimumRuns` runs
    /// over `minimumDays` days; nil until then. A 07:30 habit is then not in them, as it was in
    /// a fixed 22:00-08:00.
    public static func learnedQuietHours(_ groups: [DonationGroup]) -> QuietHours? {
        let runs = groups.reduce(0) { $0 + $1.runs }
        guard runs >= minimumRuns, let first = groups.map(\.firstRun).min(), let last = groups.map(\.lastRun).max(),
              last.timeIntervalSince(first) >= Double(minimumDays) * 86_400 else { return nil }
        let slots = groups.reduce(DaySlots()) { $0 + $1.slots }
        return slots.quietStretch(minimumSlots: minimumQuietHours * 60 / DaySlots.minutes).map { QuietHours(start: $0.start, end: $0.end) }
    }

    /// What learned quiet hours need: this many runs, over this many days, leaving at least
    /// this many hours of the day without any.
    public static let minimumRuns = 10
    public static let minimumDays = 3
    public static let minimumQuietHours = 6

    static func circularDistance(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 1_440)
        return min(difference, 1_440 - difference)
    }

    /// "09:05": local minute `minute` on the 24-hour clock.
    public static func clock(_ minute: Double) -> String {
        let total = Int(minute) % 1_440
        return String(format: "%02d:%02d", total / 60, total % 60)
    }

    private func format(_ value: Double) -> String {
        String(format: "%.2f", value)
    }

    private func ago(_ hours: Double) -> String {
        switch hours {
        case ..<1: text("suggest.minutesAgo", ["count": "\(Int(hours * 60))"])
        case ..<48: text("suggest.hoursAgo", ["count": "\(Int(hours))"])
        default: text("suggest.daysAgo", ["count": "\(Int(hours / 24))"])
        }
    }
}

extension Suggestions.Suggestion {
    /// How people would say it: the action's phrase in `language` that uses the most of its
    /// values, filled with their titles ("Log 10 Push-Ups"); else the title and the values.
    public func title(for action: RegisteredAction?, language: String) -> String {
        guard let action else { return type }
        let phrases = action.phrases.filter { $0.applies(to: language) && $0.language != nil }
            + action.phrases.filter { $0.language == nil }
        let usable = phrases.filter { phrase in
            phrase.parts.allSatisfy { part in
                if case .placeholder(let name) = part { return parameters[name] != nil }
                return true
            }
        }
        let placeholders = { (phrase: Phrase) in phrase.parts.filter { if case .placeholder = $0 { true } else { false } }.count }
        if let best = usable.max(by: { placeholders($0) < placeholders($1) }), placeholders(best) > 0 || parameters.isEmpty,
           let sentence = best.sentence(filling: { titles[$0] ?? parameters[$0] }) {
            return sentence
        }
        guard !parameters.isEmpty else { return action.title }
        return action.title + " — " + parameters.keys.sorted().map { titles[$0] ?? parameters[$0]! }.joined(separator: ", ")
    }
}
