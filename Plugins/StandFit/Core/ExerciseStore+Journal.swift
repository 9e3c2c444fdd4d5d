import Foundation
import GRDB

/// Undo and redo: every change to the log (a log, a deletion, an edit, an import) is recorded in
/// its own transaction, so `undo` takes back the last thing done, whatever moment it was logged
/// for, and `redo` brings back what undo took, until the next change.
extension ExerciseStore {
    /// What a change was.
    public enum ChangeKind: String, Sendable, Codable {
        case log, delete, edit, `import`
    }

    /// A change undone or redone: its kind and label (an import's file), the entries as they were
    /// before the step and as they are after it, and the progression before and after.
    public struct Step: Sendable {
        public var kind: ChangeKind
        public var label: String?
        public var removed: [LogEntry]
        public var added: [LogEntry]
        public var progression: ProgressionChange?
    }

    /// How many changes can be undone, newest first; older ones are forgotten.
    public static let undoDepth = 100

    /// Records a change in `db`, inside the change's transaction: `before` are the rows it removed
    /// or replaced, `added` the first and last id it added or replaced (ids of one change are
    /// consecutive: they are given in its one transaction). A new change ends what redo could
    /// bring back.
    static func record(_ db: Database, _ kind: ChangeKind, label: String? = nil, before: [LogEntry], added: ClosedRange<Int64>?) throws {
        try db.execute(sql: "DELETE FROM change WHERE undone")
        try db.execute(sql: "INSERT INTO change (kind, label, before, addedFirst, addedLast) VALUES (?, ?, ?, ?, ?)",
                       arguments: [kind.rawValue, label, try encoded(before), added?.lowerBound, added?.upperBound])
        try db.execute(sql: "DELETE FROM change WHERE id NOT IN (SELECT id FROM change ORDER BY id DESC LIMIT ?)",
                       arguments: [ExerciseStore.undoDepth])
    }

    private static func encoded(_ entries: [LogEntry]) throws -> String {
        String(decoding: try JSONEncoder().encode(entries), as: UTF8.self)
    }

    private static func decoded(_ text: String?) throws -> [LogEntry] {
        guard let text else { return [] }
        return try JSONDecoder().decode([LogEntry].self, from: Data(text.utf8))
    }

    /// Whether any change was ever recorded: a log from before the journal has none, and its
    /// undo removes the entry made last, as it did then.
    public func hasJournal() throws -> Bool {
        try pools.reader().read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM change)") } ?? false
    }

    /// Takes back the last change not undone yet; nil when there is none.
    public func undoLast(rules: Rules? = nil) throws -> Step? {
        try step(rules, undo: true)
    }

    /// Brings back the change undone last, while no change was made since; nil when there is none.
    public func redoLast(rules: Rules? = nil) throws -> Step? {
        try step(rules, undo: false)
    }

    private func step(_ rules: Rules?, undo: Bool) throws -> Step? {
        let written = try write(rules) { db -> ((ChangeKind, String?, [LogEntry], [LogEntry]), touched: [Date])? in
            let sql = undo ? "SELECT * FROM change WHERE NOT undone ORDER BY id DESC LIMIT 1"
                : "SELECT * FROM change WHERE undone ORDER BY id LIMIT 1"
            guard let change = try Row.fetchOne(db, sql: sql), let kind = ChangeKind(rawValue: change["kind"]) else { return nil }
            let id: Int64 = change["id"]
            let removed: [LogEntry], added: [LogEntry]
            if undo {
                // The rows the change added or replaced, as they are now, out; the rows it
                // removed or replaced back, with their ids.
                if let first: Int64 = change["addedFirst"], let last: Int64 = change["addedLast"] {
                    removed = try LogEntry.filter(LogEntry.Columns.id >= first && LogEntry.Columns.id <= last)
                        .order(LogEntry.Columns.id).fetchAll(db)
                    try LogEntry.filter(LogEntry.Columns.id >= first && LogEntry.Columns.id <= last).deleteAll(db)
                } else {
                    removed = []
                }
                added = try Self.decoded(change["before"])
                for var entry in added { try entry.insert(db) }
                try db.execute(sql: "UPDATE change SET undone = 1, after = ? WHERE id = ?", arguments: [try Self.encoded(removed), id])
            } else {
                removed = try Self.decoded(change["before"])
                try LogEntry.deleteAll(db, keys: removed.compactMap(\.id))
                added = try Self.decoded(change["after"])
                for var entry in added { try entry.insert(db) }
                try db.execute(sql: "UPDATE change SET undone = 0, after = NULL WHERE id = ?", arguments: [id])
            }
            // Every change took something out or put something in: one that did neither was
            // changed behind the journal's back, and is not said done (the transaction rolls back).
            guard !(removed + added).isEmpty else {
                throw StandFitError("The journal's \(kind.rawValue) change \(id) no longer matches the log; 'standfit-host run history' shows the log as it is.")
            }
            let label: String? = change["label"]
            return ((kind, label, removed, added), (removed + added).map(\.loggedAt))
        }
        guard let ((kind, label, removed, added), progression) = written else { return nil }
        return Step(kind: kind, label: label, removed: removed, added: added, progression: progression)
    }
}
