import Foundation
import GRDB
import HostModel

/// The host's own state, in SQLite through GRDB: `$XDG_DATA_HOME/standfit/state.sqlite`.
///
/// It holds the dynamic items — each provider's last answer and the script-owned list — so
/// that `list`, `menu` and the desktop export read them without running plugin code, and the
/// host's settings (where the desktop file is installed). WAL mode (a `DatabasePool`), one
/// transaction per change, and a busy timeout, since several commands may run at once.
public struct HostState: Sendable {
    public let url: URL
    private let pool: DatabasePool

    /// The source name of the items `dynamic set` owns.
    public static let scriptSource = DynamicSource.script

    public init(directory: URL) throws(HostError) {
        url = directory.appendingPathComponent("state.sqlite")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            // Opened and migrated under a lock: several commands may create the file at once.
            pool = try DirectoryLock.withExclusiveLock(on: directory) { [path = url.path] in
                let pool = try DatabasePool(path: path, configuration: configuration)
                try HostState.migrator.migrate(pool)
                return pool
            }
        } catch {
            throw HostError(.state, "The host's state \(url.path) cannot be opened (\(HostState.describe(error))); check that the directory is writable, or move the file aside to start afresh.", cause: error)
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // One row per (source, language): a provider's answer in one language, or the
            // script list (language ""). pluginVersion is the provider's version at the time.
            try db.create(table: "dynamicSource") { table in
                table.column("source", .text).notNull()
                table.column("language", .text).notNull()
                table.column("pluginVersion", .text)
                table.column("updatedAt", .datetime).notNull()
                table.primaryKey(["source", "language"])
            }
            try db.create(table: "dynamicItem") { table in
                table.column("source", .text).notNull()
                table.column("language", .text).notNull()
                table.column("rank", .integer).notNull()
                table.column("type", .text).notNull()
                table.column("title", .text).notNull()
                table.column("subtitle", .text)
                table.column("icon", .text)
                table.column("userInfo", .text).notNull()
                table.primaryKey(["source", "language", "rank"])
                table.foreignKey(["source", "language"], references: "dynamicSource", onDelete: .cascade)
            }
            try db.create(table: "setting") { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v2") { db in
            // Plugins the user trusted: loaded only from bytes with this SHA-256.
            try db.create(table: "trustedPlugin") { table in
                table.primaryKey("realPath", .text)
                table.column("sha256", .text).notNull()
                table.column("trustedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v3") { db in
            // Every handled run: what ran with which values, for `suggest` and `donations`.
            try db.create(table: "donation") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("type", .text).notNull().indexed()
                table.column("parameters", .text).notNull()
                table.column("titles", .text).notNull()
                table.column("donatedAt", .datetime).notNull().indexed()
            }
        }
        migrator.registerMigration("v4") { db in
            // Times are stored as Unix seconds from now on: GRDB writes a Date as text through a
            // DateFormatter, whose ICU set-up cost each run about 1.5 ms (docs/BENCHMARKS.md).
            // GRDB reads both forms back as a Date; this makes the old rows numbers too, so that
            // ORDER BY never compares text with numbers.
            for (table, column) in [("donation", "donatedAt"), ("dynamicSource", "updatedAt"), ("trustedPlugin", "trustedAt")] {
                try db.execute(sql: """
                    UPDATE \(table) SET \(column) = (julianday(\(column)) - 2440587.5) * 86400.0
                    WHERE typeof(\(column)) = 'text'
                    """)
            }
        }
        return migrator
    }

    // MARK: Donations

    /// At most this many donations are kept; older ones go first.
    public static let donationLimit = 5_000

    /// Records one handled run.
    public func donate(_ donation: Donation) throws(HostError) {
        try write("record the run of \(donation.type)") { db in
            try db.execute(sql: "INSERT INTO donation (type, parameters, titles, donatedAt) VALUES (?, ?, ?, ?)",
                           arguments: [donation.type, JSONValue.object(donation.parameters.mapValues(JSONValue.string)).jsonText,
                                       JSONValue.object(donation.titles.mapValues(JSONValue.string)).jsonText,
                                       donation.date.timeIntervalSince1970])
            try db.execute(sql: """
                DELETE FROM donation WHERE id <= (SELECT id FROM donation ORDER BY id DESC LIMIT 1 OFFSET ?)
                """, arguments: [HostState.donationLimit])
        }
    }

    /// The donations, oldest first; only those of `type` when given.
    public func donations(type: String? = nil) throws(HostError) -> [Donation] {
        try read { db in
            let rows = if let type {
                try Row.fetchAll(db, sql: "SELECT * FROM donation WHERE type = ? ORDER BY id", arguments: [type])
            } else {
                try Row.fetchAll(db, sql: "SELECT * FROM donation ORDER BY id")
            }
            return rows.map { row in
                Donation(id: row["id"], type: row["type"], parameters: HostState.strings(row["parameters"]),
                         titles: HostState.strings(row["titles"]), date: row["donatedAt"])
            }
        }
    }

    /// Forgets the donations (of `type` only, when given); answers how many.
    public func clearDonations(type: String? = nil) throws(HostError) -> Int {
        var removed = 0
        try write("clear the donations") { db in
            if let type {
                try db.execute(sql: "DELETE FROM donation WHERE type = ?", arguments: [type])
            } else {
                try db.execute(sql: "DELETE FROM donation")
            }
            removed = db.changesCount
        }
        return removed
    }

    // MARK: Trusted plugins

    /// Real path → pinned SHA-256 of every plugin the user trusted.
    public func pins() throws(HostError) -> [String: String] {
        try read { db in
            Dictionary(try Row.fetchAll(db, sql: "SELECT realPath, sha256 FROM trustedPlugin").map { ($0["realPath"], $0["sha256"]) },
                       uniquingKeysWith: { first, _ in first })
        }
    }

    /// Pins `realPath` to `sha256` at `date`, replacing an earlier pin.
    public func pin(_ realPath: String, sha256: String, at date: Date) throws(HostError) {
        try write("trust the plugin \(realPath)") { db in
            try db.execute(sql: "INSERT OR REPLACE INTO trustedPlugin (realPath, sha256, trustedAt) VALUES (?, ?, ?)",
                           arguments: [realPath, sha256, date.timeIntervalSince1970])
        }
    }

    /// Removes the pin of `realPath`; false when there was none.
    public func unpin(_ realPath: String) throws(HostError) -> Bool {
        var removed = false
        try write("stop trusting the plugin \(realPath)") { db in
            try db.execute(sql: "DELETE FROM trustedPlugin WHERE realPath = ?", arguments: [realPath])
            removed = db.changesCount > 0
        }
        return removed
    }

    // MARK: Dynamic items

    /// Replaces everything `source` offers in `language` with `items`, in one transaction.
    public func replaceItems(source: String, language: String, pluginVersion: String?,
                             items: [ShortcutItem], at date: Date) throws(HostError) {
        try write("store the dynamic items of '\(source)'") { db in
            try db.execute(sql: "DELETE FROM dynamicSource WHERE source = ? AND language = ?",
                           arguments: [source, language])
            try db.execute(sql: "INSERT INTO dynamicSource (source, language, pluginVersion, updatedAt) VALUES (?, ?, ?, ?)",
                           arguments: [source, language, pluginVersion, date.timeIntervalSince1970])
            // One prepared statement for every item: a provider may answer a thousand.
            let insert = try db.cachedStatement(sql: """
                INSERT INTO dynamicItem (source, language, rank, type, title, subtitle, icon, userInfo)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (index, item) in items.enumerated() {
                try insert.execute(arguments: [source, language, index + 1, item.type, item.title, item.subtitle,
                                               item.icon, JSONValue.object(item.userInfo).jsonText])
            }
        }
    }

    /// Forgets `source` in every language (a provider that went away, `dynamic clear`).
    public func removeSource(_ source: String) throws(HostError) {
        try write("remove the dynamic items of '\(source)'") { db in
            try db.execute(sql: "DELETE FROM dynamicSource WHERE source = ?", arguments: [source])
        }
    }

    /// Languages `source` has stored items in.
    public func languages(of source: String) throws(HostError) -> [String] {
        try read { db in
            try String.fetchAll(db, sql: "SELECT language FROM dynamicSource WHERE source = ? ORDER BY language",
                                arguments: [source])
        }
    }

    /// Each source's stored items for `language`: the rows in that language, or else the
    /// source's most recent answer in another one (better a title in English than none).
    public func dynamicSources(language: String) throws(HostError) -> [DynamicSource] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT source, language, pluginVersion FROM dynamicSource
                ORDER BY source, language = ? DESC, language = '' DESC, updatedAt DESC
                """, arguments: [language])
            var chosen: [DynamicSource] = []
            for row in rows {
                let source: String = row["source"]
                if chosen.last?.source == source { continue }
                let rowLanguage: String = row["language"]
                let items = try Row.fetchAll(db, sql: """
                    SELECT * FROM dynamicItem WHERE source = ? AND language = ? ORDER BY rank
                    """, arguments: [source, rowLanguage]).map { item in
                    ShortcutItem(type: item["type"], title: item["title"], subtitle: item["subtitle"],
                                 icon: item["icon"], userInfo: HostState.userInfo(item["userInfo"]),
                                 source: .dynamic, origin: source)
                }
                chosen.append(DynamicSource(source: source, pluginVersion: row["pluginVersion"], items: items))
            }
            return chosen
        }
    }

    // MARK: Settings

    public func setting(_ key: String) throws(HostError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    public func setSetting(_ key: String, _ value: String?) throws(HostError) {
        try write("save the setting '\(key)'") { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
            }
        }
    }

    /// `PRAGMA integrity_check`'s answer: "ok" for a sound database.
    public func integrityCheck() throws(HostError) -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
    }

    // MARK: Plumbing

    private func read<T>(_ body: (Database) throws -> T) throws(HostError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw HostError(.state, "The host's state \(url.path) cannot be read (\(HostState.describe(error))); move the file aside to start afresh.", cause: error)
        }
    }

    private func write(_ what: String, _ body: (Database) throws -> Void) throws(HostError) {
        do {
            try pool.write(body)
        } catch {
            throw HostError(.state, "Could not \(what) in the host's state \(url.path) (\(HostState.describe(error))); nothing was changed. Check that the disk is not full and the file is writable.", cause: error)
        }
    }

    private static func userInfo(_ text: String) -> [String: JSONValue] {
        if case .object(let values)? = JSONValue(jsonText: text) { return values }
        return [:]
    }

    private static func strings(_ text: String) -> [String: String] {
        userInfo(text).compactMapValues(\.stringValue)
    }

    private static func describe(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }
}
