import CDesktopBus
import Foundation
import HostModel
import Logging
import StandFitHost

/// The warm server on the session bus: it owns the application id and serves
/// `org.freedesktop.Application`, so that the desktop (GNOME Shell, KDE, `gapplication`) runs quick
/// actions without a terminal, and D-Bus starts the server when none runs (the service file
/// `export desktop --install` writes).
///
/// The connection and its thread are `CDesktopBus`'s; each method call is served on a thread of
/// its own as a request of the desktop's (`DesktopRequest`), and answered when it is done.
///
/// Rationale for `@unchecked Sendable`: `connection` is set once in `start`, before the bus thread
/// delivers anything, and cleared only by `stop`; the rest is set in `init`.
final class DesktopBus: @unchecked Sendable {
    private var connection: OpaquePointer?
    let logger: Logger
    /// Runs a request of the desktop's as one of the server's requests (counted, so the server
    /// neither exits nor counts as idle meanwhile).
    private let serving: @Sendable (() -> Void) -> Void
    /// The connection ended under the server (the bus went away).
    private let lost: @Sendable () -> Void

    private init(logger: Logger, serving: @escaping @Sendable (() -> Void) -> Void, lost: @escaping @Sendable () -> Void) {
        self.logger = logger
        self.serving = serving
        self.lost = lost
    }

    /// Connects to the session bus and takes the application id; nil when there is no bus, or
    /// the name cannot be had (said at debug level: a machine without a desktop is not an error).
    static func start(logger: Logger, serving: @escaping @Sendable (() -> Void) -> Void,
                      lost: @escaping @Sendable () -> Void) -> DesktopBus? {
        let bus = DesktopBus(logger: logger, serving: serving, lost: lost)
        var error: Int32 = 0
        var why = [CChar](repeating: 0, count: 512)
        // The bus thread calls back with this object as its context for as long as the process
        // lives (a started connection is never freed), hence the retained reference.
        let context = Unmanaged.passRetained(bus).toOpaque()
        guard let connection = standfit_bus_start(DesktopInstallation.applicationID, DesktopInstallation.objectPath,
                                                  { context, event in
                                                      guard let context, let event else { return }
                                                      Unmanaged<DesktopBus>.fromOpaque(context).takeUnretainedValue().handle(event.pointee)
                                                  },
                                                  context, &error, &why, why.count) else {
            Unmanaged<DesktopBus>.fromOpaque(context).release()
            let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            logger.debug("Not on the session bus: \(reason); the desktop front door is closed (commands are not affected).")
            return nil
        }
        bus.connection = connection
        logger.info("On the session bus as \(DesktopInstallation.applicationID) (org.freedesktop.Application at \(DesktopInstallation.objectPath))")
        return bus
    }

    private let stopLock = NSLock()
    /// The connection once stopped: calls delivered before the stop are still answered to it.
    private var stopped: OpaquePointer?

    /// Leaves the bus: the name is released and the connection closed. Calls still being served
    /// are released unanswered (their callers get the bus's NoReply).
    func stop() {
        guard let connection = stopLock.withLock({ () -> OpaquePointer? in
            defer {
                stopped = self.connection
                self.connection = nil
            }
            return self.connection
        }) else { return }
        standfit_bus_stop(connection)
    }

    /// One event from the bus thread; long work goes to a thread of its own.
    private func handle(_ event: standfit_bus_event) {
        let sender = event.sender.map { String(cString: $0) } ?? "?"
        switch event.kind {
        case STANDFIT_BUS_ACTIVATE_ACTION:
            let name = event.name.map { String(cString: $0) } ?? ""
            var parameters: [NamedArgument] = []
            for index in 0..<event.count {
                guard let key = event.keys?[index], let value = event.values?[index] else { continue }
                parameters.append(NamedArgument(name: String(cString: key), value: String(cString: value)))
            }
            let arguments = parameters
            answer(event.call, from: sender, what: "ActivateAction '\(name)'") {
                DesktopRequest.activateAction(name, parameters: arguments, logger: $0)
            }
        case STANDFIT_BUS_ACTIVATE:
            answer(event.call, from: sender, what: "Activate") { _ in
                .refused(.notSupported, "StandFit has no window; run one of its quick actions with ActivateAction, or 'standfit-host menu' in a terminal.")
            }
        case STANDFIT_BUS_OPEN:
            answer(event.call, from: sender, what: "Open") { _ in
                .refused(.notSupported, "StandFit opens no files; run one of its quick actions instead ('gapplication list-actions \(DesktopInstallation.applicationID)' lists them).")
            }
        case STANDFIT_BUS_REFUSED:
            logger.warning("Refused a call from \(sender): \(event.name.map { String(cString: $0) } ?? "")")
        case STANDFIT_BUS_LOST:
            logger.warning("Lost the session bus (\(event.name.map { String(cString: $0) } ?? "")); the desktop front door is closed.")
            lost()
        default:
            break
        }
    }

    /// Serves one method call on a thread of its own and answers it.
    private func answer(_ call: UnsafeMutableRawPointer?, from sender: String, what: String,
                        _ body: @escaping @Sendable (Logger) -> DesktopRequest.Answer) {
        // A connection that was stopped meanwhile still takes the answer (its memory is kept).
        guard let call, let connection = stopLock.withLock({ connection }) ?? stopped else { return }
        let logger = logger, serving = serving
        let pointer = UncheckedCall(call: call, connection: connection)
        Thread.detachNewThread {
            var answer = DesktopRequest.Answer.done("")
            serving { answer = body(logger) }
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

/// A method call and its connection, handed to the thread that answers it.
///
/// Rationale for `@unchecked Sendable`: the pointers are opaque to Swift; `standfit_bus_reply`
/// may be called from any thread, once per call.
private struct UncheckedCall: @unchecked Sendable {
    var call: UnsafeMutableRawPointer
    var connection: OpaquePointer
}
