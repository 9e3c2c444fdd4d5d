import Foundation

/// Everything that belongs to one command and not to the process that serves it: the
/// environment, the working directory, whether the standard streams are terminals, the clock
/// and the home directory.
///
/// It is built once, at the edge (the executable, from its own process), and handed down; nothing
/// below the executable reads the process environment, the current directory, `isatty` or the
/// wall clock. That is what lets one long-lived process serve many requests exactly as many
/// short-lived ones would: each request brings its own facts.
public struct HostRequest: Sendable {
    /// The whole environment of the command.
    public var environment: [String: String]
    /// The directory relative paths on the command line are read against.
    public var workingDirectory: URL
    /// Whether standard input, output and error are terminals.
    public var stdinIsTerminal: Bool
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool
    /// "Now" for this command: `STANDFIT_NOW` (ISO 8601) when set, else the wall clock when the
    /// request was made; read once, so every part of one command sees the same instant. A
    /// `STANDFIT_NOW` that is not an instant is an error for the commands that ask for the time.
    public var clock: Result<Date, HostError>
    /// The wall clock when the request was made, whatever `STANDFIT_NOW` says: for bookkeeping
    /// times (when a scan was cached, a plugin pinned, items stored).
    public var wallClock: Date
    /// The user's home directory: `$HOME`, else the account's.
    public var homeDirectory: String
    /// The time zone local times are shown in: `$TZ`, else the system's.
    public var timeZone: TimeZone
    /// The umask files are created with (what plugin workers are given).
    public var umask: UInt32
    /// The command's standard input, output and error: descriptors 0, 1 and 2 in a cold
    /// process, the client's own (passed over the socket) in the warm server.
    public var streams: StandardStreams
    /// The process that asked, when a warm server serves the command for a client (its pid, as
    /// the socket's peer credentials give it); nil in a cold process, which is its own client.
    public var clientProcess: Int32?

    public init(environment: [String: String], workingDirectory: URL, stdinIsTerminal: Bool = false,
                stdoutIsTerminal: Bool = false, stderrIsTerminal: Bool = false, wallClock: Date,
                homeDirectory: String, timeZone: TimeZone, umask: UInt32 = 0o022,
                streams: StandardStreams = StandardStreams()) {
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.stdinIsTerminal = stdinIsTerminal
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
        self.homeDirectory = homeDirectory
        self.timeZone = timeZone
        self.umask = umask
        self.streams = streams
        self.wallClock = wallClock
        if let fixed = environment["STANDFIT_NOW"] {
            clock = ISO8601DateFormatter().date(from: fixed).map { .success($0) }
                ?? .failure(HostError(.configInvalid, key: "error.now", ["value": fixed]))
        } else {
            clock = .success(wallClock)
        }
    }

    /// Now, for this request.
    public func now() throws(HostError) -> Date { try clock.get() }

    /// `path` as an absolute URL: a relative one is read against the request's working directory.
    public func url(forPath path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path)
            : URL(fileURLWithPath: path, relativeTo: workingDirectory).standardizedFileURL
    }

    /// The paths of this request's XDG directories.
    public var paths: HostPaths { HostPaths(environment: environment, homeDirectory: homeDirectory) }
}

/// The descriptors a command reads its input from and writes its output and errors to.
public struct StandardStreams: Sendable, Equatable {
    public var input: Int32
    public var output: Int32
    public var error: Int32

    public init(input: Int32 = 0, output: Int32 = 1, error: Int32 = 2) {
        self.input = input
        self.output = output
        self.error = error
    }
}

extension HostRequest {
    /// The language a request is answered in: `locale` (its --locale) when given, else the
    /// environment's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), English when the host speaks none of them.
    public func language(locale: String? = nil) -> String {
        LanguagePreference(explicit: locale, environment: environment).language(fallback: nil)
    }
}
