import Foundation
import GRDB
import HostModel

// Suggestions that come as notifications: the ones turned down for good (`suggestionMute`,
// the user's own choice, written durably) and the offers made (`suggestionOffer`, the host's
// bookkeeping for the daily cap, kept for `offerDays` days), and the runs timers made.
extension HostState {
    /// Offers older than this many days are forgotten when a new one is recorded.
    public static let offerDays = 60.0

    /// "Stop suggesting this": `type` with `parameters` is not suggested again.
    public func mute(type: String, parameters: [String: String], title: String, at date: Date) throws(HostError) {
        try write(HostText.Phrase("state.mute", ["title": title]), durable: true) { db in
            try db.execute(sql: "INSERT OR REPLACE INTO suggestionMute (type, parameters, title, mutedAt) VALUES (?, ?, ?, ?)",
                           arguments: [type, HostState.text(parameters), title, date.timeIntervalSince1970])
        }
    }

    /// Suggests again what was muted: of `type` (with exactly `parameters`, when given), or
    /// everything when `type` is nil. Answers the ones unmuted.
    public func unmute(type: String?, parameters: [String: String]? = nil) throws(HostError) -> [SuggestionMute] {
        var removed: [SuggestionMute] = []
        try write(HostText.Phrase("state.unmute"), durable: true) { db in
            let all = try HostState.mutes(db)
            removed = all.filter { mute in
                type.map { $0 == mute.type } ?? true && parameters.map { $0 == mute.parameters } ?? true
            }
            for mute in removed {
                try db.execute(sql: "DELETE FROM suggestionMute WHERE type = ? AND parameters = ?",
                               arguments: [mute.type, HostState.text(mute.parameters)])
            }
        }
        return removed
    }

    /// What was muted, oldest first.
    public func mutes() throws(HostError) -> [SuggestionMute] {
        try read { db in try HostState.mutes(db) }
    }

    private static func mutes(_ db: Database) throws -> [SuggestionMute] {
        try Row.fetchAll(db, sql: "SELECT * FROM suggestionMute ORDER BY mutedAt, type, parameters").map { row in
            SuggestionMute(type: row["type"], parameters: strings(row["parameters"]), title: row["title"], mutedAt: row["mutedAt"])
        }
    }

    /// Records a suggestion offered at `date` on local `day`; answers its id.
    public func recordOffer(type: String, parameters: [String: String], title: String, at date: Date, day: String) throws(HostError) -> Int64 {
        var id: Int64 = 0
        try write(HostText.Phrase("state.recordOffer")) { db in
            try db.execute(sql: "DELETE FROM suggestionOffer WHERE offeredAt < ?",
                           arguments: [date.timeIntervalSince1970 - HostState.offerDays * 86_400])
            try db.execute(sql: "INSERT INTO suggestionOffer (type, parameters, title, offeredAt, day) VALUES (?, ?, ?, ?, ?)",
                           arguments: [type, HostState.text(parameters), title, date.timeIntervalSince1970, day])
            id = db.lastInsertedRowID
        }
        return id
    }

    /// Records the button pressed on offer `id`.
    public func answerOffer(_ id: Int64, _ answer: SuggestionOffer.Answer) throws(HostError) {
        try write(HostText.Phrase("state.recordAnswer")) { db in
            try db.execute(sql: "UPDATE suggestionOffer SET answer = ? WHERE id = ?", arguments: [answer.rawValue, id])
        }
    }

    /// The offers made on local `day`, in order.
    public func offers(day: String) throws(HostError) -> [SuggestionOffer] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM suggestionOffer WHERE day = ? ORDER BY id", arguments: [day]).map { row in
                SuggestionOffer(id: row["id"], type: row["type"], parameters: HostState.strings(row["parameters"]), title: row["title"],
                                offeredAt: row["offeredAt"], day: row["day"],
                                answer: (row["answer"] as String?).flatMap(SuggestionOffer.Answer.init(rawValue:)))
            }
        }
    }

    /// When `type` ran since `date` (its donations and its scheduled runs), oldest first.
    public func runDates(of type: String, since date: Date) throws(HostError) -> [Date] {
        try read { db in
            try Date.fetchAll(db, sql: """
                SELECT donatedAt AS ranAt FROM donation WHERE type = ? AND donatedAt >= ?
                UNION ALL SELECT ranAt FROM scheduledRun WHERE type = ? AND ranAt >= ? ORDER BY ranAt
                """, arguments: [type, date.timeIntervalSince1970, type, date.timeIntervalSince1970])
        }
    }

    /// Records a run a timer made; those older than `offerDays` days are forgotten.
    public func recordScheduledRun(_ run: Donation) throws(HostError) {
        try write(HostText.Phrase("state.recordScheduled", ["type": run.type])) { db in
            try db.execute(sql: "DELETE FROM scheduledRun WHERE ranAt < ?",
                           arguments: [run.date.timeIntervalSince1970 - HostState.offerDays * 86_400])
            try db.execute(sql: "INSERT INTO scheduledRun (type, parameters, ranAt) VALUES (?, ?, ?)",
                           arguments: [run.type, HostState.text(run.parameters), run.date.timeIntervalSince1970])
        }
    }
}

extension HostState {
    /// Forgets offer `id`: it could not be shown, so it counts toward nothing.
    public func forgetOffer(_ id: Int64) throws(HostError) {
        try write(HostText.Phrase("state.forgetOffer")) { db in
            try db.execute(sql: "DELETE FROM suggestionOffer WHERE id = ?", arguments: [id])
        }
    }
}
