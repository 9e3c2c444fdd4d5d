import Foundation
import Glibc
import HostModel
import PluginRuntime
import WarmWire

extension HostRequest {
    /// The request being served: this process's own on the cold path; on the warm path the
    /// server binds each request's to the thread that serves it (`RequestScope`), built from
    /// what the client sent.
    @TaskLocal package static var current: HostRequest = .fromProcess()

    /// This process's environment, working directory, terminals, clock and home, read here
    /// and nowhere else. Everything below the executable gets them from `current`.
    package static func fromProcess() -> HostRequest {
        let environment = ProcessInfo.processInfo.environment
        return HostRequest(
            environment: environment,
            workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true),
            stdinIsTerminal: isatty(STDIN_FILENO) == 1, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
            stderrIsTerminal: isatty(STDERR_FILENO) == 1, wallClock: Date(),
            homeDirectory: home(in: environment), timeZone: .current, umask: ProcessFacts.currentUmask)
    }

    /// A client's request as the warm server serves it: the client's environment, directory,
    /// umask and descriptors, read exactly as `fromProcess` reads a cold process's own, but
    /// from the request, so that requests served side by side each have their own. The
    /// serving thread has entered the directory already (`RequestScope`); `entered` says
    /// whether it could. `zoneKnown` is false when the time zone the client's process would have
    /// cannot be told from its environment (`RequestTimeZone`): the request then has the
    /// server's, and a command that shows local times must run in the client's own process.
    static func fromClient(_ request: WarmRequest, streams: StandardStreams, entered: Bool) -> (request: HostRequest, zoneKnown: Bool) {
        var environment: [String: String] = [:]
        environment.reserveCapacity(request.environment.count)
        // As `ProcessInfo.environment` reads a process's: of two entries of one name, the last.
        for entry in request.environment {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else { continue }
            environment[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        let timeZone = RequestTimeZone.of(environment)
        let directory = entered ? FileManager.default.currentDirectoryPath : request.workingDirectory
        let host = HostRequest(
            environment: environment, workingDirectory: URL(fileURLWithPath: directory, isDirectory: true),
            stdinIsTerminal: isatty(streams.input) == 1, stdoutIsTerminal: isatty(streams.output) == 1,
            stderrIsTerminal: isatty(streams.error) == 1, wallClock: Date(),
            homeDirectory: home(in: environment), timeZone: timeZone ?? .current, umask: request.umask & 0o777,
            streams: streams)
        return (host, timeZone != nil)
    }

    /// `$HOME`, else the account's home directory.
    private static func home(in environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let directory = entry.pw_dir else {
            return "/"
        }
        return String(cString: directory)
    }
}

/// The time zone a process with a given environment has, as Foundation finds `TimeZone.current`
/// (`TZFILE`, then `TZ` as an abbreviation or an identifier, then the zone `/etc/localtime`
/// links to), worked out from the environment as a value, for a request the warm server serves.
///
/// Rationale: `TimeZone.current` reads the process's own environment, which the warm server
/// does not change per request (requests run side by side). A request whose `TZ` and `TZFILE`
/// are the server's own gets the server's `TimeZone.current`, Foundation's own answer. Otherwise
/// Foundation's last steps, the C library's zone name for a `TZ` it could not name and GMT, are
/// not repeated: for such an environment `of` answers nil and the command runs in the client's
/// own process, so the answer is Foundation's.
package enum RequestTimeZone {
    /// The server's own `TZ` and `TZFILE` (it never changes its environment).
    private static let own = (zone: ProcessInfo.processInfo.environment["TZ"], file: ProcessInfo.processInfo.environment["TZFILE"])

    package static func of(_ environment: [String: String]) -> TimeZone? {
        if environment["TZ"] == own.zone && environment["TZFILE"] == own.file { return .current }
        if let file = environment["TZFILE"], let zone = TimeZone(identifier: file) { return zone }
        if let name = environment["TZ"] {
            if let full = TimeZone.abbreviationDictionary[name], let zone = TimeZone(identifier: full) { return zone }
            if let zone = TimeZone(identifier: name) { return zone }
        }
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/etc/localtime", &target, Int(PATH_MAX))
        guard count > 0 else { return nil }
        let link = String(decoding: target.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let range = link.range(of: "/usr/share/zoneinfo/") else { return nil }
        return TimeZone(identifier: String(link[range.upperBound...]))
    }
}
