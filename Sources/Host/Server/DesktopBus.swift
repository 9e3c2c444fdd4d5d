import CDesktopBus
import Foundation
import HostDesktop
import HostModel
import HostSurfaces
import Logging
import Synchronization

/// The warm server on the session bus: it owns the application id and serves
/// `org.freedesktop.Application`, so that the desktop (GNOME Shell, KDE, `gapplication`) runs quick
/// actions without a terminal, and D-Bus starts the server when none runs (the service file
/// `export desktop --install` writes).
///
/// The connection and its thread are `CDesktopBus`'s; each method call is served on a thread of
/// its own as a request of the desktop's (what it comes to is the composition's:
/// `DesktopRequests`), and answered when it is done.
///
/// Rationale for `@unchecked Sendable`: `connection` is behind `stopLock`, the
/// calls waited for and the buttons shown behind `calls`; the rest is set in `init`. The bus
/// thread starts only once `start` has stored the connection; method calls are answered on the
/// connection their event names.
package final class DesktopBus: @unchecked Sendable {
    var connection: OpaquePointer?
    /// The address of the bus it is connected to.
    package let address: String
    package let logger: Logger
    /// How the server counts a request of the desktop's: begun on the bus thread before its own
    /// thread starts, ended when it is done (so the server neither exits nor counts as idle meanwhile).
    struct Activity: Sendable {
        var begin: @Sendable () -> Void
        var end: @Sendable () -> Void
        static let uncounted = Activity(begin: {}, end: {})
    }
    /// What a server's connection serves: the desktop's requests, for that server, counted as
    /// its activity.
    struct Serving: Sendable {
        var requests: any DesktopRequests
        var server: WarmServer
        var activity: Activity
    }
    /// What it serves; nil for a command's own connection, which serves nothing.
    let serving: Serving?
    var activity: Activity { serving?.activity ?? .uncounted }
    /// The server whose connection this is (for the desktop's requests' scopes); nil for a
    /// command's own.
    package var server: WarmServer? { serving?.server }
    /// The connection ended under the server (the bus went away).
    let lost: @Sendable () -> Void
    /// The environment the desktop's requests run with (`environment(startedByBus:)`).
    let requestEnvironment: [String]
    /// Whether the bus started this server: its environment is then the bus's activation environment.
    let startedByBus: Bool
    /// The matches of the latest searches, for GNOME's `GetResultMetas`.
    let searchResults = SearchResults()

    private init(address: String, logger: Logger, serving: Serving?, startedByBus: Bool, lost: @escaping @Sendable () -> Void) {
        self.address = address
        self.logger = logger
        self.serving = serving
        self.startedByBus = startedByBus
        self.requestEnvironment = DesktopBus.environment(startedByBus: startedByBus)
        self.lost = lost
    }

    /// The environment every desktop request of a server has. A server the bus started has the
    /// bus's activation environment, the desktop's own, and passes it on whole. A server a command
    /// started has that command's environment, whose `STANDFIT_*` variables (a one-off
    /// `STANDFIT_PLUGIN_PATH`, a test's `STANDFIT_NOW`, `STANDFIT_SERVER`) belong to that one
    /// request: they are left out, so a desktop click never runs with another request's date or
    /// plugins.
    static func environment(startedByBus: Bool) -> [String] {
        ProcessInfo.processInfo.environment
            .filter { startedByBus || !$0.key.hasPrefix("STANDFIT_") }
            .map { "\($0.key)=\($0.value)" }
    }

    /// What a desktop request comes to.
    package enum Answer: Sendable {
        /// Done: a summary for the server's log.
        case done(String)
        /// Refused with a D-Bus error and its sentence.
        case refused(ErrorName, String)
    }

    /// The D-Bus errors a request of the desktop's is refused with.
    package enum ErrorName: String, Sendable {
        case unknownAction = "org.standfit.Host.Error.UnknownAction"
        case failed = "org.freedesktop.DBus.Error.Failed"
        case notSupported = "org.freedesktop.DBus.Error.NotSupported"
    }

    /// Connects to the bus at `address` and, `serving` a server, takes the application id; nil
    /// when there is no bus, or the name cannot be had (said at debug level: a machine without a
    /// desktop is not an error). Serving nothing, it takes no name: a command's own connection,
    /// for a notification or a call.
    static func start(address: String?, logger: Logger, serving: Serving?, startedByBus: Bool,
                      lost: @escaping @Sendable () -> Void) -> DesktopBus? {
        guard let address else {
            logger.debug("Not on the session bus: there is none (DBUS_SESSION_BUS_ADDRESS is unset and there is no $XDG_RUNTIME_DIR/bus); the desktop front door is closed (commands are not affected).")
            return nil
        }
        let owning = serving != nil
        let bus = DesktopBus(address: address, logger: logger, serving: serving, startedByBus: startedByBus, lost: lost)
        var error: Int32 = 0
        var why = [CChar](repeating: 0, count: 512)
        // The bus thread calls back with this object as its context for as long as the process
        // lives (a started connection is never freed), hence the retained reference.
        let context = Unmanaged.passRetained(bus).toOpaque()
        guard let connection = standfit_bus_start(address, owning ? DesktopInstallation.applicationID : nil, DesktopInstallation.objectPath,
                                                  DesktopInstallation.runnerPath, DesktopInstallation.searchProviderPath,
                                                  { context, event in
                                                      guard let context, let event else { return }
                                                      Unmanaged<DesktopBus>.fromOpaque(context).takeUnretainedValue().handle(event.pointee)
                                                  },
                                                  context, &error, &why, why.count) else {
            Unmanaged<DesktopBus>.fromOpaque(context).release()
            let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A bus refused (another user's, or one that does not answer) is worth a line; no bus at all is the usual case.
            let level: Logger.Level = error == -EPERM || error == -ETIMEDOUT ? .warning : .debug
            logger.log(level: level, "Not on the session bus: \(reason); the desktop front door is closed (commands are not affected).")
            return nil
        }
        bus.stopLock.withLock { bus.connection = connection }
        DesktopBus.open.withLock { $0[ObjectIdentifier(bus)] = bus }
        standfit_bus_run(connection)
        if owning {
            logger.info("On the session bus as \(DesktopInstallation.applicationID) (org.freedesktop.Application at \(DesktopInstallation.objectPath))")
        }
        return bus
    }

    /// A command's own connection, which serves nothing: for a notification or a call, on the
    /// bus at `address` (the request's session bus, `sessionAddress(in:)`).
    package static func start(logger: Logger, address: String?) -> DesktopBus? {
        start(address: address, logger: logger, serving: nil, startedByBus: false, lost: {})
    }

    /// The session bus a process with `environment` has, as sd-bus finds it:
    /// `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when that is a socket; nil when
    /// there is none. The server's own connection and a request's use this one rule, so a
    /// request reaches the bus its client names, whichever way the server was started.
    ///
    /// Only Unix-socket addresses (`unix:path=`, `unix:abstract=`, …; `;`-separated
    /// alternatives all so): a request's environment must not have the server execute a program
    /// (`unixexec:`) or reach another machine (`tcp:`) in the user's name.
    package static func sessionAddress(in environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            let alternatives = address.split(separator: ";").filter { !$0.isEmpty }
            return alternatives.allSatisfy { $0.hasPrefix("unix:") } ? address : nil
        }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        let path = (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/bus"
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=" + addressEscaped(path)
    }

    /// The bus the server belongs on: the one that started it (D-Bus activation names it in
    /// `DBUS_STARTER_ADDRESS`), else its environment's session bus.
    package static func ownAddress() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if environment["DBUS_STARTER_BUS_TYPE"] == "session", let starter = environment["DBUS_STARTER_ADDRESS"], !starter.isEmpty {
            return starter
        }
        return sessionAddress(in: environment)
    }

    /// Whether two addresses name the same bus: the same transports, whatever `guid=` one of
    /// them carries (the bus gives an activated service its address with its guid,
    /// `DBUS_STARTER_ADDRESS`; a session's `DBUS_SESSION_BUS_ADDRESS` often has none).
    package static func isSameBus(_ one: String, _ other: String) -> Bool {
        let transports = { (address: String) -> [String] in
            address.split(separator: ";").map { transport in
                transport.split(separator: ",").filter { !$0.hasPrefix("guid=") }.joined(separator: ",")
            }
        }
        return transports(one) == transports(other)
    }

    /// Whether it is still connected (not stopped, not lost).
    package var isConnected: Bool { stopLock.withLock { connection != nil } }

    /// Whether a notification it showed still waits for a button to be pressed.
    package var waitsForButtons: Bool { calls.withLock { !pressed.isEmpty } }

    /// `value` escaped for a D-Bus address: bytes outside `[-0-9A-Za-z_/.\*]` as `%XX`.
    ///
    /// Rationale: the D-Bus specification's rule for address values, a few lines; sd-bus
    /// escapes only the addresses it builds itself.
    private static func addressEscaped(_ value: String) -> String {
        let plain = Set("-_/.\\*0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        return value.utf8.map { plain.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02x", $0) }.joined()
    }

    let stopLock = NSLock()
    /// The connection being left, for the notifications answered while it stops.
    private var stopping: OpaquePointer?

    /// Every connection of this process not yet stopped: the server's own and those its
    /// requests opened (a command's questions on the bus its client named).
    private static let open = Mutex<[ObjectIdentifier: DesktopBus]>([:])

    /// Stops every connection of this process (`stop()`): the server is stopping, and a question
    /// a request still waits on (Listen's "Run?", asked on the connection the request opened
    /// when it began) is taken away unanswered, so the request ends now rather than at its own
    /// deadline.
    package static func stopAll() {
        open.withLock { Array($0.values) }.forEach { $0.stop() }
    }

    /// Leaves the bus: the name is released and the connection closed. Calls still being served
    /// are released unanswered (their callers get the bus's NoReply).
    package func stop() {
        DesktopBus.open.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
        guard let connection = stopLock.withLock({ () -> OpaquePointer? in
            guard let connection = self.connection else { return nil }
            self.connection = nil
            stopping = connection
            return connection
        }) else { return }
        // Buttons nobody will answer once the server is gone are taken away with their
        // notifications (the bus starts a server for a method call, not for a signal).
        let shown = calls.withLock { () -> [(UInt32, Buttons)] in
            leaving = true
            defer {
                pressed.removeAll()
                answered.removeAll()
            }
            return Array(pressed)
        }
        for (id, _) in shown { standfit_bus_close_notification(connection, id) }
        // A question taken away is closed unanswered: what waits for its answer (Listen's "Run?",
        // a suggestion's) ends now rather than at its own deadline, holding the stop.
        for (_, buttons) in shown { buttons.closed?() }
        standfit_bus_stop(connection)
        // Calls still waited for get no answer now: their waiters are let go at once.
        let abandoned = calls.withLock { () -> [Waiter] in
            defer { waiting.removeAll() }
            return Array(waiting.values)
        }
        for waiter in abandoned {
            waiter.failure = "the server left the session bus"
            waiter.done.signal()
        }
    }

    // MARK: Notifications

    /// An asynchronous call a request thread waits for.
    final class Waiter: @unchecked Sendable {
        // Rationale for `@unchecked Sendable`: written on the bus thread before `done` is
        // signalled, read by the waiting thread after.
        let done = DispatchSemaphore(value: 0)
        var id: UInt32 = 0
        var values: [String] = []
        var failure: String?
        /// What a button of the notification runs, once its id is known.
        var chosen: (@Sendable (String) -> Void)?
        /// What a press after the first shows.
        var answered: DesktopNotification?
        /// What a typed reply runs.
        var replied: (@Sendable (String) -> Void)?
        /// What runs when it is closed unanswered.
        var closed: (@Sendable () -> Void)?
        /// A question as it was sent, and what closing it unanswered says.
        var question: Sent?
        var unanswered: DesktopNotification?
        /// One of a question's choices shown on its own, and its group.
        var choice: String?
        var group: ChoiceGroup?
    }

    let calls = NSLock()
    /// Leaving the bus: buttons of a notification answered from now on are taken away at once.
    private var leaving = false
    private var nextToken: UInt64 = 1
    private var waiting: [UInt64: Waiter] = [:]
    /// What each shown notification's buttons run, by notification id, until one is pressed or
    /// it is closed.
    var pressed: [UInt32: Buttons] = [:]
    /// What a press says on a notification answered already (closed at its first press, for a
    /// server that keeps it anyway), by id, until it is closed; the most recent 64.
    var answered: [UInt32: DesktopNotification] = [:]
    /// The failure shown last, until it is closed: the next one takes its place.
    var lastFailure: UInt32?
    /// Questions clicked (their "default" action) and about to be shown again, and those of them
    /// the server closed meanwhile.
    var clicking: Set<UInt32> = []
    var closedWhileClicked: Set<UInt32> = []
    /// How long a clicked question waits for the server's own close of it before it is shown again.
    static let clickSettle = 0.3

    /// A shown notification's buttons: what a press runs, and what a press after it says.
    struct Buttons {
        var chosen: (@Sendable (String) -> Void)?
        var answered: DesktopNotification?
        var replied: (@Sendable (String) -> Void)?
        var closed: (@Sendable () -> Void)?
        /// The question as it was sent: a click on it sends it again.
        var question: Sent?
        /// What the user is told when it is closed without an answer.
        var unanswered: DesktopNotification?
        /// For one of a question's choices shown as a notification of its own (`ChoiceGroup`):
        /// the host's key of its button, which a click on it answers.
        var choice: String?
        var group: ChoiceGroup?
    }

    /// A question's choices, each shown as a notification of its own where the server's list
    /// shows no buttons (GNOME's): a click on one answers the question and takes the others
    /// away; the question is closed unanswered only when the last of them is.
    final class ChoiceGroup: Sendable {
        private struct State {
            var shown: Set<UInt32> = []
            var answered = false
        }
        private let state = Mutex(State())

        /// Whether choice `id` joins the group (false once the question is answered).
        func join(_ id: UInt32) -> Bool {
            state.withLock { state in
                guard !state.answered else { return false }
                state.shown.insert(id)
                return true
            }
        }

        /// Choice `id` was chosen: the others, to take away.
        func choose(_ id: UInt32) -> [UInt32] {
            state.withLock { state in
                state.answered = true
                defer { state.shown.removeAll() }
                return state.shown.filter { $0 != id }.sorted()
            }
        }

        /// Choice `id` was closed: true when it was the last one left unanswered.
        func close(_ id: UInt32) -> Bool {
            state.withLock { state in
                guard state.shown.remove(id) != nil else { return false }
                return state.shown.isEmpty && !state.answered
            }
        }
    }

    func beginCall(chosen: (@Sendable (String) -> Void)? = nil, answered: DesktopNotification? = nil,
                   replied: (@Sendable (String) -> Void)? = nil, closed: (@Sendable () -> Void)? = nil,
                   question: Sent? = nil, unanswered: DesktopNotification? = nil, choice: String? = nil,
                   group: ChoiceGroup? = nil) -> (UInt64, Waiter) {
        let waiter = Waiter()
        waiter.choice = choice
        waiter.group = group
        waiter.chosen = chosen
        waiter.answered = answered
        waiter.replied = replied
        waiter.closed = closed
        waiter.question = question
        waiter.unanswered = unanswered
        return calls.withLock {
            defer { nextToken += 1 }
            waiting[nextToken] = waiter
            return (nextToken, waiter)
        }
    }

    /// On the bus thread: an answer to the call `token`. A notification's buttons are wired
    /// here, before any later event (its ActionInvoked) is handled.
    func finishCall(token: UInt64, id: UInt32, values: [String], failure: String?) {
        guard let waiter = calls.withLock({ waiting.removeValue(forKey: token) }) else { return }
        waiter.id = id
        waiter.values = values
        waiter.failure = failure
        if failure == nil, id != 0, waiter.chosen != nil || waiter.replied != nil || waiter.closed != nil {
            let kept = calls.withLock { () -> Bool in
                if !leaving {
                    pressed[id] = Buttons(chosen: waiter.chosen, answered: waiter.answered, replied: waiter.replied, closed: waiter.closed,
                                          question: waiter.question, unanswered: waiter.unanswered, choice: waiter.choice, group: waiter.group)
                }
                return !leaving
            }
            // A choice shown after another was chosen already: taken away, nothing waits on it.
            if kept, let group = waiter.group, !group.join(id) {
                calls.withLock { _ = pressed.removeValue(forKey: id) }
                if let connection = stopLock.withLock({ self.connection }) { standfit_bus_close_notification(connection, id) }
            } else if !kept {
                if let connection = stopLock.withLock({ stopping }) { standfit_bus_close_notification(connection, id) }
                // Taken away as it was shown: closed unanswered, so nothing waits on it.
                waiter.closed?()
            }
        }
        waiter.done.signal()
    }

    /// Waits for `waiter`; false after `seconds` (the answer is then dropped).
    func wait(_ waiter: Waiter, token: UInt64, seconds: Double) -> Bool {
        if waiter.done.wait(timeout: .now() + seconds) == .success { return true }
        calls.withLock { _ = waiting.removeValue(forKey: token) }
        return false
    }
}
