import ArgumentParser
import CHostSystem
import CWarmWire
import Foundation
import Glibc
import HostModel
import Logging
import PluginRuntime
import StandFitHost
import WarmWire

/// One connection: its request parsed, run in its own scope (or handed back to the client to run
/// cold), watched for a cancel, and answered with the exit status.
extension WarmServer {

    /// Commands that must not run in the server: those that say so (`CommandTraits.runsCold`),
    /// and help, laid out for the client's terminal.
    static func runsCold(_ command: any ParsableCommand) -> Bool {
        CommandTraits.of(command).contains(.runsCold)
            // ArgumentParser's help command: help is laid out for the terminal's width, which
            // it reads from the process (COLUMNS, descriptor 1).
            || type(of: command).configuration.commandName == "help"
    }

    private static let parsedLinesKept = 32

    /// `StandFitHostCommand.parse`, answered from `parsedLines` for a line parsed before.
    ///
    /// Rationale: parsing is a function of the line alone (no command's `validate` reads
    /// anything else), and ArgumentParser builds its argument sets by reflection on every parse,
    /// which was the largest part of a warm `run`'s time in the server's profile. (Shell
    /// completions, whose parse runs code that reads the request, never come here.)
    private func parse(_ arguments: [String]) -> Result<any ParsableCommand, any Error> {
        let known = parsedLinesLock.withLock { () -> (any ParsableCommand)? in
            guard let index = parsedLines.firstIndex(where: { $0.arguments == arguments }) else { return nil }
            let line = parsedLines.remove(at: index)
            parsedLines.append(line)
            return line.command
        }
        if let known { return .success(known) }
        let parsed = StandFitHostCommand.parse(arguments)
        if case .success(let command) = parsed {
            parsedLinesLock.withLock {
                if parsedLines.count >= WarmServer.parsedLinesKept { parsedLines.removeFirst() }
                parsedLines.append((arguments, command))
            }
        }
        return parsed
    }

    func handle(_ connection: WireConnection) {
        var peerUID: uid_t = 0, peerPID: pid_t = 0
        guard standfit_wire_peer(connection.descriptor, &peerUID, &peerPID) == 0 else { return }
        guard peerUID == getuid() else {
            logger.warning("Refused a connection from user \(peerUID) (pid \(peerPID)): this server serves user \(getuid()) only.")
            return
        }
        // A peer that plugin code started (its worker, or anything the worker ran) is no user:
        // the sandbox already denies it the socket; this holds for trusted plugins too. Traced
        // at once, while the peer waits for its answer, and failing closed: a peer whose
        // process is gone (it handed its socket to a child and exited) cannot be traced and is
        // not served either. Nothing of such a request runs here; it is sent the cold way, where
        // a command started by plugin code refuses itself in a sentence.
        let origin = HostLineage.origin(of: peerPID)
        guard case .frame(.request(let request)) = connection.receive(timeout: 2000) else { return }
        let descriptors = connection.takeDescriptors()
        guard descriptors.count == 3 else {
            descriptors.forEach { close($0) }
            return
        }
        guard origin == .user else {
            descriptors.forEach { close($0) }
            if case .plugin(let ancestor) = origin {
                logger.warning("Refused a connection from pid \(peerPID): it was started by plugin code (process \(ancestor) runs the host's plugins), and plugins may not drive the host.")
            } else {
                logger.warning("Refused a connection from pid \(peerPID): its process or an ancestor is gone, so where it comes from cannot be told; it is sent the cold way.")
            }
            connection.send(.runCold)
            return
        }
        guard request.build == place.build else {
            // A client of another build, through the activation socket: it runs the command cold.
            descriptors.forEach { close($0) }
            logger.info("A client of build \(request.build) asked; this server is build \(place.build), so it runs its command cold.")
            connection.send(.runCold)
            return
        }
        // Shell completions run in the client's own process: ArgumentParser reads the shell that
        // asks (and writes its answer for it) from the process's environment.
        guard request.arguments.first != "---completion" else {
            descriptors.forEach { close($0) }
            connection.send(.runCold)
            return
        }
        // Requests run side by side, each on its connection's thread with facts of its own.
        guard let scope = RequestScope(request, descriptors: descriptors) else {
            connection.send(.runCold)
            return
        }
        defer { scope.leave() }
        let parsed = parse(request.arguments)
        switch parsed {
        case .failure where request.arguments != ["--version"]:
            // Help and usage errors are laid out for the terminal's width, which ArgumentParser
            // reads from the process (COLUMNS, descriptor 1): the client's own process says them.
            connection.send(.runCold)
            return
        case .success(let command):
            // server status and stop show no local time, and must reach the server whatever its mode.
            let controlsServer = CommandTraits.of(command).contains(.controlsServer)
            if WarmServer.runsCold(command) || (!scope.zoneKnown && !controlsServer) {
                connection.send(.runCold)
                return
            }
            if !controlsServer, let mode = try? warm.config(in: scope.request.paths.configDirectory)
                .serverMode(environment: scope.request.environment), mode == .off {
                connection.send(.runCold)
                return
            }
        case .failure:
            break
        }
        // Nothing has run yet: a client that gave up meanwhile runs the command cold itself.
        guard connection.send(.accepted) == 0, connection.receive(timeout: 5000) == .frame(.go) else { return }
        let watch = CancelWatch(connection: connection, scope: scope, logger: logger)
        state.withLock { running[ObjectIdentifier(scope)] = watch }
        let status: Int32 = scope.run {
            let status: Int32 = switch parsed {
            case .failure(let error): StandFitHostCommand.report(error)
            case .success(let command): StandFitHostCommand.execute(command)
            }
            Console.current.flush()
            return status
        }
        state.withLock {
            running[ObjectIdentifier(scope)] = nil
            served += 1
        }
        watch.finish(status: status)
    }
}

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
