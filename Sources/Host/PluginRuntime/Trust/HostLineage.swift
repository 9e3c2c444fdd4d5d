import Foundation
import Glibc

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

    package static func origin(of pid: pid_t) -> Origin {
        guard let host = Executable(of: "self") else { return .unknown }
        var current = pid
        for _ in 0..<64 {
            guard let parent = parent(of: current) else { return .unknown }
            if parent <= 1 { return .user }
            if let program = Executable(of: String(parent)), program.isSameProgram(as: host) { return .plugin(parent) }
            current = parent
        }
        return .unknown
    }

    private static func parent(of pid: pid_t) -> pid_t? {
        statFields(of: pid).flatMap { $0.count > 1 ? pid_t($0[1]) : nil }
    }

    /// The fields of `/proc/PID/stat` after the command name: state, ppid, …
    private static func statFields(of pid: pid_t) -> [Substring]? {
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/stat"),
              let data = try? handle.readToEnd() else { return nil }
        try? handle.close()
        let text = String(decoding: data, as: UTF8.self)
        // The command name is in parentheses and may hold anything, spaces and ')' included.
        guard let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }
}
