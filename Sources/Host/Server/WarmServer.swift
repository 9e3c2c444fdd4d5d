import CHostSystem
import CWarmWire
import Foundation
import Glibc
import HostModel
import Logging
import PluginRuntime
import StandFitHost
import Synchronization
import WarmWire

/// The warm instance: one process per user and build that keeps running between commands and
/// runs each command the thin client hands it, on the client's descriptors, with the client's
/// environment, directory and umask (`RequestScope`), through the same code as a cold run. It
/// knows no command: what a request comes to is the composition's (`ServedCommands`), and so
/// is what the desktop's requests over the bus come to (`DesktopRequests`).
///
/// It never runs plugin code in its own process: every plugin call goes to a warm worker
/// (`WarmWorkers`: one process per plugin, kept between requests, stopped when idle). Requests
/// run side by side, each on its connection's thread, none changing the process's own
/// environment, descriptors or directory (`RequestScope`). It
/// exits when idle for `serverIdleTimeout`, when `server stop` asks, and, once idle, when its
/// binary was replaced (a new build serves from a socket of its own).
///
/// Rationale for `@unchecked Sendable`: its mutable state is behind `state`; the rest is set in
/// `init` (or before the first connection is accepted, in `serve`) and only read.
package final class WarmServer: @unchecked Sendable {
    /// The server serving the request this thread runs, bound for the request's length
    /// (`RequestScope.run`); nil on the cold path. Per request, not per process: a test may run
    /// two servers side by side in one process.
    @TaskLocal package static var current: WarmServer?

    package let place: WarmPlace
    /// This binary, whose identity names the socket.
    let executable: String
    let idleTimeout: Double
    /// What it keeps between requests: plugin workers, settings, open state, scans.
    package let warm: WarmResources
    /// The plugin workers it keeps warm between requests.
    package var workers: WarmWorkers { warm.workers }
    package let started = Date()
    /// Started by the session bus (`serve --dbus-activated`): its environment is the desktop's.
    let startedByBus: Bool
    package let logger: Logger
    /// What a client's request comes to.
    let commands: any ServedCommands
    /// What the desktop's requests come to; nil for a server that stays off the bus.
    let desktop: (any DesktopRequests)?

    /// Connections being served, requests served, when the last one ended, and a stop asked for.
    let state = NSLock()
    var connections = 0
    var served = 0
    var lastActivity = ContinuousClock.now
    var stopAsked = false
    /// The requests running now, for a stop to cancel.
    var running: [ObjectIdentifier: CancelWatch] = [:]
    /// The threads requests are served on, kept between requests.
    let requestThreads = RequestThreads(limit: 64)
    /// The one thread that watches every running request's connection for a cancel.
    let cancelWatcher = CancelWatcher()
    /// Readable when a stop was asked for: wakes the accept loop at once instead of at its next
    /// timeout, so that `server stop` ends the process within its grace, not a second later.
    private let wake: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        return standfit_wire_pipe(&ends) == 0 ? (ends[0], ends[1]) : (-1, -1)
    }()

    package init(place: WarmPlace, executable: String, idleTimeout: Double, warm: WarmResources, startedByBus: Bool,
                 logger: Logger, commands: any ServedCommands, desktop: (any DesktopRequests)?) {
        self.commands = commands
        self.desktop = desktop
        self.place = place
        self.startedByBus = startedByBus
        self.executable = executable
        self.idleTimeout = idleTimeout
        self.warm = warm
        self.logger = logger
    }

    deinit {
        if wake.read >= 0 {
            close(wake.read)
            close(wake.write)
        }
    }

    /// How many requests it has served.
    package var requestsServed: Int { state.withLock { served } }

    /// Its connection to the session bus, when it has one (`DesktopBus`).
    package var bus: DesktopBus? { state.withLock { busConnection } }
    private var busConnection: DesktopBus?

    /// Connects to the session bus at `address` and takes the application id there (from a
    /// server of its build the bus started, which then exits: `joinBus` is how the two become
    /// one); true when it is on that bus now. A server on another bus leaves that one: one
    /// desktop per server, the one that asked last.
    package func joinBus(address: String) -> Bool {
        guard let desktop, !state.withLock({ stopAsked }) else { return false }
        if let bus, bus.isConnected, DesktopBus.isSameBus(bus.address, address) { return true }
        guard let joined = DesktopBus.start(address: address, logger: logger,
                                            serving: DesktopBus.Serving(requests: desktop, server: self, activity: desktopActivity),
                                            startedByBus: false, lost: busLost) else { return false }
        let earlier = state.withLock { () -> DesktopBus? in
            defer { busConnection = joined }
            return busConnection
        }
        earlier?.stop()
        return true
    }

    /// The bus went away under it: a server that has only the bus has nothing left to do.
    private var busLost: @Sendable () -> Void {
        { [self] in if !ownsSocket && activation == nil { stop(leavingBus: false) } }
    }

    /// A request that did not come through the socket (the desktop's, over the bus), counted as
    /// one being served from when it arrives to when it is done: the server neither exits nor
    /// counts as idle meanwhile.
    private var desktopActivity: DesktopBus.Activity {
        DesktopBus.Activity(
            begin: { [self] in state.withLock { connections += 1 } },
            end: { [self] in
                state.withLock {
                    connections -= 1
                    served += 1
                    lastActivity = .now
                }
            })
    }

    /// The requests being served now (through the socket or the bus), the asking one included.
    package var requestsUnderWay: Int { state.withLock { connections } }

    /// How long a stop waits for the requests under way before it cancels them.
    package static let stopGrace = Duration.seconds(10)

    /// Asks the server to exit once the requests under way have answered. It leaves the bus at
    /// once (unless called from the bus's own thread, `leavingBus` false), so that the bus starts
    /// a new server for the desktop's next request rather than handing it to this one.
    package func stop(leavingBus: Bool = true) {
        state.withLock { stopAsked = true }
        if wake.write >= 0 {
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
        if leavingBus {
            bus?.stop()
            DesktopBus.stopAll()
        }
    }

    /// The socket a service manager passed (LISTEN_FDS), when it started this server.
    package private(set) var activation: Int32?
    /// Whether it listens on its build's own socket (a server started by a service manager or
    /// the bus while another of its build runs serves the activation socket or the bus only,
    /// until that one ends and it takes the socket over).
    package var ownsSocket: Bool { socketOwned.load(ordering: .acquiring) }
    private let socketOwned = Atomic<Bool>(false)

    /// Accepts connections on `listener` (its build's socket) and `activation` (the socket a
    /// service manager passed) until it is time to exit; removes its own socket then. A signal
    /// readable on `stopSignals` (`SignalPipe`: SIGTERM, SIGINT and SIGHUP for `serve`) ends it
    /// cleanly: its socket removed, its requests cancelled, its workers killed.
    ///
    /// A server with the bus alone (the bus started it while another of its build had the
    /// socket) hands the bus over with `handBusOver` when that one is up and this one is idle
    /// (nothing running, no question on the screen), then exits: `handBusOver` asks the server
    /// with the socket to `joinBus`, true when it did.
    package func serve(listener: Int32?, activation: Int32?, stopSignals: Int32? = nil, handBusOver: (() -> Bool)? = nil) {
        self.activation = activation
        socketOwned.store(listener != nil, ordering: .releasing)
        var sockets = [listener, activation].compactMap { $0 }
        let names = (listener == nil ? [] : [place.socketPath]) + (activation == nil ? [] : ["the socket the service manager passed"])
        logger.info("Serving \(names.joined(separator: " and ")) (pid \(getpid()), build \(place.build), idle timeout \(Int(idleTimeout)) s)")
        // The desktop's door. A server with no socket serves only the bus, and has nothing to do
        // once the bus is gone.
        let busOnly = sockets.isEmpty
        if let desktop {
            let started = DesktopBus.start(address: DesktopBus.ownAddress(), logger: logger,
                                           serving: DesktopBus.Serving(requests: desktop, server: self, activity: desktopActivity),
                                           startedByBus: startedByBus, lost: busLost)
            state.withLock { busConnection = started }
        }
        if busOnly && bus == nil {
            logger.info("Exiting: started for the session bus, but not on it")
            return
        }
        var identity = listener == nil ? nil : socketIdentity()
        /// Without a socket of its own (another server of its build had it when this one
        /// started), it takes the socket over once that server has ended, at most once a second:
        /// one server per user and build, whoever started the one that stays.
        var lastTry = ContinuousClock.now
        func takeOverSocket() {
            guard !ownsSocket, ContinuousClock.now - lastTry >= .seconds(1) else { return }
            lastTry = .now
            let listened = listen()
            if case .failure(.alreadyRunning) = listened, activation == nil, let handBusOver,
               state.withLock({ connections == 0 }), bus?.waitsForButtons != true, handBusOver() {
                logger.info("The server of this build that has \(place.socketPath) took the session bus over")
                stop(leavingBus: false)
                return
            }
            guard case .success(let listener) = listened else { return }
            sockets.append(listener)
            identity = socketIdentity()
            socketOwned.store(true, ordering: .releasing)
            logger.info("Serving \(place.socketPath) too: the server that had it has ended")
        }
        /// Takes no more connections: its socket is removed (unless another server's has taken
        /// its place), so that clients run cold at once instead of waiting to be accepted, and it
        /// leaves the bus, so that the bus starts a new server for the next desktop request.
        func stopListening() {
            if let current = socketIdentity(), let identity, current == identity { unlink(place.socketPath) }
            sockets.forEach { close($0) }
            sockets = []
            bus?.stop()
        }
        /// Ends serving, once the requests the bus delivered before it was left are done.
        func finish(_ reason: String) {
            stopListening()
            // At most as long as a service manager waits after SIGTERM before it kills.
            let deadline = ContinuousClock.now + .seconds(10)
            while state.withLock({ connections > 0 }), ContinuousClock.now < deadline { usleep(20_000) }
            logger.info("Exiting: \(reason) (\(requestsServed) requests served)")
            workers.stopAll()
            warm.close()
        }
        var stoppingSince: ContinuousClock.Instant?
        while true {
            // Asked to stop: it stops listening at once (clients that keep coming must not keep
            // it alive) and exits when the requests under way have answered, or, after
            // `stopGrace`, cancels them (their helpers killed) and exits.
            let (stopping, busy) = state.withLock { (stopAsked, connections > 0) }
            if stopping {
                stopListening()
                let since = stoppingSince ?? .now
                stoppingSince = since
                if !busy {
                    finish("asked to stop")
                    return
                }
                if ContinuousClock.now - since >= WarmServer.stopGrace {
                    let grace = WarmServer.duration(Int(WarmServer.stopGrace.components.seconds))
                    let sentence = HostText.Phrase("server.cancelledStop", ["grace": grace])
                    // Outside the state lock: a cancel waits for nothing, but nothing should wait for it.
                    state.withLock { Array(running.values) }.forEach { $0.serverStops(answer: 128 + SIGTERM, saying: sentence) }
                    finish("asked to stop; the requests still running after \(grace) were cancelled")
                    return
                }
            }
            if !stopping { takeOverSocket() }
            var pollers = [pollfd(fd: stopSignals ?? -1, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
                + sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var ready = poll(&pollers, nfds_t(pollers.count), stopping ? 20 : 1000)
            if ready > 0 && pollers[1].revents != 0 {
                var bytes: (UInt64, UInt64) = (0, 0)
                _ = read(wake.read, &bytes, MemoryLayout.size(ofValue: bytes))
                ready -= 1
            }
            // Busy or not, a worker idle for workerIdleTimeout is stopped.
            workers.stopIdle()
            // Two seconds without a command: the state databases are closed (checkpointed, their
            // WAL removed), so that a file moved aside between bursts leaves nothing behind.
            if state.withLock({ connections == 0 && ContinuousClock.now - lastActivity >= .seconds(2) }) {
                warm.closeStates()
            }
            if ready > 0 && pollers[0].revents != 0, let signal = SignalPipe.next() {
                let sentence = HostText.Phrase("server.cancelledSignal", ["signal": "\(signal)"])
                state.withLock { Array(running.values) }.forEach { $0.serverStops(answer: 128 + signal, saying: sentence) }
                finish("signal \(signal)")
                return
            }
            if ready > 0, let socket = pollers.dropFirst(2).first(where: { $0.revents != 0 })?.fd {
                // Close-on-exec from the start: helpers are started on other threads meanwhile.
                let connection = standfit_wire_accept(socket)
                if connection >= 0 {
                    state.withLock { connections += 1 }
                    requestThreads.run { [self] in
                        handle(WireConnection(descriptor: connection))
                        state.withLock {
                            connections -= 1
                            lastActivity = .now
                        }
                    }
                }
                continue
            }
            // Once stopping, the stop decides when it exits (its own socket is already gone).
            if !stopping, let reason = reasonToExit(identity: identity) {
                finish(reason)
                return
            }
        }
    }

    /// Why the server should exit now, if it should: only when no connection is being served.
    private func reasonToExit(identity: SocketIdentity?) -> String? {
        let (busy, idle) = state.withLock { (connections > 0, ContinuousClock.now - lastActivity) }
        guard !busy else { return nil }
        if idle >= .seconds(idleTimeout) { return "idle for \(Int(idleTimeout)) s" }
        if WarmPlace.buildIdentity(of: executable) != place.build { return "its binary \(executable) was replaced" }
        guard ownsSocket else { return nil }
        guard let current = socketIdentity(), current == identity else {
            return "its socket \(place.socketPath) was removed or replaced"
        }
        return nil
    }

    /// 3 s, 4 min 12 s, 2 h 5 min.
    package static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s" }
        return (seconds % 3600) / 60 == 0 ? "\(seconds / 3600) h" : "\(seconds / 3600) h \((seconds % 3600) / 60) min"
    }
}
