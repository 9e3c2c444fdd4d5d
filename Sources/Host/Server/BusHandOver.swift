import Foundation
import Glibc

/// Who may ask for `server take-bus`: the hand-over is a hidden command between two servers of
/// one build, asked by the one the session bus started (`serve --dbus-activated`) of the one
/// that has the socket. The server serves only its own user (and never what plugin code
/// started), and beyond that it tells its own processes apart where Linux lets it: the asking
/// process must run this very executable (the same file, by device and inode, as
/// `/proc/self/exe`) as `serve … --dbus-activated`. A script of the user's that speaks the wire
/// protocol, or a user who types the hidden command, is refused in a sentence.
package enum BusHandOver {
    /// Whether process `pid` is a server of this executable started by the session bus.
    package static func isAskedByActivatedServer(_ pid: Int32) -> Bool {
        var theirs = stat(), ours = stat()
        guard stat("/proc/\(pid)/exe", &theirs) == 0, stat("/proc/self/exe", &ours) == 0,
              theirs.st_dev == ours.st_dev, theirs.st_ino == ours.st_ino,
              let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        let arguments = line.split(separator: 0, omittingEmptySubsequences: false).dropFirst().map { String(decoding: $0, as: UTF8.self) }
        return arguments.first == "serve" && arguments.contains("--dbus-activated")
    }
}
