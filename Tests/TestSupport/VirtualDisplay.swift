import Foundation
import Synchronization

/// X display numbers for the tests' Xvfb servers.
public enum VirtualDisplay {
    private static let handedOut = Mutex<Set<Int>>([])

    /// A display number no running X server uses and no other test of this process was given:
    /// two suites starting Xvfb at once (they run in parallel) must not both take the first
    /// free one, which only the first Xvfb would then get.
    public static func free() -> Int? {
        handedOut.withLock { taken in
            let number = (90..<190).first {
                !taken.contains($0) && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)")
                    && !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock")
            }
            if let number { taken.insert(number) }
            return number
        }
    }
}
