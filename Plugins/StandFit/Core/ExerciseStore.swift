import Foundation
import GRDB

/// StandFit's log, in SQLite through GRDB: `standfit.sqlite` in the plugin's data directory.
///
/// A `DatabasePool` puts the database in WAL mode, so readers never block the writer; every
/// change is one transaction, and a busy database is waited on (several `run`s at once are
/// normal: a script and a desktop click). Nothing is cached in memory between calls.
public struct ExerciseStore: Sendable {
    public let url: URL
    private let pool: DatabasePool

    public init(directory: URL) throws {
        url = directory.appendingPathComponent("standfit.sqlite")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // Opened and migrated under a lock: several `run`s may create the file at once.
        pool = try DirectoryLock.withExclusiveLock(on: directory) { [path = url.path] in
            let pool = try DatabasePool(path: path, configuration: configuration)
            try ExerciseStore.migrator.migrate(pool)
            return pool
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: LogEntry.databaseTableName) { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("exercise", .text).notNull()
                table.column("count", .integer).notNull().check { $0 > 0 }
                table.column("note", .text)
                table.column("loggedAt", .datetime).notNull().indexed()
            }
        }
        return migrator
    }

    /// Appends one entry and returns it with its id.
    public func log(_ entry: LogEntry) throws -> LogEntry {
        try pool.write { db in
            var entry = entry
            try entry.insert(db)
            return entry
        }
    }

    /// The most recent entry, or nil when nothing is logged.
    public func last() throws -> LogEntry? {
        try pool.read { db in
            try LogEntry.order(LogEntry.Columns.loggedAt.desc, LogEntry.Columns.id.desc).fetchOne(db)
        }
    }

    /// Each logged exercise's most recent count, most recently logged first.
    public func recentCounts() throws -> [(exercise: String, count: Int)] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT exercise, count FROM log AS entry
                WHERE id = (SELECT id FROM log WHERE exercise = entry.exercise ORDER BY loggedAt DESC, id DESC LIMIT 1)
                ORDER BY loggedAt DESC, id DESC
                """).map { (exercise: $0["exercise"], count: $0["count"]) }
        }
    }

    /// Removes the most recent entry and returns it; nil when there is none. One transaction,
    /// so two undos at once remove two different entries.
    public func removeLast() throws -> LogEntry? {
        try pool.write { db in
            guard let entry = try LogEntry.order(LogEntry.Columns.loggedAt.desc, LogEntry.Columns.id.desc).fetchOne(db)
            else { return nil }
            try entry.delete(db)
            return entry
        }
    }

    /// Entries logged in `interval` (start inclusive, end exclusive), oldest first.
    public func entries(in interval: DateInterval) throws -> [LogEntry] {
        try pool.read { db in
            try LogEntry
                .filter(LogEntry.Columns.loggedAt >= interval.start && LogEntry.Columns.loggedAt < interval.end)
                .order(LogEntry.Columns.loggedAt, LogEntry.Columns.id)
                .fetchAll(db)
        }
    }

    /// The instants of every entry up to `end`, newest first: what a streak is counted from.
    public func logTimes(before end: Date) throws -> [Date] {
        try pool.read { db in
            try Date.fetchAll(db, LogEntry
                .select(LogEntry.Columns.loggedAt)
                .filter(LogEntry.Columns.loggedAt < end)
                .order(LogEntry.Columns.loggedAt.desc))
        }
    }

    /// Whether anything is logged at all.
    public func isEmpty() throws -> Bool {
        try pool.read { db in try LogEntry.fetchCount(db) == 0 }
    }
}
