import Foundation
import HostModel
import HostStorage
import PluginRuntime

/// What the warm server keeps between the commands it runs, for whichever request names it:
/// the plugins' warm workers, the registry cache's answers, each configuration directory's
/// settings and each data directory's open state database.
///
/// Every entry is keyed by what a request names (a directory), never by the server's own
/// facts, and checked against the file before it is used: a `config.json` edited, or a
/// `state.sqlite` removed or replaced, is read or opened again by the next command, exactly as
/// a cold command would. Keeping the state database open also spares each command the
/// checkpoint (and fsync) that closing it costs.
///
/// Rationale for `@unchecked Sendable`: its mutable state is behind `lock`; the rest is set in
/// `init` and is itself Sendable.
public final class WarmResources: @unchecked Sendable {
    public let workers: WarmWorkers
    public let scans = ScanMemo()
    public let vetting = VettingMemo()

    private let lock = NSLock()
    private var configs: [String: (bytes: Data?, config: HostConfig)] = [:]
    private var states: [String: (file: FileIdentity, state: HostState)] = [:]

    public init(workers: WarmWorkers) {
        self.workers = workers
    }

    /// Closes the state databases (between bursts of commands: a database moved aside while
    /// the server holds it open would leave its WAL for the next file at that path).
    public func closeStates() {
        lock.withLock { states.removeAll() }
    }

    /// Forgets everything kept, closing the state databases (which checkpoints each and
    /// removes its WAL and shared-memory files, as a cold command's exit does).
    public func close() {
        lock.withLock {
            states.removeAll()
            configs.removeAll()
        }
    }

    /// `config.json` in `directory`, as `HostConfig.load` reads it; parsed again when its bytes
    /// changed (compared whole: a small file, and a file's time stamps are too coarse to tell
    /// two quick edits apart). A file that cannot be parsed is not kept: its error is given
    /// again each time.
    public func config(in directory: URL) throws(HostError) -> HostConfig {
        let url = directory.appendingPathComponent(HostConfig.fileName)
        let bytes = try? UserFile.read(url, limit: UserFile.settingsLimit)
        // A file that is there but cannot be read: the error a cold command gives.
        if bytes == nil && FileManager.default.fileExists(atPath: url.path) { return try HostConfig.load(from: directory) }
        if let kept = lock.withLock({ configs[directory.path] }), kept.bytes == bytes { return kept.config }
        let config = try bytes.map { data throws(HostError) in try HostConfig.decode(data, from: url) } ?? HostConfig()
        lock.withLock { configs[directory.path] = (bytes, config) }
        return config
    }

    /// The host's state in `directory`, kept open while its file is the one it opened.
    public func state(in directory: URL) throws(HostError) -> HostState {
        let path = directory.appendingPathComponent(HostState.fileName).path
        if let kept = lock.withLock({ states[directory.path] }), let file = FileIdentity.of(path),
           kept.file.device == file.device && kept.file.inode == file.inode {
            return kept.state
        }
        // Another file (or none) now: the old one is closed first, so that its WAL and
        // shared-memory files are gone before a new database is made at that path.
        lock.withLock { states[directory.path] = nil }
        let state = try HostState(directory: directory, keepsStoredItems: true)
        if let file = FileIdentity.of(path) {
            lock.withLock { states[directory.path] = (file, state) }
        }
        return state
    }
}

extension HostOptions {
    /// The settings the request's configuration directory holds (kept by the warm server).
    public func config(of paths: HostPaths) throws(HostError) -> HostConfig {
        if let warm { return try warm.config(in: paths.configDirectory) }
        return try HostConfig.load(from: paths.configDirectory)
    }

    /// The state the request's data directory holds (kept open by the warm server).
    public func state(of paths: HostPaths) throws(HostError) -> HostState {
        if let warm { return try warm.state(in: paths.dataDirectory) }
        return try HostState(directory: paths.dataDirectory)
    }
}
