import Foundation
import GRDB
import HostModel

/// The host's own state, in SQLite through GRDB: `$XDG_DATA_HOME/standfit/state.sqlite`.
///
/// It holds the dynamic items — each provider's last answer and the script-owned list — so
/// that `list`, `menu` and the desktop export read them without running plugin code (unless a
/// provider was never asked, changed version or has an expired item), and the
/// host's settings (where the desktop file is installed). WAL mode (a `DatabasePool`), one
/// transaction per change, and a busy timeout, since several commands may run at once.
public struct HostState: Sendable {
    public let url: URL
    private let pool: DatabasePool
    /// Stored items' userInfo texts, decoded: the warm server keeps a state open between
    /// commands, and a `list` of a thousand dynamic items would decode each one again.
    let userInfoTexts = DecodedTexts()
    /// The stored dynamic items as last read, per language, while the database is unchanged;
    /// nil unless asked for (the warm server's states, which live between commands).
    let storedItems: StoredItemsMemo?

    /// The source name of the items `dynamic set` owns.
    public static let scriptSource = DynamicSource.script

    /// The database's name in the data directory.
    public static let fileName = "state.sqlite"

    /// How many donations are kept (`donationLimit`; fewer in tests).
    let keptDonations: Int

    /// Opens (and makes, or migrates) the state in `directory`. `keepsStoredItems`: the stored
    /// dynamic items are kept as read while the database is unchanged (`StoredItemsMemo`), for
    /// a state that lives between commands.
    public init(directory: URL, keptDonations: Int = HostState.donationLimit, keepsStoredItems: Bool = false) throws(HostError) {
        self.keptDonations = keptDonations
        url = directory.appendingPathComponent(HostState.fileName)
        storedItems = keepsStoredItems ? StoredItemsMemo(path: url.path) : nil
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            // WAL (a pool's mode) with synchronous=NORMAL: a commit survives a crash or a SIGKILL
            // of any process (it is in the WAL, in the kernel's page cache) though not a power
            // cut, and costs no fsync — the host's own bookkeeping (a run's donation, a
            // provider's answer) is off the reply path's disk. What the user changed themselves
            // is written durably (`write(_:durable:_:)`).
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            // Opened and migrated under a lock: several commands may create the file at once.
            pool = try DirectoryLock.withExclusiveLock(on: directory) { [path = url.path] in
                let pool = try DatabasePool(path: path, configuration: configuration)
                try HostState.migrator.migrate(pool)
                return pool
            }
        } catch {
            throw HostError(.state, key: "state.open", ["path": url.path, "cause": HostState.describe(error)], cause: error)
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
        migrator.registerMigration("v5") { db in
            // Until when a provided item holds (standfit.item-lifetime/1), in Unix seconds; NULL
            // for an item that holds until its provider is asked again.
            try db.alter(table: "dynamicItem") { table in
                table.add(column: "validUntil", .double)
            }
        }
        migrator.registerMigration("v6") { db in
            // Which plugin handled a donated run, and what it named the run's effect
            // (standfit.donations/1), so that a run undoing that effect can withdraw it.
            try db.alter(table: "donation") { table in
                table.add(column: "plugin", .text)
                table.add(column: "effect", .text)
            }
            try db.create(index: "donation_on_plugin_effect", on: "donation", columns: ["plugin", "effect"])
        }
        migrator.registerMigration("v7") { db in
            // The runs summed per action and values (DonationGroup), so that suggestions read
            // one row per action instead of up to 5,000 runs; and each run's local minute of the
            // day, kept as it was when the run was made (runs before this, in the zone of the
            // upgrade), from which the sums can be made again.
            try db.alter(table: "donation") { table in
                table.add(column: "minute", .integer)
            }
            try db.create(index: "donation_on_type_parameters", on: "donation", columns: ["type", "parameters", "donatedAt"])
            try db.create(table: "donationGroup") { table in
                table.column("type", .text).notNull()
                table.column("parameters", .text).notNull()
                table.column("titles", .text).notNull()
                table.column("runs", .integer).notNull()
                table.column("lastRun", .double).notNull()
                table.column("weight", .double).notNull()
                table.column("cosSum", .double).notNull()
                table.column("sinSum", .double).notNull()
                table.primaryKey(["type", "parameters"])
            }
            let zone = TimeZone.current
            let rows = try Row.fetchAll(db, sql: "SELECT id, donatedAt FROM donation")
            for row in rows {
                let date: Date = row["donatedAt"]
                try db.execute(sql: "UPDATE donation SET minute = ? WHERE id = ?",
                               arguments: [LocalMinute.of(date, in: zone), row["id"] as Int64])
            }
            try HostState.regroupDonations(db)
        }
        migrator.registerMigration("v8") { db in
            // Dynamic items are stored by language alone (languageKey): rows an earlier version
            // stored under a region's tag (nl_NL, en_US) become the language's, the newest answer
            // kept where several were.
            let rows = try Row.fetchAll(db, sql: "SELECT source, language, pluginVersion, updatedAt FROM dynamicSource ORDER BY source, updatedAt DESC")
            var kept = Set<[String]>()
            for row in rows {
                let source: String = row["source"], language: String = row["language"]
                let key = HostState.languageKey(language)
                // Foreign keys are not enforced while a migration runs: items go with their rows by hand.
                func remove(_ language: String) throws {
                    try db.execute(sql: "DELETE FROM dynamicItem WHERE source = ? AND language = ?", arguments: [source, language])
                    try db.execute(sql: "DELETE FROM dynamicSource WHERE source = ? AND language = ?", arguments: [source, language])
                }
                guard kept.insert([source, key]).inserted else {
                    // An older answer; one already under the key was replaced by the kept one.
                    if language != key { try remove(language) }
                    continue
                }
                guard key != language else { continue }
                try remove(key)
                try db.execute(sql: "INSERT INTO dynamicSource (source, language, pluginVersion, updatedAt) VALUES (?, ?, ?, ?)",
                               arguments: [source, key, row["pluginVersion"] as String?, row["updatedAt"] as Double])
                try db.execute(sql: "UPDATE dynamicItem SET language = ? WHERE source = ? AND language = ?", arguments: [key, source, language])
                try db.execute(sql: "DELETE FROM dynamicSource WHERE source = ? AND language = ?", arguments: [source, language])
            }
        }
        migrator.registerMigration("v9") { db in
            // "Stop suggesting this": suggestions the user turned down for good, by action and
            // values (stored as donations store them), until `suggestions unmute`.
            try db.create(table: "suggestionMute") { table in
                table.column("type", .text).notNull()
                table.column("parameters", .text).notNull()
                table.column("title", .text).notNull()
                table.column("mutedAt", .double).notNull()
                table.primaryKey(["type", "parameters"])
            }
            // Each suggestion offered as a notification (`suggestions offer`), on its local day
            // (for the daily cap), and the button pressed, if any.
            try db.create(table: "suggestionOffer") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("type", .text).notNull()
                table.column("parameters", .text).notNull()
                table.column("title", .text).notNull()
                table.column("offeredAt", .double).notNull()
                table.column("day", .text).notNull().indexed()
                table.column("answer", .text)
            }
            // Runs a timer made (`run --scheduled`): no donation, but done all the same, so
            // that a suggestion is not offered for what a schedule ran today.
            try db.create(table: "scheduledRun") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("type", .text).notNull()
                table.column("parameters", .text).notNull()
                table.column("ranAt", .double).notNull()
            }
            try db.create(index: "scheduledRun_on_type_ranAt", on: "scheduledRun", columns: ["type", "ranAt"])
        }
        migrator.registerMigration("v10") { db in
            // Each group's first run and its runs by half hour of the day (DonationGroup.slots),
            // so that a habit needs two days and one with two times of day is two suggestions;
            // made again from the runs.
            try db.alter(table: "donationGroup") { table in
                table.add(column: "firstRun", .double)
                table.add(column: "slots", .text)
            }
            try HostState.regroupDonations(db)
        }
        migrator.registerMigration("v11") { db in
            // Each half hour's first and last local day (DaySlots.firstDays, lastDays), so that
            // each time of day of a habit needs two days of its own: made again from the runs.
            try HostState.regroupDonations(db)
        }
        return migrator
    }

    // MARK: Settings

    public func setting(_ key: String) throws(HostError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    public func setSetting(_ key: String, _ value: String?) throws(HostError) {
        try write(HostText.Phrase("state.saveSetting", ["key": key]), durable: true) { db in
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

    func read<T>(_ body: (Database) throws -> T) throws(HostError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw HostError(.state, key: "state.read", ["path": url.path, "cause": HostState.describe(error)], cause: error)
        }
    }

    /// Writes `body` in one transaction. `durable`: what the user changed themselves (a pin, a
    /// setting, the script list), on disk when the command answers (synchronous=FULL for this
    /// transaction: the WAL is synced at its commit); otherwise the host's own bookkeeping,
    /// crash-safe without an fsync (`init`).
    func write(_ what: HostText.Phrase, durable: Bool = false, _ body: (Database) throws -> Void) throws(HostError) {
        do {
            if durable {
                try pool.writeWithoutTransaction { db in
                    // The level is the connection's, and changes only outside a transaction.
                    try db.execute(sql: "PRAGMA synchronous = FULL")
                    defer { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
                    try db.inTransaction(.immediate) {
                        try body(db)
                        return .commit
                    }
                }
            } else {
                try pool.write(body)
            }
        } catch {
            throw HostError(.state, key: "error.state.write", ["path": url.path, "why": HostState.describe(error)], parts: ["what": what], cause: error)
        }
    }

    /// Decodes userInfo `text` once for as long as this state is open.
    func userInfo(_ text: String) -> [String: JSONValue] {
        userInfoTexts.decode(text, HostState.userInfo)
    }

    static func userInfo(_ text: String) -> [String: JSONValue] {
        if case .object(let values)? = JSONValue(jsonText: text) { return values }
        return [:]
    }

    static func strings(_ text: String) -> [String: String] {
        userInfo(text).compactMapValues(\.stringValue)
    }

    /// Whether `error` says the file is no database, or a damaged one (not a permission or I/O
    /// problem, whose fix is elsewhere).
    package static func isDamaged(_ error: HostError) -> Bool {
        guard let database = error.cause as? DatabaseError else { return false }
        return database.resultCode == .SQLITE_NOTADB || database.resultCode == .SQLITE_CORRUPT
    }

    package static func describe(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }
}

/// Texts decoded before, and what they decoded to, up to a bound (then it starts afresh).
///
/// Rationale for `@unchecked Sendable`: its dictionary is behind `lock`.
/// The stored dynamic items as last read, per language, with the database's `data_version`
/// then, asked of a connection of its own: the version changes whenever any other connection,
/// in this process or another, commits, so a kept answer is used only while nothing was written.
///
/// Rationale for `@unchecked Sendable`: everything is behind `lock`.
final class StoredItemsMemo: @unchecked Sendable {
    private let lock = NSLock()
    private let path: String
    private var checker: DatabaseQueue?
    private var kept: [String: (version: Int64, sources: [DynamicSource])] = [:]

    init(path: String) {
        self.path = path
    }

    /// The database's version now (nil when it cannot be asked: nothing is kept then).
    func version() -> Int64? {
        lock.withLock {
            if checker == nil {
                // Not read-only: as the last connection to close, it checkpoints and removes the WAL.
                var configuration = Configuration()
                configuration.busyMode = .timeout(1)
                checker = try? DatabaseQueue(path: path, configuration: configuration)
            }
            return (try? checker?.inDatabase { try Int64.fetchOne($0, sql: "PRAGMA data_version") }) ?? nil
        }
    }

    /// What was kept for `language` at `version`, if that is still the version.
    func sources(language: String, version: Int64) -> [DynamicSource]? {
        lock.withLock { kept[language].flatMap { $0.version == version ? $0.sources : nil } }
    }

    /// Keeps `sources` for `language`, read at or after `version`.
    func keep(_ sources: [DynamicSource], language: String, version: Int64) {
        lock.withLock { kept[language] = (version, sources) }
    }
}

final class DecodedTexts: @unchecked Sendable {
    private let lock = NSLock()
    private var decoded: [String: [String: JSONValue]] = [:]
    private static let bound = 20_000

    func decode(_ text: String, _ decode: (String) -> [String: JSONValue]) -> [String: JSONValue] {
        if let known = lock.withLock({ decoded[text] }) { return known }
        let value = decode(text)
        lock.withLock {
            if decoded.count >= DecodedTexts.bound { decoded.removeAll(keepingCapacity: true) }
            decoded[text] = value
        }
        return value
    }
}
