import CDesktopBus
import Foundation
import Logging

/// Answering the desktop's method calls: each on a thread of its own, counted as the server's
/// activity, answered on the connection its event named.
extension DesktopBus {
    /// Serves one method call whose answer carries data, on a thread of its own: `body` answers it.
    func respond(_ call: UnsafeMutableRawPointer?, on connection: OpaquePointer?,
                 _ body: @escaping @Sendable (any DesktopRequests, DesktopBus, OpaquePointer, UnsafeMutableRawPointer) -> Void) {
        guard let call, let connection, let requests = serving?.requests else { return }
        let pointer = UncheckedCall(call: call, connection: connection), activity = activity, bus = self
        activity.begin()
        Thread.detachNewThread {
            body(requests, bus, pointer.connection, pointer.call)
            activity.end()
        }
    }

    /// Serves one method call on a thread of its own and answers it.
    func answer(_ call: UnsafeMutableRawPointer?, on connection: OpaquePointer?, from sender: String, what: String,
                _ body: @escaping @Sendable (any DesktopRequests, DesktopBus) -> Answer) {
        // A connection stopped meanwhile still takes the answer (its memory is kept).
        guard let call, let connection, let requests = serving?.requests else { return }
        let logger = logger, activity = activity, bus = self
        let pointer = UncheckedCall(call: call, connection: connection)
        activity.begin()
        Thread.detachNewThread {
            defer { activity.end() }
            let answer = body(requests, bus)
            switch answer {
            case .done(let summary):
                logger.info("\(what) from \(sender): \(summary)")
                standfit_bus_reply(pointer.connection, pointer.call, nil, nil)
            case .refused(let error, let message):
                logger.info("\(what) from \(sender) refused: \(message)")
                standfit_bus_reply(pointer.connection, pointer.call, error.rawValue, message)
            }
        }
    }
}

extension DesktopBus {
    /// Runs `body` on a thread of its own, counted as the server's activity (it neither exits
    /// nor idles out meanwhile): a desktop request that answers at once and goes on after (the
    /// Listen action records, then waits for its question's answer, longer than a caller waits
    /// for a method's reply).
    package func detach(_ body: @escaping @Sendable () -> Void) {
        let activity = activity
        activity.begin()
        Thread.detachNewThread {
            defer { activity.end() }
            body()
        }
    }
}

/// Calls `body` with `strings` as an array of C strings, valid during the call.
func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}

/// A method call and its connection, handed to the thread that answers it.
///
/// Rationale for `@unchecked Sendable`: the pointers are opaque to Swift; `standfit_bus_reply`
/// may be called from any thread, once per call.
private struct UncheckedCall: @unchecked Sendable {
    var call: UnsafeMutableRawPointer
    var connection: OpaquePointer
}
