import Foundation

/// The runs of one action with the same values, summed so that `suggest`, the menu and the
/// desktop file read one row per action and values instead of every run (a year of use is
/// 20,000 runs; the host keeps the newest 5,000). Every figure `Suggestions` scores with is a
/// sum over the runs that a run can be added to and taken from:
///
/// - `weight`: Σ ½^((lastRun − t) / half-life), each run's weight as of the latest run, so that
///   the weight at any later `now` is `weight × ½^((now − lastRun) / half-life)`;
/// - `cosSum`, `sinSum`: each run's local time of day as a point on the clock face, whose
///   direction is the usual time (a circular mean: 23:50 and 00:10 average to midnight).
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

    /// A run's weight halves every this many days.
    public static let halfLifeDays = 14.0

    public init(type: String, parameters: [String: String], titles: [String: String], runs: Int, lastRun: Date,
                weight: Double, cosSum: Double, sinSum: Double) {
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
        if runs == 0 {
            weight = 1
            lastRun = date
            self.titles = titles
        } else if date >= lastRun {
            weight = weight * DonationGroup.decay(date.timeIntervalSince(lastRun)) + 1
            lastRun = date
            self.titles = titles
        } else {
            weight += DonationGroup.decay(lastRun.timeIntervalSince(date))
        }
        runs += 1
        cosSum += cos(DonationGroup.angle(minute))
        sinSum += sin(DonationGroup.angle(minute))
    }

    /// Takes one run out. When it was the latest, `latest` is the newest run left (its date and
    /// titles), which the weight is then measured from.
    public mutating func remove(date: Date, minute: Int, latest: (date: Date, titles: [String: String])?) {
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

/// Minutes into the local day.
public enum LocalMinute {
    /// How many whole minutes of its local day in `zone` have passed at `date`.
    public static func of(_ date: Date, in zone: TimeZone) -> Int {
        let local = Int((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
        let second = ((local % 86_400) + 86_400) % 86_400
        return second / 60
    }
}
