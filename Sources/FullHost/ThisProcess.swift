import Foundation
import HostModel
import PluginRuntime

extension HostRequest {
    /// The request being served: this process's own on the cold path; on the warm path the
    /// server sets it for each request it runs (`RequestScope`), after making the process look
    /// as the client's did (environment, working directory, umask, descriptors 0–2, time zone).
    ///
    /// Rationale for `nonisolated(unsafe)`: the server runs one request at a time, under its
    /// request lock, and sets this before any command code reads it; nothing else writes it.
    nonisolated(unsafe) static var current: HostRequest = .fromProcess()

    /// This process's environment, working directory, terminals, clock and home, read here
    /// and nowhere else. Everything below the executable gets them from `current`.
    static func fromProcess(workingDirectory: String? = nil) -> HostRequest {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return HostRequest(
            environment: environment,
            workingDirectory: URL(fileURLWithPath: workingDirectory ?? FileManager.default.currentDirectoryPath,
                                  isDirectory: true),
            stdinIsTerminal: isatty(STDIN_FILENO) == 1, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
            stderrIsTerminal: isatty(STDERR_FILENO) == 1, wallClock: Date(), homeDirectory: home,
            timeZone: .current, umask: ProcessFacts.currentUmask)
    }
}
