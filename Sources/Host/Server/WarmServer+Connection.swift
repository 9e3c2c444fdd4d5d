import CHostSystem
import CWarmWire
import Foundation
import Glibc
import HostModel
import Logging
import PluginRuntime
import WarmWire

/// One connection: its peer and build checked, its request taken on in a scope of its own and
/// admitted by the commands (or handed back to the client to run cold), watched for a cancel,
/// and answered with the exit status.
extension WarmServer {

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
                logger.warning("Handed back to run cold: pid \(peerPID) was started by plugin code (process \(ancestor) runs the host's plugins), and plugins may not drive the host.")
            } else {
                logger.warning("Handed back to run cold: pid \(peerPID) or an ancestor is gone, so where it comes from cannot be told.")
            }
            connection.send(.runCold)
            return
        }
        if let difference = PeerCredentials.difference(descriptor: connection.descriptor, pid: peerPID) {
            // What the command names is opened with the client's own credentials, cold.
            descriptors.forEach { close($0) }
            logger.info("Handed back to run cold: a client (pid \(peerPID)) whose credentials are not this server's asked: \(difference); it runs its command with its own.")
            connection.send(.runCold)
            return
        }
        guard request.build == place.build else {
            // A client of another build, through the activation socket: it runs the command cold.
            descriptors.forEach { close($0) }
            logger.info("Handed back to run cold: a client of build \(request.build) asked; this server is build \(place.build).")
            connection.send(.runCold)
            return
        }
        // Requests run side by side, each on its connection's thread with facts of its own.
        guard let scope = RequestScope(request, descriptors: descriptors, client: peerPID, server: self) else {
            logger.info("Handed back to run cold: this thread cannot have a working directory of its own (pid \(peerPID))")
            connection.send(.runCold)
            return
        }
        defer { scope.leave() }
        let body: () -> Int32
        switch commands.admit(request.arguments, in: scope, by: self) {
        case .serve(let run):
            body = run
        case .runCold(let reason, let asDesigned):
            // Said in the log, so that a command handed back by mistake shows (the tests' warm
            // pass fails on one that was not meant to be).
            logger.info("Handed back to run cold\(asDesigned ? " (as designed)" : ""): \(reason) (pid \(peerPID))")
            connection.send(.runCold)
            return
        }
        // Nothing has run yet: a client that gave up meanwhile runs the command cold itself.
        guard connection.send(.accepted) == 0, connection.receive(timeout: 5000) == .frame(.go) else { return }
        let watch = CancelWatch(connection: connection, scope: scope, logger: logger, watcher: cancelWatcher)
        state.withLock { running[ObjectIdentifier(scope)] = watch }
        let status: Int32 = scope.run {
            let status = body()
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

