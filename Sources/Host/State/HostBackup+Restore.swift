import Foundation
import GRDB
import HostModel

extension HostBackup {
    /// What `restore` did.
    public struct Restored: Sendable, Encodable, Equatable {
        public var backup: Summary
        /// Where each tree it replaced was moved ("kept until you remove it").
        public var kept: [String]
    }

    /// Restores the backup in `file` over `paths`' trees. Each tree is written beside the live
    /// one first and checked (every database by `PRAGMA integrity_check`; no database from a
    /// newer schema than the live one's); only then is the live tree moved aside (kept, named in
    /// the answer) and the restored one put in its place, so a restore that fails leaves the
    /// current data as it was. Nothing may hold the databases open meanwhile: the caller stops
    /// the warm server first.
    public static func restore(_ file: URL, over paths: HostPaths, now: Date) throws(HostError) -> Restored {
        let archive = try open(file)
        defer { try? archive.close() }
        let stamp = Self.stamp(now)
        var staged: [(live: URL, staging: URL)] = []
        var summary = Summary(path: file.path, files: 0, databases: 0, bytes: 0, made: now, skippedLinks: [])
        do {
            let made = try archive.read { db in try String.fetchOne(db, sql: "SELECT value FROM standfit_backup WHERE key = 'made'") }
            summary.made = made.flatMap { ISO8601DateFormatter().date(from: $0) } ?? now
            for root in roots(paths) {
                let staging = root.directory.deletingLastPathComponent().appendingPathComponent(".\(root.directory.lastPathComponent).restoring-\(stamp)")
                try? FileManager.default.removeItem(at: staging)
                let wrote = try extract(archive, root: root.name, into: staging, live: root.directory, file: file, summary: &summary)
                if wrote { staged.append((root.directory, staging)) }
            }
        } catch {
            for tree in staged { try? FileManager.default.removeItem(at: tree.staging) }
            for root in roots(paths) {
                let staging = root.directory.deletingLastPathComponent().appendingPathComponent(".\(root.directory.lastPathComponent).restoring-\(stamp)")
                try? FileManager.default.removeItem(at: staging)
            }
            if let error = error as? HostError { throw error }
            throw HostError(.io, key: "restore.failed", ["path": file.path, "why": HostState.describe(error)], cause: error)
        }
        // Every tree is whole beside the live one: now the swap, each a rename and put back if
        // the next one fails.
        var kept: [String] = [], swapped: [(live: URL, aside: URL?)] = []
        for tree in staged {
            let aside = Self.unused(tree.live.deletingLastPathComponent().appendingPathComponent("\(tree.live.lastPathComponent).before-restore-\(stamp)"))
            let hadLive = FileManager.default.fileExists(atPath: tree.live.path)
            if hadLive, rename(tree.live.path, aside.path) != 0 || rename(tree.staging.path, tree.live.path) != 0 {
                let why = String(cString: strerror(errno))
                if !FileManager.default.fileExists(atPath: tree.live.path) { rename(aside.path, tree.live.path) }
                for done in swapped.reversed() {
                    try? FileManager.default.removeItem(at: done.live)
                    if let aside = done.aside { rename(aside.path, done.live.path) }
                }
                for tree in staged { try? FileManager.default.removeItem(at: tree.staging) }
                throw HostError(.io, key: "restore.swap", ["path": tree.live.path, "why": why])
            }
            if !hadLive {
                try? FileManager.default.createDirectory(at: tree.live.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard rename(tree.staging.path, tree.live.path) == 0 else {
                    throw HostError(.io, key: "restore.swap", ["path": tree.live.path, "why": String(cString: strerror(errno))])
                }
            }
            swapped.append((tree.live, hadLive ? aside : nil))
            if hadLive { kept.append(aside.path) }
        }
        return Restored(backup: summary, kept: kept)
    }

    /// The archive at `file`, checked to be a backup of a format this host reads.
    public static func open(_ file: URL) throws(HostError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw HostError(.io, key: "restore.unreadable", ["path": file.path])
        }
        let format: String?
        let archive: DatabaseQueue
        do {
            archive = try DatabaseQueue(path: file.path, configuration: configuration)
            format = try archive.read { db -> String? in
                guard try db.tableExists("sqlar"), try db.tableExists("standfit_backup") else { return nil }
                return try String.fetchOne(db, sql: "SELECT value FROM standfit_backup WHERE key = 'format'")
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

    /// Writes the entries under `root/` into `staging`; false when the archive has no such tree.
    private static func extract(_ archive: DatabaseQueue, root: String, into staging: URL, live: URL, file: URL,
                                summary: inout Summary) throws -> Bool {
        let rows = try archive.read { db in
            try Row.fetchAll(db, sql: "SELECT name, mode, sz, data FROM sqlar WHERE name = ? OR name LIKE ? ESCAPE '\\' ORDER BY name",
                             arguments: [root, root.replacingOccurrences(of: "_", with: "\\_").replacingOccurrences(of: "%", with: "\\%") + "/%"])
        }
        guard !rows.isEmpty else { return false }
        let schemas = Dictionary(try archive.read { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM standfit_backup WHERE key LIKE 'schema:%'")
        }.map { (String(($0["key"] as String).dropFirst("schema:".count)), ($0["value"] as String)) }, uniquingKeysWith: { first, _ in first })
        for row in rows {
            let name: String = row["name"]
            let relative = name == root ? "" : String(name.dropFirst(root.count + 1))
            // An archive is a file anyone may have handed over: a name that would leave the tree
            // (absolute, "..", empty parts) is refused, and so is any entry but a file or directory.
            let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
            guard relative.isEmpty || parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
                throw HostError(.backupInvalid, key: "restore.badName", ["path": file.path, "name": name])
            }
            let mode = mode_t(truncatingIfNeeded: row["mode"] as Int)
            let target = relative.isEmpty ? staging : staging.appendingPathComponent(relative)
            switch mode & S_IFMT {
            case S_IFDIR:
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(mode & 0o700 | 0o700)])
                summary.files += 1
            case S_IFREG:
                let data: Data = row["data"] ?? Data()
                guard (row["sz"] as Int) == data.count else {
                    // sqlar compresses an entry when that makes it smaller; this host never does.
                    throw HostError(.backupInvalid, key: "restore.compressed", ["path": file.path, "name": name])
                }
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                let descriptor = Glibc.open(target.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0o777 | 0o600)
                guard descriptor >= 0 else {
                    throw HostError(.io, key: "error.write", ["path": target.path, "why": String(cString: strerror(errno))])
                }
                let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                let synced = fsync(descriptor) == 0
                close(descriptor)
                guard written == data.count, synced else {
                    throw HostError(.io, key: "error.write", ["path": target.path, "why": String(cString: strerror(errno))])
                }
                summary.files += 1
                summary.bytes += Int64(data.count)
                if schemas[name] != nil {
                    try check(database: target, name: name, live: relative.isEmpty ? live : live.appendingPathComponent(relative), file: file)
                    summary.databases += 1
                }
            default:
                throw HostError(.backupInvalid, key: "restore.badEntry", ["path": file.path, "name": name])
            }
        }
        return true
    }

    /// The restored database at `url` must be sound, and of no newer schema than the live one
    /// at `live` (when there is one): one of a newer host would be opened by this one as if it
    /// were its own.
    private static func check(database url: URL, name: String, live: URL, file: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        var verdict: [String]
        do {
            let restored = try DatabaseQueue(path: url.path, configuration: configuration)
            verdict = try restored.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            try restored.close()
        } catch {
            verdict = [HostState.describe(error)]
        }
        guard verdict == ["ok"] else {
            throw HostError(.backupInvalid, key: "restore.damaged", ["path": file.path, "name": name, "verdict": verdict.prefix(3).joined(separator: "; ")])
        }
        guard DatabaseHealth.isDatabase(live) else { return }
        // Its migrations as the restored file itself has them (the archive's note of them is
        // only what marks it a database).
        let restored = try DatabaseQueue(path: url.path, configuration: configuration)
        let has = try restored.read(HostBackup.migrations)
        try restored.close()
        let current = try DatabaseQueue(path: live.path, configuration: configuration)
        let known = Set(try current.read(HostBackup.migrations))
        try current.close()
        let newer = has.filter { !known.contains($0) }
        guard newer.isEmpty || known.isEmpty else {
            throw HostError(.backupInvalid, key: "restore.newerSchema", ["path": file.path, "name": name, "migrations": newer.joined(separator: ", ")])
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
