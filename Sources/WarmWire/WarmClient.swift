import CWarmWire
#if canImport(Glibc)
import Glibc
#endif

/// The client's side: hands one command to the server of this build and waits for its exit
/// status, or says that the command runs cold: because the server says so, or because no
/// server serves it (none listens, an unsafe directory, a server that does not answer in time
/// or speaks another protocol). A request the server accepted is never run again here,
/// whatever happens to the server.
public enum WarmClient {
    public enum Result: Equatable {
        /// The server ran the command; exit with this status.
        case exited(Int32)
        /// The server answered that the command runs in this process's place (the full host,
        /// cold): help, completions, a client of another build.
        case runCold
        /// No server serves it, for the reason given: it runs cold, unless `STANDFIT_SERVER`
        /// is `required`.
        case unavailable(ClientNotice.Reason)
        /// The server ended after it accepted the request (`ClientNotice.Reason.serverLost`):
        /// the command is not run again, and the client says so.
        case lost(ClientNotice.Reason)
    }

    /// How long a server has to accept a request before the client runs it cold, in
    /// milliseconds, unless `STANDFIT_ACCEPT_TIMEOUT` says otherwise (`acceptTimeout(from:)`).
    public static let acceptTimeout: Int32 = 1000
    /// The same through the activation socket, where the service manager may be starting the
    /// server for this very request.
    public static let activationAcceptTimeout: Int32 = 5000
    /// `STANDFIT_ACCEPT_TIMEOUT`: seconds (0.1 to 600) a server has to accept a request, for a
    /// machine under load (the test suite's warm pass lengthens it); the activation socket's
    /// wait is never shorter than its own default.
    public static let acceptTimeoutVariable = "STANDFIT_ACCEPT_TIMEOUT"

    /// The accept timeout in milliseconds that `value` (of `STANDFIT_ACCEPT_TIMEOUT`) names, or
    /// nil for none or one that is no number of seconds from 0.1 to 600 (the full host warns of
    /// that one).
    public static func acceptTimeout(from value: String?) -> Int32? {
        guard let value, let seconds = Double(value), seconds.isFinite, seconds >= 0.1, seconds <= 600 else { return nil }
        return Int32((seconds * 1000).rounded())
    }

    /// The accept timeout a request with `environment` asks for: its `STANDFIT_ACCEPT_TIMEOUT`,
    /// else the default.
    public static func acceptTimeout(environment: [String: String]) -> Int32 {
        acceptTimeout(from: environment[acceptTimeoutVariable]) ?? acceptTimeout
    }

    /// `milliseconds` as seconds, as the client's sentences say them ("1", "0.5").
    public static func seconds(_ milliseconds: Int32) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
    }

    /// The signals the client turns into a cancel message: Ctrl-C, kill, a closed terminal.
    static let cancelSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Forwards `request` with this process's descriptors 0, 1 and 2 to the server at `place`:
    /// the server of this build on its own socket, else whatever server a service manager
    /// started on the activation socket (which runs it only when it is of this build).
    public static func forward(_ request: WarmRequest, to place: WarmPlace, acceptTimeout accept: Int32 = acceptTimeout) -> Result {
        switch WarmPlace.state(of: place.directory) {
        case .privateToUser: break
        case .missing: return .unavailable(.noServer(socket: place.socketPath))
        case .unsafe(let problem): return .unavailable(.unsafeDirectory(place.directory, problem))
        }
        guard (0...2).allSatisfy({ fcntl($0, F_GETFD) >= 0 }) else { return .unavailable(.descriptors) }
        let connection: WireConnection, timeout: Int32
        if let own = connect(to: place.socketPath) ?? startingServer(place) {
            (connection, timeout) = (own, accept)
        } else if let activation = connect(to: place.activationSocketPath) {
            (connection, timeout) = (activation, max(accept, activationAcceptTimeout))
        } else {
            return .unavailable(.noServer(socket: place.socketPath))
        }
        var request = request
        request.build = place.build
        var serverUID: uid_t = 0, serverPID: pid_t = 0
        guard standfit_wire_peer(connection.descriptor, &serverUID, &serverPID) == 0, serverUID == getuid(),
              connection.send(.request(request), descriptors: [0, 1, 2]) == 0 else {
            return .unavailable(.notTaken(socket: place.socketPath))
        }
        switch connection.receive(timeout: timeout) {
        case .frame(.accepted): break
        case .frame(.runCold): return .runCold
        default: return .unavailable(.notAccepted(socket: place.socketPath, seconds: seconds(timeout)))
        }
        let signals = SignalPipe.install(cancelSignals)
        defer { SignalPipe.restore() }
        // Until the server has "go", it runs nothing; after it, the request is the server's.
        guard connection.send(.go) == 0 else { return .unavailable(.wentAway(socket: place.socketPath)) }
        while true {
            var pollers = [pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
            if poll(&pollers, 2, -1) < 0 {
                if errno == EINTR { continue }
                return .lost(.serverLost(pid: serverPID, command: describe(request.arguments)))
            }
            if pollers[1].revents != 0, let signal = SignalPipe.next() {
                connection.send(.cancel(signal: signal))
            }
            guard pollers[0].revents != 0 else { continue }
            switch connection.receive(timeout: 0) {
            case .frame(.exit(let status)): return .exited(status)
            case .timedOut: continue
            default: return .lost(.serverLost(pid: serverPID, command: describe(request.arguments)))
            }
        }
    }

    /// A connection to the server of `place`'s build that a command has just started in the
    /// background (its marker is fresh: `WarmPlace.startingPath`), waiting for it to listen at
    /// most `WarmPlace.startingWaitMilliseconds`; nil when none is starting or it did not listen.
    static func startingServer(_ place: WarmPlace) -> WireConnection? {
        var marker = stat()
        guard stat(place.startingPath, &marker) == 0 else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard now.tv_sec - marker.st_mtim.tv_sec <= WarmPlace.startingFresh else { return nil }
        var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
        for _ in 0..<(WarmPlace.startingWaitMilliseconds / 5) {
            nanosleep(&pause, nil)
            if let connection = connect(to: place.socketPath) { return connection }
            if access(place.startingPath, F_OK) != 0 { return connect(to: place.socketPath) }
        }
        return nil
    }

    /// A connection to the socket at `path`, or nil when nothing listens there.
    public static func connect(to path: String) -> WireConnection? {
        guard var address = UnixAddress.make(path) else { return nil }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        let connection = WireConnection(descriptor: descriptor)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return status == 0 ? connection : nil
    }

    /// `run TYPE` names the type; any other command its name (or its first argument).
    static func describe(_ arguments: [String]) -> String {
        let words = arguments.filter { !$0.hasPrefix("-") && !$0.contains("=") }
        if let run = words.firstIndex(of: "run"), run + 1 < words.count {
            return "'\(words[run + 1])'"
        }
        return "'\(words.first ?? arguments.first ?? "standfit-host")'"
    }
}

/// Signals turned into bytes on a pipe (the only thing a signal handler may safely do here),
/// for a poll loop to act on: the client sends Ctrl-C, SIGTERM and SIGHUP on as a cancel
/// message; the server ends cleanly on them. One per process.
public enum SignalPipe {
    /// Rationale for `nonisolated(unsafe)`: set before the handlers are installed, then only
    /// read (by them and by `next`).
    nonisolated(unsafe) private static var ends: [Int32] = [-1, -1]
    nonisolated(unsafe) private static var previous: [Int32: sigaction] = [:]

    /// Catches `signals` from now on; answers the pipe's read end (-1 when no pipe could be made).
    @discardableResult
    public static func install(_ signals: [Int32]) -> Int32 {
        if ends[0] < 0 {
            var pipeEnds: [Int32] = [0, 0]
            guard standfit_wire_pipe(&pipeEnds) == 0 else { return -1 }
            ends = pipeEnds
        }
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.ends[1], &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous[signal] = old
        }
        // A parent may have started this process with them blocked (a mask survives exec).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in signals { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return ends[0]
    }

    /// Puts back what the signals did before `install`.
    public static func restore() {
        for (signal, var old) in previous { sigaction(signal, &old, nil) }
        previous = [:]
    }

    /// The next signal caught, if any.
    public static func next() -> Int32? {
        var byte: UInt8 = 0
        return read(ends[0], &byte, 1) == 1 ? Int32(byte) : nil
    }
}

/// A Unix socket address.
public enum UnixAddress {
    /// The address of `path`, or nil when the path is too long for one (107 bytes).
    public static func make(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
