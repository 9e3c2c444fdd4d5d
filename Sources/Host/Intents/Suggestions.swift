import Foundation
import HostModel

/// Ranks what to offer next from the donations: the same action with the same values, scored
/// by how often it ran (recent runs count more), how recently, and how close the current time
/// of day is to when it usually runs. Each score carries its reasons.
public struct Suggestions {
    public var donations: [Donation]
    public var now: Date
    public var calendar: Calendar
    /// The words of the reasons.
    public var text: HostText

    public init(donations: [Donation], now: Date, timeZone: TimeZone, language: String = "en") {
        self.donations = donations
        self.now = now
        text = HostText(language: language)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// Runs older than this many days count half as much as today's.
    public static let halfLifeDays = 14.0
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
        /// Why it ranks where it does, in words.
        public var reasons: String
    }

    public func ranked() -> [Suggestion] {
        var groups: [String: [Donation]] = [:]
        var order: [String] = []
        for donation in donations {
            // The same action with the same values: the type and the sorted name=value pairs,
            // joined by control characters (cheaper than encoding JSON for each of 5,000 runs).
            let key = ([donation.type] + donation.parameters.sorted { $0.key < $1.key }.map { $0.key + "\u{1}" + $0.value })
                .joined(separator: "\u{0}")
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(donation)
        }
        let minuteNow = minuteOfDay(now)
        return order.compactMap { key -> Suggestion? in
            guard let runs = groups[key], let last = runs.max(by: { $0.date < $1.date }) else { return nil }
            let weighted = runs.reduce(0.0) { sum, run in
                sum + pow(0.5, max(0, now.timeIntervalSince(run.date)) / 86_400 / Suggestions.halfLifeDays)
            }
            let frequency = log2(1 + weighted)
            let hoursSince = max(0, now.timeIntervalSince(last.date)) / 3_600
            let recency = pow(0.5, hoursSince / 48)
            let usual = circularMeanMinute(runs.map { minuteOfDay($0.date) })
            let distance = circularDistance(usual, minuteNow)
            let timeOfDay = max(0, 1 - distance / Suggestions.timeWindowMinutes)
            let score = frequency * (1 + timeOfDay) + recency
            let usualText = clock(usual)
            let reasons = [
                text(runs.count == 1 ? "suggest.ran.one" : "suggest.ran.many", ["count": "\(runs.count)", "frequency": format(frequency)]),
                text("suggest.last", ["ago": ago(hoursSince), "recency": format(recency)]),
                text("suggest.usual", ["usual": usualText, "now": clock(minuteNow), "timeOfDay": format(timeOfDay)]),
            ].joined(separator: "; ")
            return Suggestion(type: last.type, parameters: last.parameters, titles: last.titles, score: score,
                              frequency: frequency, recency: recency, timeOfDay: timeOfDay, runs: runs.count,
                              lastRun: last.date, usualTime: usualText, reasons: reasons)
        }.sorted { ($0.score, $0.lastRun) > ($1.score, $1.lastRun) }
    }

    private func minuteOfDay(_ date: Date) -> Double {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return Double((parts.hour ?? 0) * 60 + (parts.minute ?? 0))
    }

    /// The mean of times of day on the clock face, so 23:50 and 00:10 average to midnight.
    private func circularMeanMinute(_ minutes: [Double]) -> Double {
        let angles = minutes.map { $0 / 1_440 * 2 * Double.pi }
        let x = angles.reduce(0) { $0 + cos($1) }, y = angles.reduce(0) { $0 + sin($1) }
        var mean = atan2(y, x) / (2 * Double.pi) * 1_440
        if mean < 0 { mean += 1_440 }
        return mean.rounded()
    }

    private func circularDistance(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 1_440)
        return min(difference, 1_440 - difference)
    }

    private func clock(_ minute: Double) -> String {
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
        if let best = usable.max(by: { placeholders($0) < placeholders($1) }), placeholders(best) > 0 || parameters.isEmpty {
            let words = best.parts.map { part -> String in
                switch part {
                case .word(let word): word
                case .placeholder(let name): titles[name] ?? parameters[name] ?? name
                }
            }.joined(separator: " ")
            return words.prefix(1).uppercased() + words.dropFirst()
        }
        guard !parameters.isEmpty else { return action.title }
        return action.title + " — " + parameters.keys.sorted().map { titles[$0] ?? parameters[$0]! }.joined(separator: ", ")
    }
}
