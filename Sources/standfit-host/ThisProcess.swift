import Foundation
import HostModel

extension HostRequest {
    /// This process's own request: its environment, working directory, terminals, clock and
    /// home, read once, here and nowhere else. Everything below the executable gets them from
    /// this value.
    static let thisProcess: HostRequest = {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return HostRequest(
            environment: environment,
            workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            stdinIsTerminal: isatty(STDIN_FILENO) == 1, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
            stderrIsTerminal: isatty(STDERR_FILENO) == 1, wallClock: Date(), homeDirectory: home,
            timeZone: .current)
    }()
}
