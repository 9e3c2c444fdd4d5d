import CHostSystem
import Foundation
import Glibc
import Synchronization
import HostModel

// How a helper could not start, how it ended, and the words for both.

/// Why a helper could not be started.
enum HelperError: Error, CustomStringConvertible {
    case system(String, Int32)
    /// Every one of the warm server's `serverWorkers` workers stayed busy past the call's deadline.
    case busy(Int)

    var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .busy(let limit): "all \(limit) of the warm server's workers stayed busy with other calls; try again, or raise serverWorkers in config.json"
        }
    }
}

extension HelperProcess.Termination {
    /// How the child ended, as words that follow a plugin's name: "crashed with SIGSEGV
    /// (segmentation fault)", "exited with status 3", "timed out after 5 s".
    func describe(timeout: Double) -> String {
        words(timeout: timeout).english
    }

    /// `describe(timeout:)` as the host's words, said in the language of the run that shows them.
    /// (The signal's own name and `strsignal`'s words stay as the system says them.)
    func words(timeout: Double) -> HostText.Phrase {
        switch self {
        case .exited(let code): HostText.Phrase("plugin.fault.exited", ["status": "\(code)"])
        case .signaled(let number): HostText.Phrase("plugin.fault.crashed", ["signal": Signal.describe(number)])
        case .timedOut: HostText.Phrase("plugin.fault.timedOut", ["seconds": Seconds.format(timeout)])
        }
    }
}

/// Names of the signals a faulty plugin dies of.
enum Signal {
    static func describe(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGILL: "SIGILL", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
            SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGSYS: "SIGSYS", SIGPIPE: "SIGPIPE",
        ]
        let name = names[number] ?? "signal \(number)"
        guard let text = strsignal(number) else { return name }
        return "\(name) (\(String(cString: text).lowercased()))"
    }
}

/// Seconds as people write them: "5", "0.5".
package enum Seconds {
    package static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
