import CWarmWire
import Foundation
import Glibc
import Logging
import WarmWire

/// Watches a running request's connection for the client's cancel message (Ctrl-C, SIGTERM,
/// SIGHUP) or its going away, and cancels it when the server stops under it. A cancel kills the
/// request's plugin workers, silences what the request still writes, wakes a prompt, and
/// answers the client at once with 128 + the signal.
///
/// Rationale for `@unchecked Sendable`: `answered` is behind `lock`; the descriptors are set in
/// `init` and closed only after the watching thread has ended (`done`).
final class CancelWatch: @unchecked Sendable {
    private let connection: WireConnection
    private let scope: RequestScope
    private let logger: Logger
    private let stopRead: Int32
    private let stopWrite: Int32
    private let lock = NSLock()
    private var answered = false
    private let done = DispatchSemaphore(value: 0)

    init(connection: WireConnection, scope: RequestScope, logger: Logger) {
        self.connection = connection
        self.scope = scope
        self.logger = logger
        var ends: [Int32] = [0, 0]
        _ = standfit_wire_pipe(&ends)
        (stopRead, stopWrite) = (ends[0], ends[1])
        Thread.detachNewThread { [self] in
            watch()
            done.signal()
        }
    }

    private func watch() {
        while true {
            var pollers = [pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
            if poll(&pollers, 2, -1) < 0 {
                if errno == EINTR { continue }
                return
            }
            if pollers[1].revents != 0 { return }
            switch connection.receive(timeout: 0) {
            case .timedOut:
                continue
            case .frame(.cancel(let signal)):
                cancel(answer: 128 + signal, why: "the client was sent signal \(signal)")
                return
            default:
                cancel(answer: nil, why: "the client went away")
                return
            }
        }
    }

    private func cancel(answer: Int32?, why: String, saying sentence: String? = nil) {
        let first = lock.withLock { () -> Bool in
            guard !answered else { return false }
            answered = true
            return true
        }
        guard first else { return }
        logger.info("Cancelled a request: \(why)")
        scope.cancel(saying: sentence)
        if let answer { connection.send(.exit(status: answer)) }
    }

    /// The server stops (a signal, or `server stop` past its grace): the client is told so in
    /// `sentence` and answered `answer`.
    func serverStops(answer: Int32, saying sentence: String) {
        cancel(answer: answer, why: "the server stops", saying: sentence)
    }

    /// The request ended: answers its status unless a cancel answered first, and stops watching.
    func finish(status: Int32) {
        let first = lock.withLock { () -> Bool in
            defer { answered = true }
            return !answered
        }
        if first { connection.send(.exit(status: status)) }
        var byte: UInt8 = 1
        _ = write(stopWrite, &byte, 1)
        done.wait()
        [stopRead, stopWrite].forEach { close($0) }
    }
}
