import CWarmWire
import Foundation
import Glibc
import HostModel
import Logging
import WarmWire

/// A running request's watch: its connection is watched (by the server's one `CancelWatcher`)
/// for the client's cancel message (Ctrl-C, SIGTERM, SIGHUP) or its going away, and the request
/// is cancelled when the server stops under it. A cancel kills the request's plugin workers,
/// silences what the request still writes, wakes a prompt, and answers the client at once with
/// 128 + the signal.
///
/// Rationale for `@unchecked Sendable`: `answered` and `finished` are behind `lock`, and the
/// connection is read (by the watcher) and written (the answer) only under it once the request
/// runs; the rest is set in `init`.
final class CancelWatch: @unchecked Sendable {
    private let connection: WireConnection
    private let scope: RequestScope
    private let logger: Logger
    private let watcher: CancelWatcher
    private let lock = NSLock()
    private var answered = false
    private var finished = false

    init(connection: WireConnection, scope: RequestScope, logger: Logger, watcher: CancelWatcher) {
        self.connection = connection
        self.scope = scope
        self.logger = logger
        self.watcher = watcher
        watcher.add(self, descriptor: connection.descriptor)
        // A cancel sent right behind the go came in the same read: the socket will not poll
        // readable for it, so it is taken now.
        if connection.hasBufferedBytes, !readable() { watcher.remove(connection.descriptor) }
    }

    /// On the watcher's thread: the connection is readable. Returns whether to watch it on.
    func readable() -> Bool {
        let received: WireConnection.Received? = lock.withLock { finished ? nil : connection.receive(timeout: 0) }
        switch received {
        case nil:
            return false
        case .timedOut?:
            // Part of a frame: the rest comes.
            return true
        case .frame(.cancel(let signal))?:
            cancel(answer: 128 + signal, why: "the client was sent signal \(signal)")
            return false
        default:
            cancel(answer: nil, why: "the client went away")
            return false
        }
    }

    private func cancel(answer: Int32?, why: String, saying sentence: HostText.Phrase? = nil) {
        let first = lock.withLock { () -> Bool in
            guard !answered else { return false }
            answered = true
            return true
        }
        guard first else { return }
        logger.info("Cancelled a request: \(why)")
        scope.cancel(saying: sentence)
        if let answer { lock.withLock { _ = connection.send(.exit(status: answer)) } }
    }

    /// The server stops (a signal, or `server stop` past its grace): the client is told so in
    /// `sentence` and answered `answer`.
    func serverStops(answer: Int32, saying sentence: HostText.Phrase) {
        cancel(answer: answer, why: "the server stops", saying: sentence)
    }

    /// The request ended: answers its status unless a cancel answered first, and is watched no
    /// more (nothing reads its connection from here on).
    func finish(status: Int32) {
        lock.withLock {
            if !answered {
                answered = true
                _ = connection.send(.exit(status: status))
            }
            finished = true
        }
        watcher.remove(connection.descriptor)
    }
}

/// The server's one thread that watches every running request's connection (`CancelWatch`),
/// instead of a thread per request: it polls them all, and a wake pipe tells it the set changed.
///
/// Rationale for `@unchecked Sendable`: `watched` and `started` are behind `lock`; the pipe is
/// set in `init` and lives as long as the server.
final class CancelWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var watched: [Int32: CancelWatch] = [:]
    private var started = false
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        _ = standfit_wire_pipe(&ends)
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        _ = fcntl(wakeRead, F_SETFL, fcntl(wakeRead, F_GETFL) | O_NONBLOCK)
        _ = fcntl(wakeWrite, F_SETFL, fcntl(wakeWrite, F_GETFL) | O_NONBLOCK)
    }

    func add(_ watch: CancelWatch, descriptor: Int32) {
        let start = lock.withLock { () -> Bool in
            watched[descriptor] = watch
            defer { started = true }
            return !started
        }
        if start {
            // The thread lives as long as the process: a server serves until it exits.
            Thread.detachNewThread { [self] in loop() }
        }
        wake()
    }

    func remove(_ descriptor: Int32) {
        lock.withLock { _ = watched.removeValue(forKey: descriptor) }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func loop() {
        var drain = [UInt8](repeating: 0, count: 64)
        while true {
            let snapshot = lock.withLock { watched.map { (descriptor: $0.key, watch: $0.value) } }
            var pollers = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                + snapshot.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            if poll(&pollers, nfds_t(pollers.count), -1) < 0 { continue }
            if pollers[0].revents != 0 { while read(wakeRead, &drain, drain.count) > 0 {} }
            for (index, entry) in snapshot.enumerated() where pollers[index + 1].revents != 0 {
                // Still the request it was (a finished one is removed before its descriptor closes).
                guard lock.withLock({ watched[entry.descriptor] === entry.watch }) else { continue }
                if !entry.watch.readable() {
                    lock.withLock {
                        if watched[entry.descriptor] === entry.watch { watched[entry.descriptor] = nil }
                    }
                }
            }
        }
    }
}
