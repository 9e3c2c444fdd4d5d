import Foundation
import Glibc
import GRDB
import HostModel

extension HostBackup {
    /// What `restore` did.
    public struct Restored: Sendable, Encodable, Equatable {
        public var backup: Summary
        /// Where each tree it replaced was moved ("kept until you remove it").
        public var kept: [String]
        /// The live trees the backup has none of, left as they were.
        public var leftAlone: [String]
        /// Trust pins the backup held, not restored (`plugins trust` gives them again).
        public var trustDropped: Int
    }

    /// A backup written beside the live trees and checked, ready to take their place (`swap`),
    /// or to be thrown away (`discard`).
    public struct Staged: Sendable {
        public let backup: Summary
        let trees: [(live: URL, staging: URL)]
        public let leftAlone: [String]
        public let trustDropped: Int

        /// Removes the staged trees (a restore that does not go on).
        public func discard() {
            for tree in trees { try? FileManager.default.removeItem(at: tree.staging) }
        }
    }

    /// Writes the backup in `file` beside `paths`' trees and checks it: every name stays in its
    /// tree (no "..", no absolute or empty part, nothing but files and directories, a tree's
    /// root a directory), every database is sound (`PRAGMA integrity_check`) and of no newer
    /// schema than the one it would replace (or, for the host's state, than this host knows).
    /// The trust pins of the restored state are dropped: an archive may come from anywhere, and
    /// a pin is what lets a plugin's code into the host's process. Nothing live is touched; a
    /// failure removes what was staged.
    public static func stage(_ file: URL, over paths: HostPaths, now: Date) throws(HostError) -> Staged {
        let archive = try open(file)
        defer { try? archive.close() }
        var staged: [(live: URL, staging: URL)] = []
        var summary = Summary(path: file.path, files: 0, databases: 0, bytes: 0, made: now, skippedLinks: [])
        var leftAlone: [String] = []
        // The tree being written, until it is whole: what a failure midway removes besides `staged`.
        var extracting: URL?
        do {
            let made = try archive.read { db in try String.fetchOne(db, sql: "SELECT value FROM standfit_backup WHERE key = 'made'") }
            summary.made = made.flatMap { ISO8601DateFormatter().date(from: $0) } ?? now
            // The files the archive says are databases, by name.
            let listed = Set(try archive.read { db in
                try String.fetchAll(db, sql: "SELECT substr(CAST(key AS TEXT), 8) FROM standfit_backup WHERE substr(CAST(key AS TEXT), 1, 7) = 'schema:'")
            })
            for root in roots(paths) {
                let live = root.directory.resolvingSymlinksInPath()
                let staging = live.deletingLastPathComponent().appendingPathComponent(".\(live.lastPathComponent).restoring-\(UUID().uuidString)")
                extracting = staging
                let wrote = try extract(archive, root: root.name, into: staging, file: file, summary: &summary)
                extracting = nil
                if wrote {
                    staged.append((live, staging))
                    try checkDatabases(in: staging, live: live, root: root.name, listed: listed, file: file, summary: &summary)
                } else if FileManager.default.fileExists(atPath: live.path) {
                    leftAlone.append(live.path)
                }
            }
            guard !staged.isEmpty else { throw HostError(.backupInvalid, key: "restore.noTrees", ["path": file.path]) }
            let dropped = try staged.first { $0.live == roots(paths)[0].directory.resolvingSymlinksInPath() }
                .map { try dropTrust(in: $0.staging.appendingPathComponent(HostState.fileName)) } ?? 0
            return Staged(backup: summary, trees: staged, leftAlone: leftAlone, trustDropped: dropped)
        } catch {
            // Only this restore's own trees: another restore's staging beside them is not its to remove.
            for staging in staged.map(\.staging) + [extracting].compactMap({ $0 }) {
                try? FileManager.default.removeItem(at: staging)
            }
            if let error = error as? HostError { throw error }
            throw HostError(.io, key: "restore.failed", ["path": file.path, "why": HostState.describe(error)], cause: error)
        }
    }

    /// Puts the staged trees in place of the live ones, each live tree moved aside first (kept,
    /// named in the answer). A step that fails puts back what was done, and says where the data
    /// is if even that fails. Nothing may hold the databases open meanwhile: the caller stops
    /// the warm server and holds its build's lock.
    public static func swap(_ staged: Staged, now: Date) throws(HostError) -> Restored {
        let stamp = Self.stamp(now)
        var done: [(live: URL, staging: URL, aside: URL?)] = []
        /// Undoes `done`, newest first: the restored tree back to its staging name, the kept one
        /// back in place. What could not be put back is said.
        func rollBack() -> [String] {
            var stranded: [String] = []
            for step in done.reversed() {
                guard rename(step.live.path, step.staging.path) == 0 else {
                    if let aside = step.aside { stranded.append("\(step.live.path) ← \(aside.path)") }
                    continue
                }
                if let aside = step.aside, rename(aside.path, step.live.path) != 0 { stranded.append("\(step.live.path) ← \(aside.path)") }
            }
            staged.discard()
            return stranded
        }
        for tree in staged.trees {
            var aside: URL?
            if FileManager.default.fileExists(atPath: tree.live.path) {
                let name = Self.unused(tree.live.deletingLastPathComponent().appendingPathComponent("\(tree.live.lastPathComponent).before-restore-\(stamp)"))
                guard rename(tree.live.path, name.path) == 0 else {
                    let why = String(cString: strerror(errno))
                    throw swapFailure(tree.live, why, rollBack())
                }
                aside = name
            } else {
                try? FileManager.default.createDirectory(at: tree.live.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            guard rename(tree.staging.path, tree.live.path) == 0 else {
                let why = String(cString: strerror(errno))
                var stranded: [String] = []
                if let aside, rename(aside.path, tree.live.path) != 0 { stranded.append("\(tree.live.path) ← \(aside.path)") }
                throw swapFailure(tree.live, why, stranded + rollBack())
            }
            done.append((tree.live, tree.staging, aside))
        }
        for tree in staged.trees { syncDirectory(tree.live.deletingLastPathComponent()) }
        return Restored(backup: staged.backup, kept: done.compactMap { $0.aside?.path }, leftAlone: staged.leftAlone,
                        trustDropped: staged.trustDropped)
    }

    private static func swapFailure(_ live: URL, _ why: String, _ stranded: [String]) -> HostError {
        guard stranded.isEmpty else {
            return HostError(.io, key: "restore.stranded", ["path": live.path, "why": why, "moves": stranded.joined(separator: "; ")])
        }
        return HostError(.io, key: "restore.swap", ["path": live.path, "why": why])
    }

    /// Makes the renames in `directory` durable.
    private static func syncDirectory(_ directory: URL) {
        let descriptor = Glibc.open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// The archive at `file`, checked to be a backup of a format this host reads.
    public static func open(_ file: URL) throws(HostError) -> DatabaseQueue {
        var info = stat()
        // A FIFO or a device would block SQLite's open, or be no file at all.
        guard stat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(file.path, R_OK) == 0 else {
            throw HostError(.io, key: "restore.unreadable", ["path": file.path])
        }
        var configuration = Configuration()
        configuration.readonly = true
        let format: String?
        let archive: DatabaseQueue
        do {
            archive = try DatabaseQueue(path: file.path, configuration: configuration)
            format = try archive.read { db -> String? in
                guard try db.tableExists("sqlar"), try db.tableExists("standfit_backup") else { return nil }
                return try String.fetchOne(db, sql: "SELECT CAST(value AS TEXT) FROM standfit_backup WHERE key = 'format'")
            }
        } catch {
            throw HostError(.backupInvalid, key: "restore.notBackup", ["path": file.path])
        }
        guard let format, let number = Int(format) else {
            try? archive.close()
            throw HostError(.backupInvalid, key: "restore.notBackup", ["path": file.path])
        }
        guard number <= HostBackup.format else {
            try? archive.close()
            throw HostError(.backupInvalid, key: "restore.newerFormat", ["path": file.path, "format": format, "known": "\(HostBackup.format)"])
        }
        return archive
    }

    /// Writes the entries under `root/` into `staging`, read one at a time; false when the
    /// archive has no such tree.
    private static func extract(_ archive: DatabaseQueue, root: String, into staging: URL, file: URL,
                                summary: inout Summary) throws -> Bool {
        var wrote = false
        try archive.read { db in
            // Names compared exactly (LIKE would take "DATA/x" too), whatever their type.
            let rows = try Row.fetchCursor(db, sql: """
                SELECT CAST(name AS TEXT) AS name, mode, sz, data FROM sqlar
                WHERE CAST(name AS TEXT) = ? OR substr(CAST(name AS TEXT), 1, ?) = ? ORDER BY name
                """, arguments: [root, root.count + 1, root + "/"])
            while let row = try rows.next() {
                guard let name = row["name"] as String? else { continue }
                let relative = name == root ? "" : String(name.dropFirst(root.count + 1))
                // An archive is a file anyone may have handed over: a name that would leave the
                // tree (absolute, "..", empty parts) is refused, and so is any entry but a file
                // or directory, and a tree whose root is not a directory.
                let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
                guard relative.isEmpty || parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
                    throw HostError(.backupInvalid, key: "restore.badName", ["path": file.path, "name": name])
                }
                guard let rawMode = row["mode"] as Int?, let size = row["sz"] as Int? else {
                    throw HostError(.backupInvalid, key: "restore.badEntry", ["path": file.path, "name": name])
                }
                let mode = mode_t(truncatingIfNeeded: rawMode)
                let target = relative.isEmpty ? staging : staging.appendingPathComponent(relative)
                if !wrote {
                    // The tree's root comes first (names sort so) and is a directory.
                    guard relative.isEmpty, mode & S_IFMT == S_IFDIR else {
                        throw HostError(.backupInvalid, key: "restore.badEntry", ["path": file.path, "name": name])
                    }
                    try? FileManager.default.createDirectory(at: staging.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                             attributes: [.posixPermissions: 0o700])
                    guard mkdir(staging.path, 0o700) == 0 else {
                        throw HostError(.io, key: "error.write", ["path": staging.path, "why": String(cString: strerror(errno))])
                    }
                    wrote = true
                    summary.files += 1
                    continue
                }
                switch mode & S_IFMT {
                case S_IFDIR:
                    guard mkdir(target.path, 0o700) == 0 || errno == EEXIST else {
                        throw HostError(.io, key: "error.write", ["path": target.path, "why": String(cString: strerror(errno))])
                    }
                    summary.files += 1
                case S_IFREG:
                    let data: Data = (row["data"] as Data?) ?? Data()
                    guard size == data.count else {
                        // sqlar compresses an entry when that makes it smaller; this host never does.
                        throw HostError(.backupInvalid, key: "restore.compressed", ["path": file.path, "name": name])
                    }
                    try writeNew(target, data, mode: mode & 0o777 | 0o600, name: name, file: file)
                    summary.files += 1
                    summary.bytes += Int64(data.count)
                default:
                    throw HostError(.backupInvalid, key: "restore.badEntry", ["path": file.path, "name": name])
                }
            }
        }
        return wrote
    }

    /// Writes `data` to the new file `url` (never one that exists: a name the archive holds twice
    /// is refused), whole and synced.
    private static func writeNew(_ url: URL, _ data: Data, mode: mode_t, name: String, file: URL) throws {
        let descriptor = Glibc.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw HostError(.backupInvalid, key: "restore.badEntry", ["path": file.path, "name": name]) }
            throw HostError(.io, key: "error.write", ["path": url.path, "why": String(cString: strerror(errno))])
        }
        defer { close(descriptor) }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        guard failure == 0 else {
            throw HostError(.io, key: "error.write", ["path": url.path, "why": String(cString: strerror(failure))])
        }
    }

    /// Every database in the staged tree (found by its header, and every file the archive says
    /// is one) must be sound, and of no newer schema than the live one of the same name or, for the
    /// host's state, than this host's own migrations.
    private static func checkDatabases(in staging: URL, live: URL, root: String, listed: Set<String>, file: URL, summary: inout Summary) throws {
        guard let walker = FileManager.default.enumerator(atPath: staging.path) else { return }
        for case let relative as String in walker {
            let url = staging.appendingPathComponent(relative)
            let name = root + "/" + relative
            // A database by its header, or by the archive's word (one whose bytes were spoilt).
            guard DatabaseHealth.isDatabase(url) || listed.contains(name) else { continue }
            var configuration = Configuration()
            configuration.readonly = true
            var verdict: [String]
            var has: [String] = []
            do {
                let restored = try DatabaseQueue(path: url.path, configuration: configuration)
                verdict = try restored.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
                has = try restored.read(HostBackup.migrations)
                try restored.close()
            } catch {
                verdict = [HostState.describe(error)]
            }
            guard verdict == ["ok"] else {
                throw HostError(.backupInvalid, key: "restore.damaged", ["path": file.path, "name": name, "verdict": verdict.prefix(3).joined(separator: "; ")])
            }
            summary.databases += 1
            var known: Set<String>?
            let counterpart = live.appendingPathComponent(relative)
            if relative == HostState.fileName {
                known = Set(HostState.migrator.migrations)
            } else if DatabaseHealth.isDatabase(counterpart),
                      let current = try? DatabaseQueue(path: counterpart.path, configuration: configuration) {
                let migrations = (try? current.read(HostBackup.migrations)) ?? []
                try? current.close()
                if !migrations.isEmpty { known = Set(migrations) }
            }
            let newer = has.filter { !(known?.contains($0) ?? true) }
            guard newer.isEmpty else {
                throw HostError(.backupInvalid, key: "restore.newerSchema", ["path": file.path, "name": name, "migrations": newer.joined(separator: ", ")])
            }
        }
    }

    /// Removes the trust pins from the staged state at `url`; how many there were.
    private static func dropTrust(in url: URL) throws -> Int {
        guard DatabaseHealth.isDatabase(url) else { return 0 }
        let state = try DatabaseQueue(path: url.path)
        defer { try? state.close() }
        return try state.write { db in
            guard try db.tableExists("trustedPlugin") else { return 0 }
            try db.execute(sql: "DELETE FROM trustedPlugin")
            return db.changesCount
        }
    }

    /// `url`, or with "-2", "-3"… after it when that is taken (two restores in one second).
    static func unused(_ url: URL) -> URL {
        var candidate = url, number = 1
        while FileManager.default.fileExists(atPath: candidate.path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: candidate.path)) != nil {
            number += 1
            candidate = url.deletingLastPathComponent().appendingPathComponent("\(url.lastPathComponent)-\(number)")
        }
        return candidate
    }

    /// `now` as a name's part: 20261122-140500.
    static func stamp(_ now: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
        return String(format: "%04d%02d%02d-%02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }
}
