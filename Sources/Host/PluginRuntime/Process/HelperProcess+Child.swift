import CHostSystem
import Foundation
import Glibc

/// What a helper's child is and how it ended, and the child's own side: the environment it is
/// started with, and dying with the host that started it.
extension HelperProcess {
    /// How a child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Killed by the host when it missed its deadline.
        case timedOut
    }

    /// What one read of the result pipe gave.
    enum Read {
        case line(Data)
        /// The child closed the pipe: it finished or died.
        case end
        case timedOut
        /// The answer grew past `answerLimit` bytes without ending; the child was stopped.
        case tooLong
    }

    /// The environment a helper runs in: the request's, with Swift's crash backtracer off
    /// unless `verbose` (the host reports a crash in one sentence), and the host's pid for
    /// `dieWithParent()`.
    static func environment(_ environment: [String: String], verbose: Bool) -> [String: String] {
        var environment = environment
        if !verbose { environment["SWIFT_BACKTRACE"] = "enable=no" }
        environment[HelperProcess.parentVariable] = String(getpid())
        return environment
    }

    /// Names the host's pid in the child's environment, for `dieWithParent()`.
    static let parentVariable = "STANDFIT_HELPER_PARENT"

    /// The child's side, first thing in a hidden mode: dies when the host that started it dies.
    /// A host killed with SIGKILL cannot kill its helper; without this, a helper scanning a
    /// plugin that hangs, or a worker running a hanging handler, would stay forever (reparented
    /// to init), and a worker could finish an action after its host was killed.
    static func dieWithParent(environment: [String: String]) {
        guard let text = environment[parentVariable], let parent = pid_t(text) else { return }
        _ = standfit_die_with_parent(parent)
    }

    /// Kills the child `pid` and the process group it leads.
    static func killGroup(of pid: pid_t) {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
    }
}
