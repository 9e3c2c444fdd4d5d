import Foundation
import GRDB
import HostModel

// Donations: every handled run (the `donation` rows, for `donations` and for withdrawing), and
// the same runs summed per action and values (`donationGroup`, for suggestions). A change to
// the runs changes their group in the same transaction.
extension HostState {
    /// At most this many donations are kept; older ones go first.
    public static let donationLimit = 5_000

    /// Records one handled run, made `minute` minutes into its local day.
    public func donate(_ donation: Donation, minute: Int) throws(HostError) {
        try write(HostText.Phrase("state.recordRun", ["type": donation.type])) { db in
            let parameters = HostState.text(donation.parameters), titles = HostState.text(donation.titles)
            // The values are stored as their JSON text with sorted keys: one text per values.
            try db.execute(sql: """
                INSERT INTO donation (type, parameters, titles, donatedAt, plugin, effect, minute) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [donation.type, parameters, titles, donation.date.timeIntervalSince1970,
                                 donation.plugin, donation.effect, minute])
            var group = try HostState.group(db, type: donation.type, parameters: parameters)
                ?? DonationGroup(type: donation.type, parameters: donation.parameters, titles: [:], runs: 0,
                                 lastRun: donation.date, weight: 0, cosSum: 0, sinSum: 0)
            group.add(date: donation.date, minute: minute, titles: donation.titles)
            try HostState.save(group, parameters: parameters, db)
            // The oldest runs past the limit go, and leave their groups.
            let old = try Row.fetchAll(db, sql: """
                SELECT * FROM donation WHERE id <= (SELECT id FROM donation ORDER BY id DESC LIMIT 1 OFFSET ?) ORDER BY id
                """, arguments: [keptDonations])
            try HostState.forget(old, db)
        }
    }

    /// The donations, oldest first; only those of `type` when given.
    public func donations(type: String? = nil) throws(HostError) -> [Donation] {
        try read { db in
            let rows = if let type {
                try Row.fetchAll(db, sql: "SELECT * FROM donation WHERE type = ? ORDER BY id", arguments: [type])
            } else {
                try Row.fetchAll(db, sql: "SELECT * FROM donation ORDER BY id")
            }
            // Runs repeat the same few values: each distinct text is decoded once.
            var decoded: [String: [String: String]] = [:]
            func strings(_ text: String) -> [String: String] {
                if let known = decoded[text] { return known }
                let values = HostState.strings(text)
                decoded[text] = values
                return values
            }
            return rows.map { row in
                Donation(id: row["id"], type: row["type"], parameters: strings(row["parameters"]),
                         titles: strings(row["titles"]), date: row["donatedAt"], plugin: row["plugin"], effect: row["effect"])
            }
        }
    }

    /// Whether any run of `type` is recorded.
    public func hasDonations(type: String) throws(HostError) -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM donation WHERE type = ?)", arguments: [type]) ?? false }
    }

    /// The runs summed per action and values: what suggestions are made from.
    public func donationGroups() throws(HostError) -> [DonationGroup] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM donationGroup ORDER BY type, parameters").map(HostState.group(from:))
        }
    }

    /// Forgets plugin `pluginID`'s donations named `effects` (their effect was undone); answers how many.
    @discardableResult
    public func withdrawDonations(of pluginID: String, effects: [String]) throws(HostError) -> Int {
        var removed = 0
        try write(HostText.Phrase("state.withdraw", ["plugin": pluginID])) { db in
            for effect in effects {
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM donation WHERE plugin = ? AND effect = ? ORDER BY id",
                                            arguments: [pluginID, effect])
                try HostState.forget(rows, db)
                removed += rows.count
            }
        }
        return removed
    }

    /// Forgets the donations (of `type` only, when given); answers how many.
    public func clearDonations(type: String? = nil) throws(HostError) -> Int {
        var removed = 0
        try write(HostText.Phrase("state.clearDonations"), durable: true) { db in
            if let type {
                try db.execute(sql: "DELETE FROM donation WHERE type = ?", arguments: [type])
                removed = db.changesCount
                try db.execute(sql: "DELETE FROM donationGroup WHERE type = ?", arguments: [type])
            } else {
                try db.execute(sql: "DELETE FROM donation")
                removed = db.changesCount
                try db.execute(sql: "DELETE FROM donationGroup")
            }
        }
        return removed
    }

    /// Makes every group again from the runs: the migrations that brought groups in (v7) and
    /// their first runs and half hours (v10; v7 writes the columns it made).
    static func regroupDonations(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM donationGroup")
        let hasSlots = try db.columns(in: "donationGroup").contains { $0.name == "slots" }
        var groups: [String: [String: DonationGroup]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT type, parameters, titles, donatedAt, minute FROM donation ORDER BY id") {
            let type: String = row["type"], parameters: String = row["parameters"], date: Date = row["donatedAt"]
            let titles = HostState.strings(row["titles"])
            var group = groups[type]?[parameters]
                ?? DonationGroup(type: type, parameters: HostState.strings(parameters), titles: [:], runs: 0,
                                 lastRun: date, weight: 0, cosSum: 0, sinSum: 0)
            group.add(date: date, minute: row["minute"] ?? 0, titles: titles)
            groups[type, default: [:]][parameters] = group
        }
        for (parameters, group) in groups.values.flatMap({ $0 }) {
            try save(group, parameters: parameters, db, withSlots: hasSlots)
        }
    }

    /// Deletes the runs `rows` (whole `donation` rows) and takes each out of its group.
    private static func forget(_ rows: [Row], _ db: Database) throws {
        for row in rows {
            let type: String = row["type"], parameters: String = row["parameters"], date: Date = row["donatedAt"]
            try db.execute(sql: "DELETE FROM donation WHERE id = ?", arguments: [row["id"] as Int64])
            guard var group = try group(db, type: type, parameters: parameters) else { continue }
            if group.runs <= 1 {
                try db.execute(sql: "DELETE FROM donationGroup WHERE type = ? AND parameters = ?", arguments: [type, parameters])
                continue
            }
            var latest: (date: Date, titles: [String: String])?
            if date >= group.lastRun, let newest = try Row.fetchOne(db, sql: """
                SELECT donatedAt, titles FROM donation WHERE type = ? AND parameters = ? ORDER BY donatedAt DESC, id DESC LIMIT 1
                """, arguments: [type, parameters]) {
                latest = (newest["donatedAt"], HostState.strings(newest["titles"]))
            }
            var earliest: Date?
            if date <= group.firstRun {
                earliest = try Date.fetchOne(db, sql: """
                    SELECT donatedAt FROM donation WHERE type = ? AND parameters = ? ORDER BY donatedAt, id LIMIT 1
                    """, arguments: [type, parameters])
            }
            // The days of the runs left in its half hour (an index on type finds them).
            let minute: Int = row["minute"] ?? 0, slot = (((minute % 1_440) + 1_440) % 1_440) / DaySlots.minutes
            let days = try Row.fetchAll(db, sql: """
                SELECT donatedAt, minute FROM donation WHERE type = ? AND parameters = ? AND minute >= ? AND minute < ?
                """, arguments: [type, parameters, slot * DaySlots.minutes, (slot + 1) * DaySlots.minutes])
                .map { LocalMinute.day(of: $0["donatedAt"], minute: $0["minute"]) }
            group.remove(date: date, minute: minute, latest: latest, earliest: earliest,
                         slotDays: days.min().flatMap { first in days.max().map { (first, $0) } })
            try save(group, parameters: parameters, db)
        }
    }

    /// The stored group of `type` with `parameters` (their stored text), if any.
    private static func group(_ db: Database, type: String, parameters: String) throws -> DonationGroup? {
        try Row.fetchOne(db, sql: "SELECT * FROM donationGroup WHERE type = ? AND parameters = ?", arguments: [type, parameters])
            .map(group(from:))
    }

    private static func group(from row: Row) -> DonationGroup {
        DonationGroup(type: row["type"], parameters: strings(row["parameters"]), titles: strings(row["titles"]),
                      runs: row["runs"], lastRun: row["lastRun"], weight: row["weight"], cosSum: row["cosSum"], sinSum: row["sinSum"],
                      firstRun: row["firstRun"], slots: (row["slots"] as String?).flatMap(DaySlots.init(text:)) ?? DaySlots())
    }

    /// Writes `group`, whose values are stored as `parameters` (without its first run and half
    /// hours in a table from before v10).
    private static func save(_ group: DonationGroup, parameters: String, _ db: Database, withSlots: Bool = true) throws {
        guard withSlots else {
            return try db.execute(sql: """
                INSERT OR REPLACE INTO donationGroup (type, parameters, titles, runs, lastRun, weight, cosSum, sinSum)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [group.type, parameters, text(group.titles), group.runs, group.lastRun.timeIntervalSince1970,
                                 group.weight, group.cosSum, group.sinSum])
        }
        try db.execute(sql: """
            INSERT OR REPLACE INTO donationGroup (type, parameters, titles, runs, lastRun, weight, cosSum, sinSum, firstRun, slots)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [group.type, parameters, text(group.titles), group.runs, group.lastRun.timeIntervalSince1970,
                             group.weight, group.cosSum, group.sinSum, group.firstRun.timeIntervalSince1970, group.slots.text])
    }

    /// Text values as the JSON object text they are stored as (sorted keys: one text per values).
    static func text(_ values: [String: String]) -> String {
        JSONValue.object(values.mapValues(JSONValue.string)).jsonText
    }
}
