import Foundation
import HostModel

/// An exclusive `flock(2)` on a directory, held while a database in it is opened and migrated.
///
/// GRDB's guide "Sharing a Database" wraps the opening of a database that several processes
/// share — the pool and its migrator — in an `NSFileCoordinator`; this is the Linux counterpart.
/// Without it, two commands that open a new database at once (8 `run`s on a first day) both read
/// "no migration applied yet", and the second fails with "table … already exists" once the
/// first has created the schema. The lock belongs to the descriptor, so a process killed while
/// holding it releases it; it is not inherited by child processes (`O_CLOEXEC`).
enum DirectoryLock {
    static func withExclusiveLock<T>(on directory: URL, _ body: () throws -> T) throws -> T {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        return try body()
    }
}
