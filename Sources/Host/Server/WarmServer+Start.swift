import Foundation
import Glibc
import HostModel

/// Where a server comes from and where it writes: the socket a service manager passed, and its log.
extension WarmServer {
    /// The listening socket a service manager passed (the LISTEN_FDS protocol: descriptor 3 when
    /// LISTEN_PID is this process), or nil; the variables are removed so that no worker inherits
    /// them.
    ///
    /// Rationale: the protocol is two variables and a descriptor number, documented in
    /// sd_listen_fds(3) as an interface to implement; linking libsystemd for it would make
    /// libsystemd-dev a build dependency of every build.
    package static func activationSocket() throws(HostError) -> Int32? {
        let environment = ProcessInfo.processInfo.environment
        defer { for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) } }
        guard let pid = environment["LISTEN_PID"].flatMap(pid_t.init), pid == getpid(),
              let count = environment["LISTEN_FDS"].flatMap(Int32.init), count > 0 else { return nil }
        let descriptor: Int32 = 3
        guard count == 1, WarmServer.isListeningUnixSocket(descriptor) else {
            throw HostError(.configInvalid, key: "error.serve.descriptors", ["count": "\(count)"])
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    /// `$XDG_STATE_HOME/standfit/server.log` (else `~/.local/state/standfit/server.log`).
    package static func logFile(request: HostRequest) -> URL {
        let state = request.environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? request.homeDirectory + "/.local/state"
        return URL(fileURLWithPath: state).appendingPathComponent("standfit/server.log")
    }
}
