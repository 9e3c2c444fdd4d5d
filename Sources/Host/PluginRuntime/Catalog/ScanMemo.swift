import Foundation
import Glibc
import HostModel

/// The registry cache's answers, kept in the warm server's memory between commands, so that a
/// command does not open `registry.sqlite` and decode every plugin's record again.
///
/// An entry is used only while the plugin's file identity and pin are those it was recorded
/// with (as in the cache itself), and only while `registry.sqlite` is the file, at the version,
/// it was when the memo was last brought in step with it: a scan stored, a quarantine recovered
/// or a `plugins rescan` by any process (a cold command, another server) commits a transaction,
/// which SQLite counts in the file's header (the cache uses a rollback journal, which keeps
/// that counter), and the memo of its cache directory is dropped and read again from the file.
///
/// Rationale for `@unchecked Sendable`: its mutable state is behind `lock`.
public final class ScanMemo: @unchecked Sendable {
    private struct Entry {
        var identity: FileIdentity
        var pin: String?
        var result: ScanResult
    }

    private struct Directory {
        /// `registry.sqlite` as it was when these entries were read or written.
        var registry: RegistryVersion?
        /// By language, then real path.
        var entries: [String: [String: Entry]] = [:]
    }

    private let lock = NSLock()
    private var directories: [String: Directory] = [:]

    public init() {}

    /// Where the registry cache of `cacheDirectory` is now: read before anything is looked up in
    /// it, so that what is recorded afterwards is stamped with what was read.
    func version(in cacheDirectory: URL) -> RegistryVersion? {
        ScanMemo.registryIdentity(in: cacheDirectory)
    }

    /// The remembered results for `candidates` in `language`, by real path; none when the
    /// cache file (at `registry`, read before) changed since the memo was last in step with it.
    func results(for candidates: [PluginCandidate], language: String, cacheDirectory: URL,
                 registry: RegistryVersion?) -> [String: ScanResult] {
        lock.withLock {
            guard let directory = directories[cacheDirectory.path] else { return [:] }
            guard registry != nil, directory.registry == registry else {
                directories[cacheDirectory.path] = nil
                return [:]
            }
            var results: [String: ScanResult] = [:]
            let entries = directory.entries[language] ?? [:]
            for candidate in candidates {
                guard let entry = entries[candidate.realPath], entry.identity == candidate.identity,
                      entry.pin == candidate.pinnedSHA256 else { continue }
                results[candidate.realPath] = entry.result
            }
            return results
        }
    }

    /// Remembers `results` (by real path) for `candidates` in `language`, as the cache file
    /// holds them: only when it is now at `readAt` (the version read before the lookups) plus
    /// this command's own `commits`, so that nothing another process committed meanwhile is
    /// taken for what this command read.
    func record(_ results: [String: ScanResult], for candidates: [PluginCandidate], language: String,
                cacheDirectory: URL, readAt: RegistryVersion?, commits: UInt32) {
        let registry = ScanMemo.registryIdentity(in: cacheDirectory)
        guard let readAt, let registry, registry.device == readAt.device, registry.inode == readAt.inode,
              registry.changes == readAt.changes &+ commits else {
            lock.withLock { directories[cacheDirectory.path] = nil }
            return
        }
        lock.withLock {
            var directory = directories[cacheDirectory.path] ?? Directory()
            if directory.registry != registry { directory = Directory(registry: registry) }
            var entries = directory.entries[language] ?? [:]
            for candidate in candidates {
                guard let result = results[candidate.realPath] else { continue }
                entries[candidate.realPath] = Entry(identity: candidate.identity, pin: candidate.pinnedSHA256, result: result)
            }
            directory.entries[language] = entries
            directories[cacheDirectory.path] = directory
        }
    }

    /// Which file `registry.sqlite` is, and its change counter.
    struct RegistryVersion: Equatable {
        var device: UInt64
        var inode: UInt64
        var changes: UInt32
    }

    /// Rationale: the change counter is read from the header (bytes 24–27, big-endian, as the
    /// SQLite file format documents) rather than through a connection, which would cost more
    /// than the memo saves.
    private static func registryIdentity(in cacheDirectory: URL) -> RegistryVersion? {
        let file = open(cacheDirectory.appendingPathComponent(RegistryCache.fileName).path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var info = stat()
        var header = [UInt8](repeating: 0, count: 4)
        guard fstat(file, &info) == 0,
              header.withUnsafeMutableBytes({ pread(file, $0.baseAddress, 4, 24) }) == 4 else { return nil }
        let changes = header.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return RegistryVersion(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), changes: changes)
    }
}
