import Foundation
import GRDB
import Synchronization

/// StandFit's log, in SQLite through GRDB: `standfit.sqlite` in the plugin's data directory.
///
/// A `DatabasePool` puts the database in WAL mode, so readers never block the writer; every
/// change is one transaction, and a busy database is waited on (several `run`s at once are
/// normal: a script and a desktop click). Nothing is cached in memory between calls.
public struct ExerciseStore: Sendable {
    public let url: URL
    /// Where reads go: a read-only pool when the log exists and is up to date, so that a read
    /// never takes the write lock (opening a writable pool can write: GRDB sets up WAL mode,
    /// and a migration check begins a write transaction) and never waits for another process
    /// that holds it; else the writable pool.
    private let reader: DatabasePool
    /// Where changes go, opened on the first change.
    private let writer: Writer

    public init(directory: URL) throws {
        url = directory.appendingPathComponent("standfit.sqlite")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        writer = Writer(directory: directory, path: url.path)
        if let reader = ExerciseStore.openReadOnly(url.path) {
            self.reader = reader
        } else {
            reader = try writer.pool()
        }
    }

    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return configuration
    }

    /// A read-only pool on a log that exists and has every migration; nil otherwise.
    private static func openReadOnly(_ path: String) -> DatabasePool? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var configuration = configuration
        configuration.readonly = true
        guard let pool = try? DatabasePool(path: path, configuration: configuration),
              (try? pool.read({ db in try migrator.hasCompletedMigrations(db) })) == true else { return nil }
        return pool
    }

    /// Closes the log: the read-only pool first, then the writable one, so that the last
    /// connection to close can fold the write-ahead log back into the database and no `-wal`
    /// or `-shm` file stays behind.
    public func close() {
        try? reader.close()
        writer.close()
    }

    /// The writable pool, opened and migrated once, under a lock: several `run`s may create the
    /// file at once.
    final class Writer: Sendable {
        let directory: URL
        let path: String
        private let opened = Mutex<DatabasePool?>(nil)

        init(directory: URL, path: String) {
            self.directory = directory
            self.path = path
        }

        func pool() throws -> DatabasePool {
            try opened.withLock { opened in
                if let opened { return opened }
                let pool = try DirectoryLock.withExclusiveLock(on: directory) { [path] in
                    let pool = try DatabasePool(path: path, configuration: ExerciseStore.configuration)
                    try ExerciseStore.migrator.migrate(pool)
                    return pool
                }
                opened = pool
                return pool
            }
        }

        func close() {
            opened.withLock { opened in
                try? opened?.close()
                opened = nil
            }
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
        try writer.pool().write { db in
            var entry = entry
            try entry.insert(db)
            return entry
        }
    }

    /// The most recent entry, or nil when nothing is logged.
    public func last() throws -> LogEntry? {
        try reader.read { db in
            try LogEntry.order(LogEntry.Columns.loggedAt.desc, LogEntry.Columns.id.desc).fetchOne(db)
        }
    }

    /// Each logged exercise's most recent count, most recently logged first.
    public func recentCounts() throws -> [(exercise: String, count: Int)] {
        try reader.read { db in
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
        try writer.pool().write { db in
            guard let entry = try LogEntry.order(LogEntry.Columns.loggedAt.desc, LogEntry.Columns.id.desc).fetchOne(db)
            else { return nil }
            try entry.delete(db)
            return entry
        }
    }

    /// Entries logged in `interval` (start inclusive, end exclusive), oldest first.
    public func entries(in interval: DateInterval) throws -> [LogEntry] {
        try reader.read { db in
            try LogEntry
                .filter(LogEntry.Columns.loggedAt >= interval.start && LogEntry.Columns.loggedAt < interval.end)
                .order(LogEntry.Columns.loggedAt, LogEntry.Columns.id)
                .fetchAll(db)
        }
    }

    /// The instants of every entry up to `end`, newest first: what a streak is counted from.
    public func logTimes(before end: Date) throws -> [Date] {
        try reader.read { db in
            try Date.fetchAll(db, LogEntry
                .select(LogEntry.Columns.loggedAt)
                .filter(LogEntry.Columns.loggedAt < end)
                .order(LogEntry.Columns.loggedAt.desc))
        }
    }

    /// Whether anything is logged at all.
    public func isEmpty() throws -> Bool {
        try reader.read { db in try LogEntry.fetchCount(db) == 0 }
    }
}
