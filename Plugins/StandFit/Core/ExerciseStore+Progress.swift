import Foundation
import GRDB

/// The state of the replay after each logged local day (`progressDay`), so that a change
/// replays the log only from the day it touches, and only as far as the states it meets differ
/// from the stored ones: a log of today replays today's entries, whatever the history. The
/// states hold for one time zone and rule set (`progressRules`); under another, the first
/// change rebuilds them (one replay of the whole log, inside its transaction).
enum ProgressDays {
    /// The zone's days and weeks and the rules the stored states were folded under.
    static func signature(_ rules: ExerciseStore.Rules) -> String {
        let goals = rules.goals.map { goal in
            "\(goal.exercise ?? "")/\(goal.per.rawValue)/\(goal.count)/\(goal.since.timeIntervalSince1970)/\(goal.until.map { "\($0.timeIntervalSince1970)" } ?? "")"
        }
        return "2|\(rules.calendar.timeZone.identifier)|\(rules.catalogue.exercises.map(\.id).joined(separator: ","))|\(goals.joined(separator: ","))"
    }

    /// Whether the stored states were folded under `rules`.
    static func areCurrent(_ db: Database, _ rules: ExerciseStore.Rules) throws -> Bool {
        try String.fetchOne(db, sql: "SELECT signature FROM progressRules WHERE id = 1") == signature(rules)
    }

    /// The state after the last logged day, when the stored states are current; nil otherwise.
    static func latest(_ db: Database, _ rules: ExerciseStore.Rules) throws -> ProgressState? {
        guard try areCurrent(db, rules) else { return nil }
        return try state(db, sql: "SELECT state FROM progressDay ORDER BY day DESC LIMIT 1") ?? ProgressState()
    }

    /// The progression the log supports: from the stored states when they are current, else by
    /// replaying the log.
    static func progression(_ db: Database, _ rules: ExerciseStore.Rules) throws -> Progression {
        if let state = try latest(db, rules) { return Progression(state: state, catalogue: rules.catalogue, goals: !rules.goals.isEmpty) }
        return Progression(entries: try LogEntry.fetchAll(db), rules: rules)
    }

    private static func state(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> ProgressState? {
        guard let text = try String.fetchOne(db, sql: sql, arguments: arguments) else { return nil }
        return try JSONDecoder().decode(ProgressState.self, from: Data(text.utf8))
    }

    /// After a change to the entries logged at `touched` (an entry's old and new instant),
    /// brings the stored states, the entries' XP and the achievements in line with the log:
    /// replays from the first touched day, and stops at a day at or after the last touched one
    /// whose state comes out as it was stored. The final state.
    static func update(_ db: Database, touched: [Date], rules: ExerciseStore.Rules) throws -> ProgressState {
        let calendar = rules.calendar
        var start = ProgressState()
        var from: Double?
        var lastTouched = -Double.infinity
        if try areCurrent(db, rules), let first = touched.min(), let last = touched.max() {
            let firstDay = calendar.startOfDay(for: first).timeIntervalSince1970
            from = firstDay
            lastTouched = calendar.startOfDay(for: last).timeIntervalSince1970
            start = try state(db, sql: "SELECT state FROM progressDay WHERE day < ? ORDER BY day DESC LIMIT 1",
                              arguments: [firstDay]) ?? ProgressState()
        } else {
            try db.execute(sql: "DELETE FROM progressDay")
            try db.execute(sql: "INSERT OR REPLACE INTO progressRules (id, signature) VALUES (1, ?)", arguments: [signature(rules)])
        }
        var folder = ProgressFolder(start, rules: rules)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let setXP = try db.cachedStatement(sql: "UPDATE log SET xp = ? WHERE id = ? AND xp != ?")
        let write = try db.cachedStatement(sql: "INSERT OR REPLACE INTO progressDay (day, state) VALUES (?, ?)")
        var produced: Set<Double> = []
        /// Stores the state after `day`: whether it is the one stored before (so that, at or
        /// after the last touched day, nothing later can change).
        func finish(_ day: Double, _ state: ProgressState) throws -> Bool {
            produced.insert(day)
            if let old = try self.state(db, sql: "SELECT state FROM progressDay WHERE day = ?", arguments: [day]), old == state {
                return true
            }
            try write.execute(arguments: [day, String(decoding: try encoder.encode(state), as: UTF8.self)])
            return false
        }
        var request = LogEntry.order(LogEntry.Columns.loggedAt, LogEntry.Columns.id)
        if let from { request = request.filter(LogEntry.Columns.loggedAt >= Date(timeIntervalSince1970: from)) }
        let entries = try request.fetchCursor(db)
        var stoppedAt: Double?, replayed = false
        while let entry = try entries.next() {
            replayed = true
            let before = folder.state
            let gained = folder.add(entry)
            if let day = before.day, folder.state.day != day, try finish(day, before), day >= lastTouched {
                stoppedAt = day
                break
            }
            if let id = entry.id { try setXP.execute(arguments: [gained, id, gained]) }
        }
        if stoppedAt == nil, replayed, let day = folder.state.day {
            _ = try finish(day, folder.state)
        }
        // Days in the replayed range that no longer have an entry.
        let stale = try Double.fetchAll(db, sql: "SELECT day FROM progressDay WHERE day >= ? AND day <= ?",
                                        arguments: [from ?? -Double.infinity, stoppedAt ?? Double.infinity])
            .filter { !produced.contains($0) }
        for day in stale { try db.execute(sql: "DELETE FROM progressDay WHERE day = ?", arguments: [day]) }
        let final = try state(db, sql: "SELECT state FROM progressDay ORDER BY day DESC LIMIT 1") ?? ProgressState()
        try db.execute(sql: "DELETE FROM achievement")
        for (id, earned) in final.earned {
            try db.execute(sql: "INSERT INTO achievement (id, earnedAt, entryId) VALUES (?, ?, ?)",
                           arguments: [id, earned.at, earned.by])
        }
        return final
    }
}
