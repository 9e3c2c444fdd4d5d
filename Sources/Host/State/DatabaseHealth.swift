import Foundation
import GRDB

/// Whether the SQLite databases a plugin keeps in its data directory are sound, for `doctor`:
/// the host cannot ask a plugin about its own data, but every plugin's data directory is the
/// host's to hand out, and SQLite can check any database file without knowing its schema.
package enum DatabaseHealth {
    /// One database file and what `PRAGMA quick_check` said of it ("ok" when sound).
    package struct Finding: Sendable, Equatable {
        package var url: URL
        package var verdict: String
    }

    /// The SQLite databases directly in `directory` (found by their header, whatever their
    /// name), each checked read-only. A file that SQLite cannot open as a database is a finding,
    /// and so is a file named as a database (`.sqlite`, `.sqlite3`, `.db`) that is not one at all.
    package static func check(directory: URL) -> [Finding] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name in
            let url = directory.appendingPathComponent(name)
            switch kind(url) {
            case .database: return Finding(url: url, verdict: quickCheck(url))
            case .other where databaseExtensions.contains(url.pathExtension.lowercased()):
                return Finding(url: url, verdict: "file is not a database")
            case .other, .notRegular, .empty: return nil
            }
        }
    }

    /// The names databases go by.
    private static let databaseExtensions: Set<String> = ["sqlite", "sqlite3", "db"]

    private enum Kind { case database, other, empty, notRegular }

    /// Whether `url` is a regular file that starts as an SQLite database does (not followed
    /// through a link, opened without blocking).
    package static func isDatabase(_ url: URL) -> Bool {
        kind(url) == .database
    }

    /// Every SQLite database starts with these 16 bytes.
    private static let header = Array("SQLite format 3\u{0}".utf8)

    /// Only regular files, not followed through links and opened without blocking: the data
    /// directory is the plugin's to fill, and a FIFO there must not hang `doctor`.
    /// An empty file is an empty database to SQLite, so it is no finding.
    private static func kind(_ url: URL) -> Kind {
        var info = stat()
        guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .notRegular }
        guard info.st_size > 0 else { return .empty }
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return .notRegular }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: header.count)
        return read(descriptor, &bytes, bytes.count) == header.count && bytes == header ? .database : .other
    }

    private static func quickCheck(_ url: URL) -> String {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            defer { try? queue.close() }
            let rows = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            return rows.joined(separator: "; ")
        } catch let error as DatabaseError {
            return error.message ?? "\(error)"
        } catch {
            return "\(error)"
        }
    }
}
