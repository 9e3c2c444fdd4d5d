import Foundation
import GRDB

/// The whole log out and entries in: what `export` and `import` read and write.
extension ExerciseStore {
    /// Every entry, oldest first (by when it was done, then by id).
    public func allEntries() throws -> [LogEntry] {
        try pools.reader().read { db in
            try LogEntry.order(LogEntry.Columns.loggedAt, LogEntry.Columns.id).fetchAll(db)
        }
    }

    /// What an import comes to: how many entries it adds and how many the log holds already.
    public struct Merge: Sendable, Equatable {
        public var added: Int
        public var duplicates: Int

        public init(added: Int, duplicates: Int) {
            self.added = added
            self.duplicates = duplicates
        }
    }

    /// Adds the entries of `incoming` the log does not hold yet, all in one transaction; with
    /// `dryRun`, only counts them. An entry is held already when one with the same exercise,
    /// count, note and second is in the log — counted as a multiset, so a file that holds two
    /// equal sets adds two, and importing it again adds none. With `rules`, the progression
    /// before and after (nil when nothing was added).
    /// The import is one change: `undo` takes back all it added. `label` names it (the file).
    public func merge(_ incoming: [LogEntry], dryRun: Bool, label: String? = nil, rules: Rules? = nil) throws -> (Merge, ProgressionChange?) {
        guard let first = incoming.map(\.loggedAt).min(), let last = incoming.map(\.loggedAt).max() else {
            return (Merge(added: 0, duplicates: 0), nil)
        }
        let range = DateInterval(start: first.addingTimeInterval(-1), end: last.addingTimeInterval(1))
        /// The entries of `incoming` not in the log, read in `db`.
        @Sendable func fresh(_ db: Database) throws -> [LogEntry] {
            var held: [Key: Int] = [:]
            let existing = try LogEntry
                .filter(LogEntry.Columns.loggedAt >= range.start && LogEntry.Columns.loggedAt <= range.end)
                .fetchCursor(db)
            while let entry = try existing.next() { held[Key(entry), default: 0] += 1 }
            return incoming.filter { entry in
                let key = Key(entry)
                guard let count = held[key], count > 0 else { return true }
                held[key] = count - 1
                return false
            }
        }
        if dryRun {
            let adding = try pools.reader().read { db in try fresh(db).count }
            return (Merge(added: adding, duplicates: incoming.count - adding), nil)
        }
        let written = try write(rules) { db -> (Int, touched: [Date])? in
            let adding = try fresh(db)
            guard let first = adding.first else { return nil }
            let insert = try db.cachedStatement(sql: "INSERT INTO log (exercise, count, note, loggedAt) VALUES (?, ?, ?, ?)")
            var ids: ClosedRange<Int64>?
            for entry in adding {
                try insert.execute(arguments: [entry.exercise, entry.count, entry.note, entry.loggedAt])
                ids = (ids?.lowerBound ?? db.lastInsertedRowID)...db.lastInsertedRowID
            }
            try ExerciseStore.record(db, .import, label: label, before: [], added: ids)
            let times = adding.map(\.loggedAt)
            return (adding.count, [times.min() ?? first.loggedAt, times.max() ?? first.loggedAt])
        }
        guard let (added, progression) = written else { return (Merge(added: 0, duplicates: incoming.count), nil) }
        return (Merge(added: added, duplicates: incoming.count - added), progression)
    }

    /// What makes two entries the same set: exercise, count, note and the second it was done.
    private struct Key: Hashable {
        var exercise: String
        var count: Int
        var note: String
        var second: Int64

        init(_ entry: LogEntry) {
            exercise = entry.exercise
            count = entry.count
            note = entry.note ?? ""
            second = Int64(entry.loggedAt.timeIntervalSince1970.rounded(.down))
        }
    }
}

extension ExerciseStore {
    /// The instant, exercise and count of every entry in `interval`, read through the index
    /// without making entries: a year of progress is 20,000 rows.
    public func amounts(in interval: DateInterval) throws -> [(at: Date, exercise: String, count: Int)] {
        try pools.reader().read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT loggedAt, exercise, count FROM log WHERE loggedAt >= ? AND loggedAt < ?",
                                           arguments: [interval.start, interval.end])
            var amounts: [(at: Date, exercise: String, count: Int)] = []
            while let row = try rows.next() { amounts.append((row[0], row[1], row[2])) }
            return amounts
        }
    }
}
