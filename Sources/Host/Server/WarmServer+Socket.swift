import CHostSystem
import Foundation
import Glibc
import HostModel
import WarmWire

/// The server's socket: bound under its build's lock, told apart from another server's, and
/// the lock that names the server of a build.
extension WarmServer {
    /// Why a server could not start.
    package enum StartFailure: Error {
        /// Another server of this build holds the lock.
        case alreadyRunning
        case refused(HostText.Phrase)
    }

    /// Binds the socket (after taking the build's lock, so two servers never share one).
    package func listen() -> Result<Int32, StartFailure> {
        switch WarmPlace.state(of: place.directory) {
        case .privateToUser:
            break
        case .missing:
            guard mkdir(place.directory, 0o700) == 0 || errno == EEXIST else {
                return .failure(.refused(HostText.Phrase("server.start.mkdir", ["directory": place.directory, "reason": String(cString: strerror(errno))])))
            }
            if case .unsafe(let problem) = WarmPlace.state(of: place.directory) {
                return .failure(.refused(HostText.Phrase("server.start.socketDirectoryMade", ["directory": place.directory], parts: ["problem": problem.phrase(place.directory)])))
            }
        case .unsafe(let problem):
            return .failure(.refused(HostText.Phrase("server.start.socketDirectory", ["directory": place.directory], parts: ["problem": problem.phrase(place.directory)])))
        }
        let lock = open(place.lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else {
            return .failure(.refused(HostText.Phrase("server.start.lock", ["path": place.lockPath, "reason": String(cString: strerror(errno))])))
        }
        // The lock is held, on this descriptor, until the process ends.
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            return .failure(.alreadyRunning)
        }
        // Its pid, for whoever must stop it without the protocol (a test, a script).
        _ = ftruncate(lock, 0)
        let pid = Array("\(getpid())\n".utf8)
        _ = pid.withUnsafeBytes { pwrite(lock, $0.baseAddress, $0.count, 0) }
        guard var address = UnixAddress.make(place.socketPath) else {
            return .failure(.refused(HostText.Phrase("server.start.pathLong", ["path": place.socketPath])))
        }
        // A socket left by a server that was killed: the lock says no server owns it now.
        unlink(place.socketPath)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // The socket is the user's alone before anyone can connect: set between bind and listen,
        // never after a client could already be talking to it (or a test change its mode).
        if listener >= 0, bound == 0 { chmod(place.socketPath, 0o600) }
        guard listener >= 0, bound == 0, Glibc.listen(listener, 128) == 0 else {
            let code = errno
            if listener >= 0 { close(listener) }
            return .failure(.refused(HostText.Phrase("server.start.listen", ["path": place.socketPath, "reason": String(cString: strerror(code))])))
        }
        // The command that started it in the background said so; clients need wait no longer.
        unlink(place.startingPath)
        return .success(listener)
    }

    /// The pid of the server of `place`'s build, when one runs: it holds its lock.
    package static func holder(of place: WarmPlace) -> pid_t? {
        let lock = open(place.lockPath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard lock >= 0 else { return nil }
        defer { close(lock) }
        guard flock(lock, LOCK_SH | LOCK_NB) != 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(lock, $0.baseAddress, 16, 0) }
        return pid_t(String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether `descriptor` is a listening Unix stream socket.
    package static func isListeningUnixSocket(_ descriptor: Int32) -> Bool {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0, value == 1 else { return false }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &value, &length) == 0, value == Int32(SOCK_STREAM.rawValue) else { return false }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &value, &length) == 0 else { return false }
        return value == AF_UNIX
    }

    /// Which file the socket path names, so the server can tell its own socket from another's.
    struct SocketIdentity: Equatable {
        var device: dev_t
        var inode: ino_t
    }

    func socketIdentity() -> SocketIdentity? {
        var info = stat()
        guard lstat(place.socketPath, &info) == 0 else { return nil }
        return SocketIdentity(device: info.st_dev, inode: info.st_ino)
    }
}

extension WarmPlace.DirectoryProblem {
    /// What is wrong with `directory`, and the way out, as words of the host's tables that follow
    /// the directory's path ("has mode 755, …; fix it with 'chmod 700 …'").
    package func phrase(_ directory: String) -> HostText.Phrase {
        HostText.Phrase("socketDirectory." + key, values(directory: directory))
    }
}
