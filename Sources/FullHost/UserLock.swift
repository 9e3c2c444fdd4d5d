import Foundation
import HostModel
import StandFitHost

/// A lock of the user's, `NAME.lock` in the cache directory (flock), for what must happen once at
/// a time across every command and server of the user: one listen, one suggestion offer decided.
enum UserLock {
    /// Takes the lock `name`, held on the descriptor returned until it is closed; waits for it
    /// when `wait`, else answers nil when another holds it.
    static func take(_ name: String, in session: HostSession, wait: Bool) throws(HostError) -> Int32? {
        let directory = session.paths.cacheDirectory
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name + ".lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw HostError(.io, key: "error.lock.open", ["path": path, "why": String(cString: strerror(errno)), "directory": directory.path])
        }
        var locked: Int32
        repeat { locked = flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) } while locked != 0 && errno == EINTR
        guard locked == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
