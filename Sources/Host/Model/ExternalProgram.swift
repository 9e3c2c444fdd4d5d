import Foundation

/// A program of the user's system the host runs for a command (`systemctl`, `systemd-analyze`,
/// SoX), found on the request's PATH and run in the request's environment, its input empty.
public enum ExternalProgram {
    /// What it came to: status 127 when it is not there (as a shell says).
    public struct Result: Sendable {
        public var status: Int32
        public var output: Data
        /// Its standard error; empty when it was asked to share the output.
        public var errors: Data
    }

    /// Runs `program` with `arguments`; with `mergingErrors`, its errors go to `output` too.
    public static func run(_ program: String, _ arguments: [String], environment: [String: String],
                           mergingErrors: Bool = false) -> Result {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(program)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { return Result(status: 127, output: Data(), errors: Data()) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = mergingErrors ? output : errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return Result(status: 127, output: Data(), errors: Data())
        }
        // Its errors are a line or two (far below a pipe's 64 KiB), read once the output ends.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let said = mergingErrors ? Data() : errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: data, errors: said)
    }
}
