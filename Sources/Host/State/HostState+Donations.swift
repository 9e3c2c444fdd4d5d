import Foundation
import GRDB
import HostModel

// Donations.
extension HostState {
    /// At most this many donations are kept; older ones go first.
    public static let donationLimit = 5_000

    /// Records one handled run.
    public func donate(_ donation: Donation) throws(HostError) {
        try write("record the run of \(donation.type)") { db in
            try db.execute(sql: "INSERT INTO donation (type, parameters, titles, donatedAt, plugin, effect) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [donation.type, JSONValue.object(donation.parameters.mapValues(JSONValue.string)).jsonText,
                                       JSONValue.object(donation.titles.mapValues(JSONValue.string)).jsonText,
                                       donation.date.timeIntervalSince1970, donation.plugin, donation.effect])
            try db.execute(sql: """
                DELETE FROM donation WHERE id <= (SELECT id FROM donation ORDER BY id DESC LIMIT 1 OFFSET ?)
                """, arguments: [HostState.donationLimit])
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
            // Runs repeat the same few values: each distinct text is decoded once (up to 5,000
            // donations are read for every menu's suggested item).
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

    /// Forgets plugin `pluginID`'s donations named `effects` (their effect was undone); answers how many.
    @discardableResult
    public func withdrawDonations(of pluginID: String, effects: [String]) throws(HostError) -> Int {
        var removed = 0
        try write("withdraw the runs plugin '\(pluginID)' undid") { db in
            for effect in effects {
                try db.execute(sql: "DELETE FROM donation WHERE plugin = ? AND effect = ?", arguments: [pluginID, effect])
                removed += db.changesCount
            }
        }
        return removed
    }

    /// Forgets the donations (of `type` only, when given); answers how many.
    public func clearDonations(type: String? = nil) throws(HostError) -> Int {
        var removed = 0
        try write("clear the donations") { db in
            if let type {
                try db.execute(sql: "DELETE FROM donation WHERE type = ?", arguments: [type])
            } else {
                try db.execute(sql: "DELETE FROM donation")
            }
            removed = db.changesCount
        }
        return removed
    }
}
