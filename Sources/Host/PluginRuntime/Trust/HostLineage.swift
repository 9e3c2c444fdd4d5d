import Glibc
import Synchronization

/// Whether a process was started, however indirectly, by plugin code: by a process that runs
/// the host's own full binary (a warm or one-shot worker, a scan helper, or a cold command
/// running trusted plugins in its own process). The warm server refuses such a peer, and a
/// command started in such a tree refuses to run, so that no plugin drives the host: logs
/// exercises, trusts itself, installs files (issue 37). The sandbox is the first wall (no Unix
/// socket, so no server and no bus); this is the second.
///
/// The chain holds: every helper is its descendants' subreaper, and sandboxed code can neither
/// give that up nor leave its session, nor make itself undumpable to hide its executable
/// (seccomp). The host's own children that are not plugin code (`serve` started by a cold
/// command, the helpers themselves) are told apart by their command, not by this.
package enum HostLineage {
    /// The host binary's identity: its device and inode, and its path.
    private struct Executable: Equatable {
        var device: UInt64
        var inode: UInt64
        var path: String

        /// What `/proc/PID/exe` names, or nil when it cannot be read (another user's process,
        /// or one that is gone).
        init?(of pid: String) {
            var info = stat()
            guard stat("/proc/\(pid)/exe", &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            let bytes = buffer[..<count].map { UInt8(bitPattern: $0) }
            var name = String(decoding: bytes, as: UTF8.self)
            // A binary replaced since the process started (an upgrade) still counts.
            if name.hasSuffix(" (deleted)") { name.removeLast(" (deleted)".count) }
            path = name
        }

        func isSameProgram(as other: Executable) -> Bool {
            (device == other.device && inode == other.inode) || path == other.path
        }
    }

    /// The nearest strict ancestor of `pid` that runs the same binary as this process, or nil
    /// when none does (a command typed in a shell, started by a launcher, a service manager or
    /// the session bus). Reads at most 64 generations of `/proc/PID/stat`.
    package static func hostAncestor(of pid: pid_t) -> pid_t? {
        if case .plugin(let ancestor) = origin(of: pid) { return ancestor }
        return nil
    }

    /// Where a process comes from, as far as its ancestry can be read.
    package enum Origin: Equatable, Sendable {
        /// No ancestor runs the host's binary: the chain reaches init (or the kernel).
        case user
        /// Process `pid` (an ancestor) runs the host's binary.
        case plugin(pid_t)
        /// The chain cannot be read (the process, or an ancestor, is gone): a peer that cannot
        /// be traced is not taken for a user's.
        case unknown
    }

    /// This process's own binary, read once: a server whose binary is replaced (an upgrade)
    /// still names the one it runs.
    private static let ownExecutable = Executable(of: "self")

    /// A process already traced to the user: its pid and start time (in clock ticks since boot),
    /// which together name one process for as long as the machine runs.
    private struct Traced: Hashable {
        var pid: pid_t
        var start: UInt64
    }

    /// Processes traced to the user before, so that a server's next peer from the same shell
    /// reads only its own new ancestors.
    ///
    /// Rationale for trusting an entry: a process's ancestors only ever leave its chain (an
    /// orphan goes up to a subreaper above it, or to init), so one traced to the user stays the
    /// user's; what it runs itself can change (exec), so the walk still checks its binary.
    private static let tracedToUser = Mutex<Set<Traced>>([])
    private static let tracedKept = 512

    package static func origin(of pid: pid_t) -> Origin {
        guard let host = ownExecutable else { return .unknown }
        var current = pid
        var walked: [Traced] = []
        var origin = Origin.unknown
        for _ in 0..<64 {
            guard let parent = ProcessStat(of: current)?.parent else { break }
            if parent <= 1 {
                origin = .user
                break
            }
            guard let facts = ProcessStat(of: parent) else { break }
            if let program = Executable(of: String(parent)), program.isSameProgram(as: host) {
                origin = .plugin(parent)
                break
            }
            let traced = Traced(pid: parent, start: facts.start)
            if tracedToUser.withLock({ $0.contains(traced) }) {
                origin = .user
                break
            }
            walked.append(traced)
            current = parent
        }
        if origin == .user, !walked.isEmpty {
            tracedToUser.withLock { known in
                if known.count + walked.count > tracedKept { known.removeAll() }
                known.formUnion(walked)
            }
        }
        return origin
    }

    /// What `/proc/PID/stat` says of a process: its parent and its start time.
    ///
    /// Rationale: read with `open`/`read` into a buffer on the stack and scanned by hand, not
    /// through FileHandle and String: the server traces every peer's chain on each request, and
    /// the Foundation reading was a third of a warm `--version`'s time in the server's profile.
    private struct ProcessStat {
        var parent: pid_t
        var start: UInt64

        init?(of pid: pid_t) {
            let descriptor = "/proc/\(pid)/stat".withCString { open($0, O_RDONLY | O_CLOEXEC) }
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            let tokens = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer -> [UInt64] in
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                // The command name is in parentheses and may hold anything, spaces and ')'
                // included: the fields are what follows the last ')', one space apart; the first
                // is the state (proc(5)'s field 3), so the parent (field 4) is token 1 and the
                // start time (field 22) token 19.
                guard count > 0, let end = buffer[..<count].lastIndex(of: UInt8(ascii: ")")), end + 2 < count else { return [] }
                var tokens: [UInt64] = []
                tokens.reserveCapacity(20)
                var value: UInt64 = 0
                for byte in buffer[(end + 2)..<count] {
                    if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") {
                        tokens.append(value)
                        value = 0
                        if tokens.count == 20 { break }
                    } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                        value = value &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                    }
                }
                return tokens
            }
            guard tokens.count == 20 else { return nil }
            parent = pid_t(truncatingIfNeeded: tokens[1])
            start = tokens[19]
        }
    }
}
