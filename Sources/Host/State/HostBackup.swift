import Foundation
import Glibc
import GRDB
import HostModel

/// A backup of everything a user keeps in the host: `$XDG_DATA_HOME/standfit` (the host's state,
/// every plugin's data, the user's plugins) and `$XDG_CONFIG_HOME/standfit` (manifest, settings,
/// routines), as one file in the SQLite Archive format (the `sqlar` table `sqlite3 -A` reads and
/// writes), with a table of its own saying what it is.
///
/// Every SQLite database in those trees is copied through SQLite's online backup, in one read
/// transaction: a snapshot of what was committed when it started, whatever the warm server's
/// workers write meanwhile (a copy of a live WAL database's file would lose what is still in its
/// WAL). Other files are copied as they are; links are not followed and not kept.
///
/// Rationale: the archive is written with GRDB (SQLite), not a tar library: SQLite Archives are
/// SQLite's own documented format, readable with the sqlite3 shell, and none of the packages
/// this project may use writes tar.
public enum HostBackup {
    /// The archive's format; a restore refuses a newer one.
    public static let format = 1

    /// The trees a backup holds, each under its name in the archive.
    public static func roots(_ paths: HostPaths) -> [(name: String, directory: URL)] {
        [("data", paths.dataDirectory), ("config", paths.configDirectory)]
    }

    /// What a backup holds, as `backup` and `restore` report it.
    public struct Summary: Sendable, Encodable, Equatable {
        public var path: String
        /// Files (databases among them) and directories.
        public var files: Int
        public var databases: Int
        public var bytes: Int64
        public var made: Date
        /// Links met and left out (their targets are not the host's).
        public var skippedLinks: [String]
    }

    /// File names never backed up: SQLite's WAL, shared-memory and journal files, whose content
    /// the online backup of their database already holds.
    static func isSideFile(_ name: String) -> Bool {
        name.hasSuffix("-wal") || name.hasSuffix("-shm") || name.hasSuffix("-journal")
    }

    /// Writes the backup of `paths` to `file`: first to a file beside it, renamed over it once
    /// whole, so a failed backup leaves no half-written archive (and an earlier one at `file`
    /// untouched).
    public static func write(_ paths: HostPaths, to file: URL, now: Date) throws(HostError) -> Summary {
        // Compared as the file system has them: a target reached through a link is still inside.
        let folder = file.deletingLastPathComponent().resolvingSymlinksInPath()
        let target = folder.appendingPathComponent(file.lastPathComponent)
        for root in roots(paths) {
            let directory = root.directory.resolvingSymlinksInPath().path
            if target.path == directory || target.path.hasPrefix(directory + "/") {
                throw HostError(.io, key: "backup.inside", ["path": file.path, "directory": root.directory.path])
            }
        }
        // Its own names beside the target, made by this backup alone (two backups to one file
        // at once, in one warm server, each write their own), private from the start: the
        // archive, and the databases' snapshots on their way into it.
        let token = UUID().uuidString
        let partial = folder.appendingPathComponent(".\(target.lastPathComponent).partial-\(token)")
        let snapshots = folder.appendingPathComponent(".\(target.lastPathComponent).snapshots-\(token)")
        let created = Glibc.open(partial.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard created >= 0 else {
            throw HostError(.io, key: "error.write", ["path": file.path, "why": String(cString: strerror(errno))])
        }
        close(created)
        defer { try? FileManager.default.removeItem(at: snapshots) }
        var summary = Summary(path: target.path, files: 0, databases: 0, bytes: 0, made: now, skippedLinks: [])
        do {
            guard mkdir(snapshots.path, 0o700) == 0 else {
                throw HostError(.io, key: "error.write", ["path": file.path, "why": String(cString: strerror(errno))])
            }
            let archive = try DatabaseQueue(path: partial.path)
            try archive.write { db in
                try db.execute(sql: """
                    CREATE TABLE sqlar(name TEXT PRIMARY KEY, mode INT, mtime INT, sz INT, data BLOB);
                    CREATE TABLE standfit_backup(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    """)
                try info(db, "format", "\(format)")
                try info(db, "made", ISO8601DateFormatter().string(from: now))
                for root in roots(paths) {
                    // A tree that is a link (a dotfiles checkout) is backed up as what it links to.
                    try add(root.directory.resolvingSymlinksInPath(), as: root.name, to: db, snapshots: snapshots, summary: &summary)
                }
            }
            try archive.close()
            guard rename(partial.path, target.path) == 0 else {
                throw HostError(.io, key: "error.write", ["path": target.path, "why": String(cString: strerror(errno))])
            }
        } catch let error as HostError {
            unlink(partial.path)
            throw error
        } catch {
            unlink(partial.path)
            throw HostError(.io, key: "error.write", ["path": target.path, "why": HostState.describe(error)], cause: error)
        }
        return summary
    }

    private static func info(_ db: Database, _ key: String, _ value: String) throws {
        try db.execute(sql: "INSERT INTO standfit_backup (key, value) VALUES (?, ?)", arguments: [key, value])
    }

    /// Adds `directory` and everything under it, as `name` and `name/…`.
    private static func add(_ directory: URL, as name: String, to db: Database, snapshots: URL, summary: inout Summary) throws {
        var info = stat()
        guard lstat(directory.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return }
        try entry(db, name, mode: info.st_mode, mtime: info.st_mtim.tv_sec, data: Data())
        summary.files += 1
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for child in names where !isSideFile(child) {
            let url = directory.appendingPathComponent(child)
            let entryName = name + "/" + child
            guard lstat(url.path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                try add(url, as: entryName, to: db, snapshots: snapshots, summary: &summary)
            case S_IFREG:
                let data: Data
                if DatabaseHealth.isDatabase(url) {
                    let (copy, migrations) = try snapshot(url, into: snapshots)
                    data = copy
                    summary.databases += 1
                    try HostBackup.info(db, "schema:" + entryName, migrations.joined(separator: " "))
                } else {
                    data = try Data(contentsOf: url)
                }
                try entry(db, entryName, mode: info.st_mode, mtime: info.st_mtim.tv_sec, data: data)
                summary.files += 1
                summary.bytes += Int64(data.count)
            case S_IFLNK:
                summary.skippedLinks.append(url.path)
            default:
                // A FIFO or socket (the warm server's is not here): nothing a backup can hold.
                continue
            }
        }
    }

    private static func entry(_ db: Database, _ name: String, mode: mode_t, mtime: Int, data: Data) throws {
        // sz equal to the data's length: stored as it is (sqlar compresses only when smaller).
        try db.execute(sql: "INSERT INTO sqlar (name, mode, mtime, sz, data) VALUES (?, ?, ?, ?, ?)",
                       arguments: [name, Int(mode), mtime, data.count, data])
    }

    /// The database at `url` as of one read transaction, through SQLite's online backup (by way
    /// of a file in the private directory `snapshots`), and the GRDB migrations it has (none for
    /// a database GRDB did not migrate).
    static func snapshot(_ url: URL, into snapshots: URL) throws -> (Data, [String]) {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let source = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? source.close() }
        let copy = snapshots.appendingPathComponent(UUID().uuidString)
        defer { unlink(copy.path) }
        let destination = try DatabaseQueue(path: copy.path)
        try source.backup(to: destination)
        // The copy in rollback-journal mode, one file: its bytes are the whole database.
        try destination.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
        let migrations = try destination.read(migrations)
        try destination.close()
        return (try Data(contentsOf: copy), migrations)
    }

    /// The identifiers of the GRDB migrations `db` has, sorted.
    static func migrations(_ db: Database) throws -> [String] {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
    }
}
