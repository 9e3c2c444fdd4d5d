import Foundation

/// The runs of one action with the same values, summed so that `suggest`, the menu and the
/// desktop file read one row per action and values instead of every run (a year of use is
/// 20,000 runs; the host keeps the newest 5,000). Every figure `Suggestions` scores with is a
/// sum over the runs that a run can be added to and taken from:
///
/// - `weight`: Σ ½^((lastRun − t) / half-life), each run's weight as of the latest run, so that
///   the weight at any later `now` is `weight × ½^((now − lastRun) / half-life)`;
/// - `cosSum`, `sinSum`: each run's local time of day as a point on the clock face, whose
///   direction is the usual time (a circular mean: 23:50 and 00:10 average to midnight);
/// - `slots`: how many runs fell in each half hour of the day, and the sum of their minutes
///   into it, from which a habit with two times of day is told apart (`clusters`);
/// - `firstRun`: the earliest run, so that two runs a minute apart are no habit yet.
public struct DonationGroup: Sendable, Equatable {
    public var type: String
    public var parameters: [String: String]
    /// The latest run's titles of the values ("pushups" → "Push-Ups").
    public var titles: [String: String]
    public var runs: Int
    public var lastRun: Date
    public var weight: Double
    public var cosSum: Double
    public var sinSum: Double
    public var firstRun: Date
    public var slots: DaySlots

    /// A run's weight halves every this many days.
    public static let halfLifeDays = 14.0

    public init(type: String, parameters: [String: String], titles: [String: String], runs: Int, lastRun: Date,
                weight: Double, cosSum: Double, sinSum: Double, firstRun: Date? = nil, slots: DaySlots = DaySlots()) {
        self.firstRun = firstRun ?? lastRun
        self.slots = slots
        self.type = type
        self.parameters = parameters
        self.titles = titles
        self.runs = runs
        self.lastRun = lastRun
        self.weight = weight
        self.cosSum = cosSum
        self.sinSum = sinSum
    }

    /// The group of one run made at `date`, `minute` minutes into its local day.
    public init(type: String, parameters: [String: String], titles: [String: String], date: Date, minute: Int) {
        self.init(type: type, parameters: parameters, titles: titles, runs: 0, lastRun: date, weight: 0, cosSum: 0, sinSum: 0)
        add(date: date, minute: minute, titles: titles)
    }

    /// How much a run made `seconds` before another weighs as of that other.
    public static func decay(_ seconds: TimeInterval) -> Double {
        pow(0.5, seconds / 86_400 / halfLifeDays)
    }

    /// A local time of day, in minutes, on the clock face.
    static func angle(_ minute: Int) -> Double {
        Double(minute) / 1_440 * 2 * Double.pi
    }

    /// Counts one more run; a run newer than the latest becomes the latest (its titles too).
    public mutating func add(date: Date, minute: Int, titles: [String: String]) {
        slots.add(minute, day: LocalMinute.day(of: date, minute: minute))
        if runs == 0 {
            weight = 1
            lastRun = date
            firstRun = date
            self.titles = titles
        } else if date >= lastRun {
            weight = weight * DonationGroup.decay(date.timeIntervalSince(lastRun)) + 1
            lastRun = date
            self.titles = titles
        } else {
            weight += DonationGroup.decay(lastRun.timeIntervalSince(date))
        }
        firstRun = min(firstRun, date)
        runs += 1
        cosSum += cos(DonationGroup.angle(minute))
        sinSum += sin(DonationGroup.angle(minute))
    }

    /// Takes one run out. When it was the latest, `latest` is the newest run left (its date and
    /// titles), which the weight is then measured from; when it was the earliest, `earliest` is
    /// the oldest run left. `slotDays` are the first and last local days of the runs left in its
    /// half hour, when the caller knows them.
    public mutating func remove(date: Date, minute: Int, latest: (date: Date, titles: [String: String])?, earliest: Date? = nil,
                                slotDays: (first: Int, last: Int)? = nil) {
        slots.remove(minute, days: slotDays)
        if date <= firstRun, let earliest { firstRun = earliest }
        runs -= 1
        cosSum -= cos(DonationGroup.angle(minute))
        sinSum -= sin(DonationGroup.angle(minute))
        if date < lastRun {
            weight = max(0, weight - DonationGroup.decay(lastRun.timeIntervalSince(date)))
        } else if let latest {
            let rescaled = max(0, weight - 1) / DonationGroup.decay(lastRun.timeIntervalSince(latest.date))
            // Runs decades apart (a clock set to 1970) leave nothing to rescale: the newest left
            // counts 1, as it would at its own time.
            weight = rescaled.isFinite && rescaled > 0 ? rescaled : 1
            lastRun = latest.date
            titles = latest.titles
        }
    }

    /// The runs' weight at `now`: recent runs count more. A run after `now` (a clock set back)
    /// counts at most 1, as every run does at its own time.
    public func weight(at now: Date) -> Double {
        min(Double(runs), weight * DonationGroup.decay(max(0, now.timeIntervalSince(lastRun))))
    }

    /// The usual local time of day, in whole minutes from midnight.
    public var usualMinute: Double {
        var mean = atan2(sinSum, cosSum) / (2 * Double.pi) * 1_440
        if mean < 0 { mean += 1_440 }
        return mean.rounded()
    }
}

extension DonationGroup {
    /// The runs' times of day, apart: each stretch of the day with runs, parted from the next by
    /// at least `DaySlots.gapSlots` empty half hours, with at least two runs (a single run at an
    /// odd hour is no time of day of its own and stays out). One cluster, or none, when the
    /// runs keep to one time of day.
    public var clusters: [DaySlots.Cluster] {
        slots.clusters().filter { $0.runs >= 2 }
    }

    /// Whether the runs span two days at least (their first and last 20 hours apart or more):
    /// an action run twice in a minute is no habit.
    public var spansDays: Bool {
        lastRun.timeIntervalSince(firstRun) >= DonationGroup.habitSpan
    }

    /// How far apart the first and the last run must be for a habit: 20 hours.
    public static let habitSpan: TimeInterval = 20 * 3_600
}

/// The runs of a group by half hour of the local day: how many, and the sum of their minutes
/// into their half hour (a mean time of day per half hour, exact to the minute).
public struct DaySlots: Sendable, Equatable {
    public static let count = 48
    public static let minutes = 1_440 / count
    /// Empty half hours that part two times of day: three hours.
    public static let gapSlots = 6

    public var runs: [Int]
    public var minuteSums: [Int]
    /// The local days (`LocalMinute.day`) of each half hour's first and last run: `Int.max` and
    /// `Int.min` for one without runs; `Int.min` and `Int.max` where they are not known (slots
    /// stored before v11), which counts as runs on several days.
    public var firstDays: [Int]
    public var lastDays: [Int]

    public init() {
        runs = Array(repeating: 0, count: DaySlots.count)
        minuteSums = Array(repeating: 0, count: DaySlots.count)
        firstDays = Array(repeating: Int.max, count: DaySlots.count)
        lastDays = Array(repeating: Int.min, count: DaySlots.count)
    }

    public mutating func add(_ minute: Int, day: Int) {
        let minute = ((minute % 1_440) + 1_440) % 1_440, slot = minute / DaySlots.minutes
        runs[slot] += 1
        minuteSums[slot] += minute % DaySlots.minutes
        firstDays[slot] = min(firstDays[slot], day)
        lastDays[slot] = max(lastDays[slot], day)
    }

    /// Takes one run out, `days` being the first and last local day of the runs its half hour
    /// has left; without them, the half hour keeps the days it had until it has no runs left.
    public mutating func remove(_ minute: Int, days: (first: Int, last: Int)? = nil) {
        let minute = ((minute % 1_440) + 1_440) % 1_440, slot = minute / DaySlots.minutes
        guard runs[slot] > 0 else { return }
        runs[slot] -= 1
        minuteSums[slot] = runs[slot] == 0 ? 0 : max(0, minuteSums[slot] - minute % DaySlots.minutes)
        if runs[slot] == 0 {
            (firstDays[slot], lastDays[slot]) = (Int.max, Int.min)
        } else if let days {
            (firstDays[slot], lastDays[slot]) = days
        }
    }

    public static func + (lhs: DaySlots, rhs: DaySlots) -> DaySlots {
        var sum = lhs
        for slot in 0..<count {
            sum.runs[slot] += rhs.runs[slot]
            sum.minuteSums[slot] += rhs.minuteSums[slot]
            sum.firstDays[slot] = min(sum.firstDays[slot], rhs.firstDays[slot])
            sum.lastDays[slot] = max(sum.lastDays[slot], rhs.lastDays[slot])
        }
        return sum
    }

    /// One stretch of the day with runs.
    public struct Cluster: Sendable, Equatable {
        public var runs: Int
        /// The runs' usual local time, in minutes from midnight (their circular mean).
        public var usualMinute: Int
        /// The first and the last half hour with runs, in minutes from midnight.
        public var firstMinute: Int
        public var lastMinute: Int
        /// Whether its runs fell on two local days at least: two runs of one evening are no
        /// evening habit, even when the same action has a morning one.
        public var spansDays: Bool
    }

    /// The stretches of the day with runs, each parted from the next by `gapSlots` empty half
    /// hours or more, in the order of the day from the end of the longest gap.
    public func clusters() -> [Cluster] {
        // Start right after the longest empty stretch, so that none spans the walk's start.
        guard let gap = longestGap() else { return [] }
        let longestEnd = (gap.start + gap.length) % DaySlots.count
        var clusters: [[Int]] = []
        var previous: Int?
        for step in 0..<DaySlots.count {
            let slot = (longestEnd + step) % DaySlots.count
            guard runs[slot] > 0 else { continue }
            if let previous, step - previous - 1 < DaySlots.gapSlots {
                clusters[clusters.count - 1].append(slot)
            } else {
                clusters.append([slot])
            }
            previous = step
        }
        return clusters.map { slots in
            var cosSum = 0.0, sinSum = 0.0, total = 0
            let firstDay = slots.map { firstDays[$0] }.min() ?? Int.max, lastDay = slots.map { lastDays[$0] }.max() ?? Int.min
            for slot in slots {
                let mean = Double(slot * DaySlots.minutes) + Double(minuteSums[slot]) / Double(runs[slot])
                let angle = mean / 1_440 * 2 * Double.pi
                cosSum += Double(runs[slot]) * cos(angle)
                sinSum += Double(runs[slot]) * sin(angle)
                total += runs[slot]
            }
            var usual = atan2(sinSum, cosSum) / (2 * Double.pi) * 1_440
            if usual < 0 { usual += 1_440 }
            return Cluster(runs: total, usualMinute: Int(usual.rounded()) % 1_440, firstMinute: slots[0] * DaySlots.minutes,
                           lastMinute: slots[slots.count - 1] * DaySlots.minutes + DaySlots.minutes - 1, spansDays: lastDay > firstDay)
        }
    }

    /// The quiet hours the runs leave: the longest stretch of the day without any, when it is at
    /// least `minimumQuiet` half hours long; nil otherwise.
    public func quietStretch(minimumSlots: Int) -> (start: Int, end: Int)? {
        guard let gap = longestGap(), gap.length >= minimumSlots else { return nil }
        return (gap.start * DaySlots.minutes, ((gap.start + gap.length) % DaySlots.count) * DaySlots.minutes)
    }

    /// The longest stretch of empty half hours, around the clock: its first slot and its length
    /// (0 when every half hour has runs; the first such stretch when several are as long); nil
    /// when none has any.
    private func longestGap() -> (start: Int, length: Int)? {
        let occupied = (0..<DaySlots.count).filter { runs[$0] > 0 }
        guard !occupied.isEmpty else { return nil }
        var best: (start: Int, length: Int)?
        for (index, slot) in occupied.enumerated() {
            let next = occupied[(index + 1) % occupied.count] + (index + 1 == occupied.count ? DaySlots.count : 0)
            let length = next - slot - 1
            if length > (best?.length ?? -1) { best = ((slot + 1) % DaySlots.count, length) }
        }
        return best
    }

    /// As stored: "slot:runs:minutes:firstDay:lastDay" for each half hour with runs ("slot:runs:minutes"
    /// where its days are not known), separated by spaces.
    public var text: String {
        (0..<DaySlots.count).filter { runs[$0] > 0 }.map { slot in
            let days = firstDays[slot] == Int.min || lastDays[slot] == Int.min ? "" : ":\(firstDays[slot]):\(lastDays[slot])"
            return "\(slot):\(runs[slot]):\(minuteSums[slot])\(days)"
        }.joined(separator: " ")
    }

    /// Reads `text`; nil when it is not what `text` writes.
    public init?(text: String) {
        self.init()
        for field in text.split(separator: " ") {
            let parts = field.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 3 || parts.count == 5, !parts.contains(nil), let slot = parts[0], (0..<DaySlots.count).contains(slot),
                  let count = parts[1], count >= 0, let minutes = parts[2], minutes >= 0 else { return nil }
            runs[slot] = count
            minuteSums[slot] = minutes
            (firstDays[slot], lastDays[slot]) = parts.count == 5 ? (parts[3]!, parts[4]!) : (Int.min, Int.max)
        }
    }
}

/// Minutes into the local day.
public enum LocalMinute {
    /// The number of the local day of a run at `date`, `minute` minutes into it: the UTC day
    /// of its local midnight moved 14 hours on, less a second. A local midnight is that far
    /// before or after UTC's as the zone's offset (-12 to +14 hours); moved so, zones whose
    /// clocks change (New Zealand's +12 and +13, Chatham's, Alaska's) stay within one UTC
    /// day each, so the days before and after a change keep numbers of their own.
    public static func day(of date: Date, minute: Int) -> Int {
        // From the start of the run's minute, so that its seconds do not move it across an edge.
        let minuteStart = (date.timeIntervalSince1970 / 60).rounded(.down) * 60
        return Int(((minuteStart - Double(minute) * 60 + 14 * 3_600 - 1) / 86_400).rounded(.down))
    }

    /// How many whole minutes of its local day in `zone` have passed at `date`.
    public static func of(_ date: Date, in zone: TimeZone) -> Int {
        let local = Int((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
        let second = ((local % 86_400) + 86_400) % 86_400
        return second / 60
    }
}
