import Foundation
import GRDB
import Logging
import HostModel

/// What the plugins registered, kept in `$XDG_CACHE_HOME/standfit/registry.sqlite` so that
/// `list` and `menu` run no plugin code and `run` loads only the plugin that owns the type.
///
/// An entry is keyed by the plugin's real path and the language its `init` was told, and holds
/// the file's device, inode, size and modification time when it was scanned, and the SHA-256
/// the user had pinned then: when any of them differs the entry is stale and the plugin is
/// scanned again. Quarantined and refused plugins
/// are kept too, so they are skipped until the file changes. The file carries its own format
/// version; one of another version, or one that cannot be read, is rebuilt from scratch.
package struct RegistryCache {
    /// Bumped whenever what an entry holds changes shape.
    package static let formatVersion = 9

    package static let fileName = "registry.sqlite"

    package let url: URL
    private let queue: DatabaseQueue

    /// Opens the cache in `directory`, rebuilding it when it is unreadable; nil when it cannot
    /// be used at all (the host then scans every time, and says why under --verbose).
    init?(directory: URL, logger: Logger) {
        url = directory.appendingPathComponent(RegistryCache.fileName)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            logger.info("The registry cache directory \(directory.path) cannot be made (\(error.localizedDescription)); plugins are scanned on every run.")
            return nil
        }
        if let queue = RegistryCache.open(url, logger: logger) {
            self.queue = queue
            return
        }
        logger.info("The registry cache \(url.path) was unreadable; it was removed and is rebuilt.")
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
        guard let queue = RegistryCache.open(url, logger: logger) else { return nil }
        self.queue = queue
    }

    private static func open(_ url: URL, logger: Logger) -> DatabaseQueue? {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            // Every command opens the cache: only a new or outdated file pays for a write.
            if try queue.read({ db in try Int.fetchOne(db, sql: "PRAGMA user_version") }) == formatVersion {
                return queue
            }
            try queue.write { db in
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                guard version != formatVersion else { return }
                if version != 0 {
                    logger.info("The registry cache \(url.path) has format \(version), not \(formatVersion); it is rebuilt.")
                }
                try db.execute(sql: "DROP TABLE IF EXISTS plugin")
                try db.create(table: "plugin") { table in
                    table.column("realPath", .text).notNull()
                    table.column("language", .text).notNull()
                    table.column("device", .integer).notNull()
                    table.column("inode", .integer).notNull()
                    table.column("size", .integer).notNull()
                    table.column("modified", .integer).notNull()
                    table.column("pin", .text)
                    table.column("result", .text).notNull()
                    table.column("scannedAt", .datetime).notNull()
                    table.primaryKey(["realPath", "language"])
                }
                try db.execute(sql: "PRAGMA user_version = \(formatVersion)")
            }
            return queue
        } catch {
            logger.debug("Registry cache \(url.path): \(error)")
            return nil
        }
    }

    /// The cached scans of `candidates` in `language`, by real path: only those whose file has
    /// not changed since. One read for all of them, so a hundred plugins cost one query.
    func lookup(_ candidates: [PluginCandidate], language: String) -> [String: ScanResult] {
        guard !candidates.isEmpty else { return [:] }
        let rows = (try? queue.read { db in
            try Row.fetchAll(db, sql: "SELECT realPath, device, inode, size, modified, pin, result FROM plugin WHERE language = ?",
                             arguments: [language])
        }) ?? []
        let rowsByPath = Dictionary(rows.map { (($0["realPath"] as String?) ?? "", $0) }) { first, _ in first }
        let decoder = JSONDecoder()
        var results: [String: ScanResult] = [:]
        for candidate in candidates {
            guard let row = rowsByPath[candidate.realPath],
                  FileIdentity(device: UInt64(bitPattern: row["device"]), inode: UInt64(bitPattern: row["inode"]),
                               size: row["size"], modified: row["modified"]) == candidate.identity,
                  (row["pin"] as String?) == candidate.pinnedSHA256,
                  let text: String = row["result"],
                  let result = try? decoder.decode(ScanResult.self, from: Data(text.utf8))
            else { continue }
            results[candidate.realPath] = result
        }
        return results
    }

    /// Stores fresh scans, in one transaction.
    func store(_ scans: [(PluginCandidate, ScanResult)], language: String, at date: Date, logger: Logger) {
        do {
            try queue.write { db in
                for (candidate, result) in scans {
                    let text = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
                    try db.execute(sql: """
                        INSERT OR REPLACE INTO plugin (realPath, language, device, inode, size, modified, pin, result, scannedAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [candidate.realPath, language, Int64(bitPattern: candidate.identity.device),
                                         Int64(bitPattern: candidate.identity.inode), candidate.identity.size,
                                         candidate.identity.modified, candidate.pinnedSHA256, text,
                                         date.timeIntervalSince1970])
                }
            }
        } catch {
            logger.info("The registry cache \(url.path) could not be written (\(error)); the plugins are scanned again next time.")
        }
    }

    /// Forgets every entry (`plugins rescan`).
    func clear() throws {
        try queue.write { db in try db.execute(sql: "DELETE FROM plugin") }
    }

    /// How many entries there are, for `doctor`.
    package func entryCount() -> Int {
        (try? queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM plugin") }) ?? 0
    }
}
