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
    let pools: Pools

    /// This database's own id (`meta.storeID`): empty for one that had entries before ids were
    /// given, else eight hex digits.
    public func storeID() throws -> String {
        try pools.reader().read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'storeID'") } ?? ""
    }

    public init(directory: URL) throws {
        url = directory.appendingPathComponent("standfit.sqlite")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        pools = Pools(directory: directory, path: url.path)
        try pools.openReader()
    }

    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return configuration
    }

    /// Closes the log: the read-only pool first, then the writable one, each by releasing it
    /// (GRDB's `close()` closes a pool's writer before its readers, so the last connection
    /// would be a reader that cannot fold the write-ahead log back). So no `-wal` or `-shm`
    /// file stays behind.
    public func close() {
        pools.close()
    }

    /// Where reads go: a read-only pool when the log exists and is up to date, so that a read
    /// never takes the write lock (opening a writable pool can write: GRDB sets up WAL mode,
    /// and a migration check begins a write transaction) and never waits for another process
    /// that holds it; else the writable pool. Changes go to the writable pool, opened and
    /// migrated on the first change, under a lock: several `run`s may create the file at once.
    final class Pools: Sendable {
        let directory: URL
        let path: String
        private let opened = Mutex<(reader: DatabasePool?, writer: DatabasePool?)>((nil, nil))

        init(directory: URL, path: String) {
            self.directory = directory
            self.path = path
        }

        func openReader() throws {
            if let pool = readOnlyPool() {
                opened.withLock { $0.reader = pool }
            } else {
                _ = try writer()
            }
        }

        /// A read-only pool on a log that exists and has every migration; nil otherwise.
        private func readOnlyPool() -> DatabasePool? {
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            var configuration = ExerciseStore.configuration
            configuration.readonly = true
            guard let pool = try? DatabasePool(path: path, configuration: configuration),
                  (try? pool.read({ db in try ExerciseStore.migrator.hasCompletedMigrations(db) })) == true else { return nil }
            return pool
        }

        func reader() throws -> DatabasePool {
            if let reader = opened.withLock({ $0.reader }) { return reader }
            return try writer()
        }

        func writer() throws -> DatabasePool {
            try opened.withLock { opened in
                if let writer = opened.writer { return writer }
                let pool: DatabasePool
                do {
                    pool = try DirectoryLock.withExclusiveLock(on: directory) { [path] in
                        let pool = try DatabasePool(path: path, configuration: ExerciseStore.configuration)
                        try ExerciseStore.migrator.migrate(pool)
                        return pool
                    }
                } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
                    // Say which file, and the way out, rather than SQLite's words alone.
                    throw StandFitError("StandFit's log \(path) is damaged (\(error.message ?? "\(error.resultCode)")); restore it from a backup, or move it aside to start afresh with an empty log.")
                }
                opened.writer = pool
                return pool
            }
        }

        func close() {
            opened.withLock { $0.reader = nil }
            let wroteNothing = opened.withLock { opened in
                defer { opened.writer = nil }
                return opened.writer == nil
            }
            // A read-only connection cannot remove the `-wal` and `-shm` files it made. A
            // writable one can, as the last to close: open one briefly, unless another process
            // holds the write lock now (then it removes them itself).
            guard wroteNothing, FileManager.default.fileExists(atPath: path + "-wal") else { return }
            var configuration = ExerciseStore.configuration
            configuration.busyMode = .immediateError
            _ = try? DatabaseQueue(path: path, configuration: configuration)
        }
    }

    /// How XP and achievements are derived: the user's calendar (days, weeks, early mornings)
    /// and the exercises.
    public struct Rules: Sendable {
        public var calendar: Calendar
        public var catalogue: ExerciseCatalogue
        /// The user's own timed exercises (their unit never changes, so the stored states hold).
        public var timed: Set<String> = []
        /// Every goal ever set, oldest first: achievements follow them. The store sets them from
        /// its own transaction (`withGoals(of:)`) for every change and read it folds.
        public var goals: [Goal] = []

        /// Whether a log of `exercise` is counted in seconds (a goal in total counts reps only).
        public func isTimed(_ exercise: String) -> Bool {
            timed.contains(exercise) || catalogue.exercise(id: exercise)?.unit == .seconds
        }

        /// These rules with the goals `db` holds.
        func withGoals(of db: Database) throws -> Rules {
            var rules = self
            rules.goals = try ExerciseStore.goals(db)
            return rules
        }

        public init(calendar: Calendar, catalogue: ExerciseCatalogue, timed: Set<String> = [], goals: [Goal] = []) {
            self.calendar = calendar
            self.catalogue = catalogue
            self.timed = timed
            self.goals = goals
        }
    }

    /// The XP and achievements the log supports now: from the stored states, when they hold
    /// for `rules` (else by a replay of the log).
    public func progression(_ rules: Rules) throws -> Progression {
        try pools.reader().read { db in try ProgressDays.progression(db, try rules.withGoals(of: db)) }
    }

    /// When each earned achievement was stored as earned, by id.
    public func storedAchievements() throws -> [String: Date] {
        try pools.reader().read { db in
            guard try db.tableExists("achievement") else { return [:] }
            return Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, earnedAt FROM achievement")
                .map { row -> (String, Date) in (row["id"], row["earnedAt"]) })
        }
    }

    /// The progression before and after one change, both read in the change's transaction, so
    /// another process's change never counts as this one's.
    public typealias ProgressionChange = (before: Progression, after: Progression)

    /// Runs `change` in one write transaction and, with `rules`, brings the stored XP, states
    /// and achievements in line with the log from the days the change touched (the instants it
    /// answers besides its result); the progression before and after.
    func write<T>(_ rules: Rules?, _ change: @escaping (Database) throws -> (T, touched: [Date])?) throws -> (T, ProgressionChange?)? {
        let writer = try pools.writer()
        let written = try writer.write { db -> (T, ProgressionChange?)? in
            // The goals as this transaction reads them: a goal set by another process between
            // the caller's read and this write is the one the change is folded under.
            let rules = try rules.map { try $0.withGoals(of: db) }
            let before = try rules.map { try ProgressDays.progression(db, $0) }
            guard let (result, touched) = try change(db) else { return nil }
            guard let rules, let before else {
                // Changed without the rules: the stored day states no longer hold, and the next
                // change with them folds the log again.
                try db.execute(sql: "DELETE FROM progressRules")
                return (result, nil)
            }
            let after = try ProgressDays.update(db, touched: touched, rules: rules)
            return (result, (before, Progression(state: after, catalogue: rules.catalogue, goals: !rules.goals.isEmpty)))
        }
        // The change folded into the database file at once (a passive checkpoint, which waits
        // for no one): a plain copy of standfit.sqlite alone, taken while the warm worker keeps
        // the log open, holds it too. (`standfit-host backup` needs no such help.)
        _ = try? writer.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        return written
    }

    /// Appends one entry and returns it with its id; with `rules`, also the progression before
    /// and after it.
    @discardableResult
    public func log(_ entry: LogEntry, rules: Rules? = nil) throws -> (entry: LogEntry, progression: ProgressionChange?) {
        let written = try write(rules) { db -> (LogEntry, touched: [Date])? in
            var entry = entry
            try entry.insert(db)
            try ExerciseStore.record(db, .log, before: [], added: entry.id.map { $0...$0 })
            return (entry, [entry.loggedAt])
        }
        guard let (entry, progression) = written else { throw StandFitError("The log did not take the entry.") }
        return (entry, progression)
    }

    /// The most recent entry, or nil when nothing is logged.
    public func last() throws -> LogEntry? {
        try pools.reader().read { db in
            try LogEntry.order(LogEntry.Columns.loggedAt.desc, LogEntry.Columns.id.desc).fetchOne(db)
        }
    }

    /// The most recent count of each of `exercises` that was logged, most recently logged
    /// first: one lookup per exercise in the (exercise, loggedAt) index, whatever the history.
    public func recentCounts(of exercises: [String]) throws -> [(exercise: String, count: Int)] {
        try pools.reader().read { db in
            let latest = try db.cachedStatement(sql: """
                SELECT count, loggedAt, id FROM log WHERE exercise = ? ORDER BY loggedAt DESC, id DESC LIMIT 1
                """)
            var found: [(exercise: String, count: Int, at: Date, id: Int64)] = []
            for exercise in exercises {
                guard let row = try Row.fetchOne(latest, arguments: [exercise]) else { continue }
                found.append((exercise, row["count"], row["loggedAt"], row["id"]))
            }
            return found.sorted { ($0.at, $0.id) > ($1.at, $1.id) }.map { ($0.exercise, $0.count) }
        }
    }

    /// Removes the entry logged last and returns it; nil when there is none. The last one
    /// logged is the one most recently made (the highest id), whatever moment it was logged for:
    /// undo after a backfill ("at=yesterday") removes the backfill, not today's newest. One
    /// transaction, so two undos at once remove two different entries. The undo of a log from
    /// before the journal (`undoLast` undoes what the journal recorded).
    public func removeLast(rules: Rules? = nil) throws -> (entry: LogEntry, progression: ProgressionChange?)? {
        try write(rules) { db -> (LogEntry, touched: [Date])? in
            guard let entry = try LogEntry.order(LogEntry.Columns.id.desc).fetchOne(db)
            else { return nil }
            try entry.delete(db)
            return (entry, [entry.loggedAt])
        }
    }

    /// Removes entry `id` and returns it; nil when there is none.
    public func remove(id: Int64, rules: Rules? = nil) throws -> (entry: LogEntry, progression: ProgressionChange?)? {
        try write(rules) { db -> (LogEntry, touched: [Date])? in
            guard let entry = try LogEntry.fetchOne(db, key: id) else { return nil }
            try entry.delete(db)
            try ExerciseStore.record(db, .delete, before: [entry], added: nil)
            return (entry, [entry.loggedAt])
        }
    }

    /// Changes entry `id`: its count when `count` is given, its note when `note` is (an empty
    /// note removes it), when it was done when `loggedAt` is. The entry as it was and as it is now, in one transaction; nil when
    /// there is none.
    public func update(id: Int64, count: Int?, note: String?, loggedAt: Date? = nil,
                       rules: Rules? = nil) throws -> (before: LogEntry, after: LogEntry, progression: ProgressionChange?)? {
        let written = try write(rules) { db -> ((LogEntry, LogEntry), touched: [Date])? in
            guard let before = try LogEntry.fetchOne(db, key: id) else { return nil }
            var after = before
            if let count { after.count = count }
            if let note { after.note = note.isEmpty ? nil : note }
            if let loggedAt { after.loggedAt = loggedAt }
            try after.update(db)
            try ExerciseStore.record(db, .edit, before: [before], added: id...id)
            return ((before, after), [before.loggedAt, after.loggedAt])
        }
        return written.map { ($0.0.0, $0.0.1, $0.1) }
    }

    /// A page of the entries logged in `interval` (start inclusive, end exclusive), of
    /// `exercise` only when given, newest first: at most `limit`, older than entry `before`
    /// when given; and how many more of them are older than the page. Read through the
    /// indexes: a page costs its own entries, not the range's.
    public func page(in interval: DateInterval, exercise: String?, before: Int64?, limit: Int?)
        throws -> (entries: [LogEntry], more: Int)? {
        try pools.reader().read { db in
            var request = LogEntry.filter(LogEntry.Columns.loggedAt >= interval.start && LogEntry.Columns.loggedAt < interval.end)
            if let exercise { request = request.filter(Column("exercise") == exercise) }
            if let before {
                guard let anchor = try LogEntry.fetchOne(db, key: before) else { return nil }
                request = request.filter(LogEntry.Columns.loggedAt < anchor.loggedAt
                    || (LogEntry.Columns.loggedAt == anchor.loggedAt && LogEntry.Columns.id < before))
            }
            let ordered = request.order(LogEntry.Columns.loggedAt.desc, LogEntry.Columns.id.desc)
            guard let limit else { return (try ordered.fetchAll(db), 0) }
            let entries = try ordered.limit(limit).fetchAll(db)
            return (entries, entries.count < limit ? 0 : try request.fetchCount(db) - entries.count)
        }
    }

    /// Entries logged in `interval` (start inclusive, end exclusive), oldest first.
    public func entries(in interval: DateInterval) throws -> [LogEntry] {
        try pools.reader().read { db in
            try LogEntry
                .filter(LogEntry.Columns.loggedAt >= interval.start && LogEntry.Columns.loggedAt < interval.end)
                .order(LogEntry.Columns.loggedAt, LogEntry.Columns.id)
                .fetchAll(db)
        }
    }

    /// The streak at `now`, reading log instants newest first through the index only as far
    /// back as the streak goes.
    public func streak(now: Date, calendar: Calendar) throws -> Streak {
        guard let tomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) else {
            return Streak(days: 0, includesToday: false)
        }
        return try pools.reader().read { db in
            let times = try Date.fetchCursor(db, LogEntry.select(LogEntry.Columns.loggedAt)
                .filter(LogEntry.Columns.loggedAt < tomorrow).order(LogEntry.Columns.loggedAt.desc))
            return try Streak(now: now, calendar: calendar) { try times.next() }
        }
    }
}
