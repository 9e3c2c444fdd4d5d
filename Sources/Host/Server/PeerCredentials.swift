import CWarmWire
import Foundation
import Glibc

/// Whether a client acts with the server's own credentials: the same group and supplementary
/// groups, the same mount namespace and the same root directory.
///
/// The server opens what a command names (an audio file, a JSON file, a manifest, the
/// directories the client's environment points at) with its own credentials. A client of the
/// same user may have fewer: it dropped a group (`setpriv --groups`, a sandbox), or it sees other
/// files under the same paths (another mount namespace). Served here, such a client would read
/// through the server what it cannot read itself (a confused deputy). So it is not served: it
/// runs its command cold, in its own process, with its own credentials.
enum PeerCredentials {
    /// Why the peer at `descriptor` (process `pid`) differs from this process, or nil when it
    /// does not.
    static func difference(descriptor: Int32, pid: pid_t) -> String? {
        var gid: gid_t = 0
        var groups = [gid_t](repeating: 0, count: 1024)
        let count = standfit_wire_peer_groups(descriptor, &gid, &groups, Int32(groups.count))
        guard count >= 0 else { return "its groups cannot be read (\(String(cString: strerror(errno))))" }
        guard gid == getegid() else { return "its group is \(gid), this server's \(getegid())" }
        let theirs = Set(groups.prefix(Int(count))), ours = own.groups
        guard theirs == ours else {
            let missing = ours.subtracting(theirs).sorted(), extra = theirs.subtracting(ours).sorted()
            return "its supplementary groups differ (" + (missing.isEmpty ? "" : "without \(missing)") + (missing.isEmpty || extra.isEmpty ? "" : ", ")
                + (extra.isEmpty ? "" : "with \(extra)") + ")"
        }
        var theirNamespace = stat()
        guard stat("/proc/\(pid)/ns/mnt", &theirNamespace) == 0, let ourNamespace = own.namespace else {
            return "its mount namespace cannot be read"
        }
        guard theirNamespace.st_ino == ourNamespace.inode, theirNamespace.st_dev == ourNamespace.device else {
            return "it sees another mount namespace"
        }
        // The same namespace seen from another root (chroot): other files under the same paths.
        var theirRoot = stat()
        guard stat("/proc/\(pid)/root", &theirRoot) == 0, let ourRoot = own.root else { return "its root directory cannot be read" }
        guard theirRoot.st_ino == ourRoot.inode, theirRoot.st_dev == ourRoot.device else {
            return "it has another root directory (chroot)"
        }
        return nil
    }

    /// This process's supplementary groups, mount namespace and root, read once: none changes
    /// while the server runs (it calls neither setgroups, setns nor chroot), and every
    /// connection compares them.
    private static let own: (groups: Set<gid_t>, namespace: (device: dev_t, inode: ino_t)?, root: (device: dev_t, inode: ino_t)?) = {
        var groups = [gid_t](repeating: 0, count: 1024)
        let count = getgroups(Int32(groups.count), &groups)
        var namespace = stat(), root = stat()
        let read = stat("/proc/self/ns/mnt", &namespace) == 0, rootRead = stat("/proc/self/root", &root) == 0
        return (Set(groups.prefix(Int(max(count, 0)))), read ? (namespace.st_dev, namespace.st_ino) : nil,
                rootRead ? (root.st_dev, root.st_ino) : nil)
    }()
}
