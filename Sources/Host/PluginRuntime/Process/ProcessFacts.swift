import CHostSystem
import Foundation
import Glibc

/// The process-wide facts a request brings: its environment, working directory and umask. The
/// warm server takes them on for each request it runs (`RequestScope`), and a warm plugin
/// worker for each call, so that plugin code (and every library that reads a variable, the
/// time zone, the working directory or the umask) sees exactly what a cold run's process would.
package struct ProcessFacts: Codable, Sendable, Equatable {
    package var environment: [String: String]
    package var workingDirectory: String
    package var umask: UInt32

    package init(environment: [String: String], workingDirectory: String, umask: UInt32) {
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.umask = umask
    }

    /// This process's umask (read by setting it and setting it back).
    package static var currentUmask: UInt32 {
        let mask = Glibc.umask(0o022)
        Glibc.umask(mask)
        return UInt32(mask)
    }

    /// Makes them this process's: the environment replaced whole, the time zone read again from
    /// `TZ` (as a process that just started would), the directory entered (false when it cannot
    /// be: then it is left as it was) and the umask set.
    @discardableResult
    package func apply() -> Bool {
        ProcessFacts.replaceEnvironment(with: environment.map { "\($0.key)=\($0.value)" })
        return enter()
    }

    /// The directory entered (false when it cannot be) and the umask set: the facts again for
    /// a process whose environment already is theirs.
    @discardableResult
    package func enter() -> Bool {
        Glibc.umask(mode_t(umask & 0o777))
        return chdir(workingDirectory) == 0
    }

    /// Replaces the whole environment with `entries` (`NAME=value`), and reads the time zone again.
    package static func replaceEnvironment(with entries: [String]) {
        _ = standfit_clear_environment()
        for entry in entries {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else { continue }
            setenv(String(entry[..<equals]), String(entry[entry.index(after: equals)...]), 1)
        }
        tzset()
        NSTimeZone.resetSystemTimeZone()
    }
}
