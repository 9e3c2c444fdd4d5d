import CHostSystem
import Foundation
import HostModel

/// The warm server's plugin workers: one process per plugin (and language, sandbox and data
/// directories), started on a plugin's first call, kept for the next, and stopped when idle
/// for `idleTimeout` or when room is needed (the least recently used idle one goes first).
///
/// A worker is used only while its plugin's file is as it was: each file in use is watched
/// (inotify), and a write, a `chmod`, a rename or a removal retires its workers before the next
/// call, so the next call loads and checks the file again (a pinned plugin's bytes against its
/// pin) as a cold run would, even when the change kept the file's size and time.
///
/// A worker runs one call at a time; a call finds an idle worker of its key or starts one, so
/// calls to one plugin at once each get a worker of their own. Never more than `limit` workers
/// live, starting ones included: at the limit, the least recently used idle worker makes room,
/// and when every worker is busy a call waits for one (up to its deadline, then it is refused
/// with a sentence). A worker that crashes, exits, hangs or answers out of turn (a line on its
/// answer pipe that no call asked for, even while idle) is stopped and never used again; the
/// call it ran reports the fault as a one-shot worker's would, and the next call starts a fresh
/// worker.
///
/// Rationale for `@unchecked Sendable`: the workers are behind `state`; a leased worker is used
/// by the one thread that holds its lease.
public final class WarmWorkers: @unchecked Sendable {
    /// What a worker is started for: a call may use it only if every part is equal.
    package struct Key: Hashable, Sendable {
        var candidate: PluginCandidate
        var pluginID: String
        /// The language told to the plugin's `init`.
        var language: String
        var sandbox: Bool
        var verbose: Bool
        /// The directories the plugin was given (its data directory, its sealed copy, its
        /// sandbox's rights), from the request's environment.
        var directories: [String]
        /// What its sandbox lets it execute.
        var programs: [String]
    }

    /// One worker process and what it was started for.
    package final class Worker {
        let process: HelperProcess
        let key: Key
        fileprivate var lastUsed = ContinuousClock.now
        /// The facts its last call was given (a call with the same sends none); used by the one
        /// thread that holds its lease.
        package var lastFacts: ProcessFacts?
        /// What stopping it leaves to clean (a sandbox's temporary directory).
        fileprivate let cleanUp: (pid_t) -> Void

        init(process: HelperProcess, key: Key, cleanUp: @escaping (pid_t) -> Void) {
            self.process = process
            self.key = key
            self.cleanUp = cleanUp
        }

        /// Kills it at once (it failed, or must not run another call).
        fileprivate func stop() {
            process.stop()
            cleanUp(process.pid)
        }

        /// Ends it as a one-shot worker ends: its input closed, so it returns from its loop and
        /// exits, closing what the plugin keeps open (a database's journal is then removed);
        /// killed if it has not within a second.
        fileprivate func retire() {
            process.closeInput()
            process.reap(by: .now + .seconds(1))
            cleanUp(process.pid)
        }
    }

    /// The most workers alive at once (busy ones are never stopped to make room).
    package let limit: Int
    package let idleTimeout: Duration
    private struct State {
        /// Idle workers, least recently used first.
        var idle: [Worker] = []
        var busy: [Worker] = []
        /// Workers being started: they count against the limit.
        var starting = 0
        /// Plugin files that changed while a worker of theirs was busy.
        var stale: Set<String> = []

        var alive: Int { idle.count + busy.count + starting }
    }
    /// Guards `state`; signalled whenever a worker stops being busy or a start ends.
    private let lock = NSCondition()
    private var state = State()
    private let spawner = Spawner()
    /// Watches the plugin files of the workers alive; `watched` maps a watch to its file.
    private let changes = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    private var watched: [Int32: String] = [:]

    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.withLock { body(&state) }
    }

    package init(limit: Int, idleTimeout: Double) {
        self.limit = max(1, limit)
        self.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
    }

    /// An idle worker for `key`, or a new one `start` makes, waiting until `deadline` for room
    /// when every worker is busy; a failure says why there is none. The caller gives it back
    /// with `release` or `discard`.
    func lease(_ key: Key, waitingUntil deadline: ContinuousClock.Instant, cleanUp: @escaping (pid_t) -> Void,
               start: @escaping () throws(HelperError) -> HelperProcess) -> Result<Worker, HelperError> {
        var ended: [Worker] = [], evicted: [Worker] = []
        retireChanged()
        enum Lease { case reused(Worker), start, busy }
        let lease = withState { state -> Lease in
            while true {
                while let index = state.idle.lastIndex(where: { $0.key == key }) {
                    let worker = state.idle.remove(at: index)
                    // One that ended while idle (killed from outside, a plugin thread's crash) is
                    // reaped, not handed out; so is one that wrote an answer nobody asked for.
                    if worker.process.hasEnded || worker.process.hasUnreadAnswer {
                        ended.append(worker)
                        continue
                    }
                    state.busy.append(worker)
                    return .reused(worker)
                }
                // Room for a new one: the least recently used idle worker goes if need be.
                if state.alive >= limit, !state.idle.isEmpty { evicted.append(state.idle.removeFirst()) }
                if state.alive < limit {
                    state.starting += 1
                    return .start
                }
                // Every worker is busy: wait for one to be given back.
                guard let milliseconds = Poll.milliseconds(until: deadline) else { return .busy }
                _ = lock.wait(until: Date(timeIntervalSinceNow: Double(milliseconds) / 1000))
            }
        }
        // The worker that makes room is gone before its successor starts, so the limit holds
        // in processes too, not only in the count.
        ended.forEach { $0.stop() }
        evicted.forEach { $0.retire() }
        switch lease {
        case .reused(let worker): return .success(worker)
        case .busy: return .failure(.busy(limit))
        case .start: break
        }
        // Started by a thread that lives as long as the server: a worker dies with the thread
        // that started it (PR_SET_PDEATHSIG), and a request's thread ends with the request.
        let started = spawner.run { () -> Result<HelperProcess, HelperError> in
            do throws(HelperError) { return .success(try start()) } catch { return .failure(error) }
        }
        return withState { state in
            state.starting -= 1
            let process: HelperProcess
            switch started {
            case .failure(let error):
                lock.broadcast()
                return .failure(error)
            case .success(let started): process = started
            }
            let worker = Worker(process: process, key: key, cleanUp: cleanUp)
            state.busy.append(worker)
            state.stale.remove(key.candidate.realPath)
            watch(key.candidate.realPath)
            return .success(worker)
        }
    }

    /// Watches `path` for changes, once (under the state lock).
    private func watch(_ path: String) {
        guard changes >= 0, !watched.values.contains(path) else { return }
        let mask = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVE_SELF | IN_DELETE_SELF)
        let descriptor = inotify_add_watch(changes, path, mask)
        if descriptor >= 0 { watched[descriptor] = path }
    }

    /// Retires the idle workers whose plugin file changed since it was watched; a busy one is
    /// retired when its call ends (`release`).
    private func retireChanged() {
        guard changes >= 0 else { return }
        var changed: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(changes, &buffer, buffer.count)
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let path = withState { _ in watched[event.wd] }
                if let path { changed.insert(path) }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
        guard !changed.isEmpty else { return }
        let retired = withState { state -> [Worker] in
            for (descriptor, path) in watched where changed.contains(path) {
                inotify_rm_watch(changes, descriptor)
                watched[descriptor] = nil
            }
            state.stale.formUnion(changed)
            let retired = state.idle.filter { changed.contains($0.key.candidate.realPath) }
            state.idle.removeAll { changed.contains($0.key.candidate.realPath) }
            return retired
        }
        retired.forEach { $0.retire() }
    }

    /// The call answered in full: the worker waits for the next.
    func release(_ worker: Worker) {
        worker.lastUsed = .now
        retireChanged()
        let stale = withState { state -> Bool in
            defer { lock.broadcast() }
            state.busy.removeAll { $0 === worker }
            // Its file changed during the call, or it wrote more than its answer: the call
            // stands, the worker goes.
            guard !state.stale.contains(worker.key.candidate.realPath), !worker.process.hasUnreadAnswer else { return true }
            state.idle.append(worker)
            return false
        }
        if stale { worker.retire() }
    }

    /// The worker failed its call (or must not be trusted with another): it is stopped.
    func discard(_ worker: Worker) {
        withState { state in
            state.busy.removeAll { $0 === worker }
            lock.broadcast()
        }
        worker.stop()
    }

    /// Stops the workers idle for longer than `idleTimeout`; the server calls this while it waits.
    package func stopIdle() {
        let now = ContinuousClock.now
        let stale = withState { state -> [Worker] in
            let stale = state.idle.filter { now - $0.lastUsed >= idleTimeout }
            state.idle.removeAll { now - $0.lastUsed >= idleTimeout }
            return stale
        }
        stale.forEach { $0.retire() }
    }

    /// Stops every idle worker (the server is exiting).
    package func stopAll() {
        let idle = withState { state -> [Worker] in
            defer { state.idle = [] }
            return state.idle
        }
        idle.forEach { $0.retire() }
    }

    /// The workers alive: plugin, pid, and whether each is running a call.
    package struct Summary: Sendable, Equatable {
        package var pluginID: String
        package var pid: Int32
        package var busy: Bool
        package var language: String
    }

    package var summary: [Summary] {
        withState { state in
            state.busy.map { Summary(pluginID: $0.key.pluginID, pid: $0.process.pid, busy: true, language: $0.key.language) }
                + state.idle.reversed().map { Summary(pluginID: $0.key.pluginID, pid: $0.process.pid, busy: false, language: $0.key.language) }
        }
    }
}
