import Foundation
import Testing
import WarmWire

/// What a finished process printed and how it exited.
public struct ProcessResult: Sendable, Equatable, CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    public var description: String {
        "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}

/// Starts `tool` with `arguments` and exactly `environment` in the background: stdin and stdout
/// on /dev/null, stderr appended to `log` (else /dev/null), no other descriptor of the test
/// process (`SandboxServer.closeOthers`), and no signal blocked or ignored (a test thread's mask
/// would be inherited), so that SIGTERM ends it. Its pid, or nil when it could not start.
///
/// Rationale: posix_spawn rather than Foundation's Process, whose child-exit monitoring blocks
/// in waitpid on a long-lived child when another of its children ends.
///
/// With `ownGroup`, it leads a process group of its own, so that `endGroup` ends what it started too.
public func spawnInBackground(_ tool: String, _ arguments: [String], environment: [String: String], log: URL?,
                              ownGroup: Bool = false) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for target in Int32(0)...2 {
        posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
    }
    if let log { posix_spawn_file_actions_addopen(&actions, 2, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o600) }
    SandboxServer.closeOthers(&actions)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownGroup ? POSIX_SPAWN_SETPGROUP : 0)))
    if ownGroup { posix_spawnattr_setpgroup(&attributes, 0) }
    let argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, tool, &actions, &attributes, argv, envp) == 0 else { return nil }
    return pid
}

/// Ends the process group `leader` leads (`spawnInBackground(ownGroup: true)`): SIGTERM to the
/// group, SIGKILL after 10 s, the leader reaped, and whatever of the group is left killed.
public func endGroup(_ leader: pid_t) {
    kill(-leader, SIGTERM)
    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(10)
    while waitpid(leader, &status, WNOHANG) == 0 {
        if Date() > deadline { kill(-leader, SIGKILL) }
        usleep(2_000)
    }
    kill(-leader, SIGKILL)
}

/// Waits until `condition` holds, for at most `seconds`: whether it did.
public func eventually(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(10_000)
    }
    return true
}

/// SIGPIPE ignored in the test process, once.
private let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Runs `executable` to completion with `arguments` and exactly `environment`.
public func runProcess(_ executable: URL, arguments: [String], environment: [String: String]? = nil,
                       stdin: String? = nil) -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe(), error = Pipe(), input = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = input
    do {
        try process.run()
    } catch {
        return ProcessResult(status: -1, stdout: "", stderr: "could not start \(executable.path): \(error)")
    }
    // A process that exits without reading its input costs its own test an expectation, never
    // the test process a SIGPIPE (or FileHandle's trap on EPIPE).
    ignoreBrokenPipes
    if let stdin { try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a chatty process cannot block on a full pipe.
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    group.enter()
    DispatchQueue.global().async {
        errorData = error.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: outputData, as: UTF8.self),
                         stderr: String(decoding: errorData, as: UTF8.self))
}

/// Which path the end-to-end tests take: cold (every command a process of its own,
/// `STANDFIT_SERVER=off`), or warm (through a server the sandbox starts before its first
/// command). Scripts/test runs the end-to-end suites both ways with the same expectations;
/// `STANDFIT_TEST_PATH=warm` chooses the warm one.
public enum HostPath: String, Sendable {
    case cold, warm

    public static let current: HostPath =
        ProcessInfo.processInfo.environment["STANDFIT_TEST_PATH"].flatMap(HostPath.init(rawValue:)) ?? .cold
}

/// `standfit-host` run against a private home: its own XDG directories and plugin path.
public struct HostSandbox: Sendable {
    public let root: URL
    public var pluginPath: [URL]
    public var extraEnvironment: [String: String] = [:]
    /// On the warm path, a command the sandbox's server hands back to run cold (other than one
    /// that always runs in its own process: help, completions, the worker commands) records an
    /// issue, since the warm pass would then prove nothing of the warm path; a test that means
    /// a command to run cold (config.json's server mode off) says so here.
    public var coldRunsExpected = false
    /// The path this sandbox's commands take: the pass's (`HostPath.current`), unless a test
    /// chooses one (the warm pass's own checks are tested on the cold pass too).
    public var path: HostPath = .current
    /// The sandbox's warm server, on the warm path: started before the first command `run`
    /// runs, stopped when the last copy of this sandbox goes.
    public let server: SandboxServer

    /// A sandbox whose plugin path holds the two example plugins, at a fixed instant and zone
    /// (Sunday 22 November 2026, 13:05 UTC), so that no answer depends on when the test runs.
    public init(pluginPath: [URL] = [Fixtures.swiftExamplePlugin, Fixtures.cExamplePlugin]) {
        root = makeTemporaryDirectory("standfit-e2e")
        self.pluginPath = pluginPath
        server = SandboxServer(runtimeDirectory: root.appendingPathComponent("run"))
        extraEnvironment = ["TZ": "UTC", "STANDFIT_NOW": "2026-11-22T13:05:00Z"]
    }

    /// A sandbox with only the built StandFit plugin, at a fixed instant and zone: Sunday
    /// 22 November 2026, 14:05 in Amsterdam.
    public static func standFit() -> HostSandbox {
        var sandbox = HostSandbox(pluginPath: [Fixtures.standFitPlugin])
        sandbox.extraEnvironment = ["TZ": "Europe/Amsterdam", "STANDFIT_NOW": "2026-11-22T13:05:00Z"]
        return sandbox
    }

    public var configDirectory: URL { root.appendingPathComponent("config/standfit") }

    /// For a failure message: where the named log files of the sandbox are, and their last
    /// lines (the sandbox is removed when the test process exits, unless STANDFIT_TEST_KEEP=1).
    public func logs(_ names: String...) -> String {
        let tails = names.map { name -> String in
            let text = (try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)) ?? "(none)"
            return "--- the last lines of \(name):\n" + text.split(separator: "\n", omittingEmptySubsequences: false).suffix(15).joined(separator: "\n")
        }
        return "see \(names.joined(separator: " and ")) in \(root.path) (kept with STANDFIT_TEST_KEEP=1)\n" + tails.joined(separator: "\n")
    }

    public var environment: [String: String] {
        var environment = [
            "HOME": root.path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
            "STANDFIT_PLUGIN_PATH": pluginPath.map(\.path).joined(separator: ":"),
            "XDG_STATE_HOME": root.appendingPathComponent("state").path,
            "XDG_RUNTIME_DIR": server.runtimeDirectory.path,
            "LANG": "C",
            "PATH": "/usr/bin:/bin",
            // Cold: never a server. Warm: the sandbox's own server, no other started, and a
            // command it does not serve fails (exit 69) rather than run cold unseen.
            "STANDFIT_SERVER": path == .warm ? "required" : "off",
            // A server under the load of the whole suite may take more than the default second
            // to accept a command; the warm pass must not turn that into a failure.
            "STANDFIT_ACCEPT_TIMEOUT": "30",
        ]
        environment.merge(extraEnvironment) { $1 }
        return environment
    }

    /// Runs the built `standfit-host` with `arguments`.
    public func run(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) -> ProcessResult {
        run(arguments, sourceLocation: sourceLocation)
    }

    public func run(_ arguments: [String], stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> ProcessResult {
        if let failure = serveWarmPath() {
            return ProcessResult(status: -1, stdout: "", stderr: failure)
        }
        return checkingHandBacks(arguments.joined(separator: " "), sourceLocation: sourceLocation) {
            runProcess(Fixtures.hostBinary, arguments: arguments, environment: environment, stdin: stdin)
        }
    }

    /// Runs `body`, which starts the host itself (in a shell, in tmux, with an environment of its
    /// own), and on the warm path records an issue for each command the sandbox's server handed
    /// back to run cold meanwhile, naming `what`, as `run` does for its commands; unless
    /// `coldRunsExpected`. The check reads what `body` added to the server's log, so `body`
    /// covers the whole of what it checks: for a terminal session, from before the session
    /// starts until its last screen is read.
    public func checkingHandBacks<T>(_ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                                     _ body: () throws -> T) rethrows -> T {
        let log = root.appendingPathComponent("server.log")
        let before = path == .warm ? (try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0 : 0
        // Also when `body` throws: what it ran before is checked all the same.
        defer { recordHandBacks(in: log, after: before, what, sourceLocation: sourceLocation) }
        return try body()
    }

    /// `checkingHandBacks`'s check: an issue per hand-back line the log gained after `offset`.
    private func recordHandBacks(in log: URL, after offset: Int, _ what: String, sourceLocation: SourceLocation) {
        guard path == .warm, !coldRunsExpected, let handle = FileHandle(forReadingAtPath: log.path) else { return }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(offset))
        let added = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
        for line in added.split(separator: "\n") where line.contains("Handed back to run cold: ") {
            Issue.record("The warm server did not serve '\(what)': \(line)", sourceLocation: sourceLocation)
        }
    }

    /// Starts the sandbox's warm server unless it runs (`fullHost serve`, its log in
    /// `server.log` beside the sandbox's directories): nil once it listens, else why not, for
    /// the test to fail with.
    @discardableResult
    public func startServer(fullHost: URL = Fixtures.fullHostBinary) -> String? {
        server.start(environment: environment, log: root.appendingPathComponent("server.log"), fullHost: fullHost)
    }

    /// On the warm path, `startServer`: for the commands a test runs itself (in a shell, in
    /// tmux, with an environment of its own), which the warm pass serves too, and checks inside
    /// `checkingHandBacks`. Nil on the cold path.
    @discardableResult
    public func serveWarmPath(fullHost: URL = Fixtures.fullHostBinary) -> String? {
        path == .warm ? startServer(fullHost: fullHost) : nil
    }

    /// `$XDG_DATA_HOME` of the sandbox.
    public var dataHome: URL { root.appendingPathComponent("data") }
}

extension HostSandbox {
    /// A sandbox with `plugins` on its path. With a plugin that hangs ("hang-…"), short deadlines
    /// in `config.json` (one second to scan a plugin, one for a handler in a worker), so it is
    /// found quickly; without one, the defaults, so that a loaded machine cannot make a good
    /// plugin miss its deadline.
    public static func zoo(_ plugins: [URL]) -> HostSandbox {
        let sandbox = HostSandbox(pluginPath: plugins)
        if plugins.contains(where: { $0.lastPathComponent.hasPrefix("hang-") }) {
            sandbox.writeConfig(#"{"scanTimeout": 1, "handlerTimeout": 1}"#)
        }
        return sandbox
    }

    /// Writes `config.json`.
    public func writeConfig(_ json: String) {
        try? FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
        try? Data(json.utf8).write(to: configDirectory.appendingPathComponent("config.json"))
    }

    /// `PRAGMA integrity_check` of the host's state database, "ok" when it is sound.
    public func stateIntegrity() -> String {
        let file = dataHome.appendingPathComponent("standfit/state.sqlite")
        return runProcess(ExternalTool.sqlite3.url, arguments: [file.path, "PRAGMA integrity_check;"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The registry cache file.
    public var registryCache: URL { root.appendingPathComponent("cache/standfit/registry.sqlite") }
}

/// A sandbox's warm server: `standfit-host-full serve`, a child of the test process, started
/// once and stopped (SIGTERM, then waited for) when the sandbox goes, with every other server
/// a test started in the same runtime directory.
///
/// Started with posix_spawn rather than Foundation's Process, whose child-exit monitoring
/// blocks in waitpid on a long-lived child when another of its children ends.
public final class SandboxServer: @unchecked Sendable {
    public let runtimeDirectory: URL
    private let lock = NSLock()
    private var child: pid_t?

    init(runtimeDirectory: URL) {
        self.runtimeDirectory = runtimeDirectory
        try? FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
    }

    /// The server's pid, once started.
    public var pid: pid_t? { lock.withLock { child } }

    /// The directory the sockets are in.
    public var socketDirectory: URL { runtimeDirectory.appendingPathComponent("standfit") }

    /// Starts the server with `environment` unless it runs, and waits until it listens; its
    /// log (stderr) goes to `log` when given, with its debug lines when `verbose`.
    @discardableResult
    public func start(environment: [String: String], log: URL? = nil, verbose: Bool = false,
                      fullHost: URL = Fixtures.fullHostBinary) -> String? {
        lock.withLock {
            // One that ended (a test or a plugin killed it) is replaced.
            var ended: Int32 = 0
            if let child, waitpid(child, &ended, WNOHANG) == child { self.child = nil }
            if let child, !listening() {
                // One being killed stops listening before it can be reaped: it is given 5 s to end.
                let deadline = Date().addingTimeInterval(5)
                var reaped = false
                while !reaped, Date() < deadline {
                    reaped = waitpid(child, &ended, WNOHANG) == child
                    if !reaped { usleep(2_000) }
                }
                guard reaped else { return "the sandbox's warm server (pid \(child)) no longer listens in \(socketDirectory.path)" }
                self.child = nil
            }
            if child != nil { return nil }
            // A test process killed before its sandboxes go leaves servers that end on their own.
            let arguments = ["serve", "--idle-timeout", "120"] + (verbose ? ["--verbose"] : [])
            guard let pid = spawnInBackground(fullHost.path, arguments, environment: environment, log: log) else {
                return "the sandbox's warm server could not be started (\(fullHost.path) serve: \(String(cString: strerror(errno))))"
            }
            child = pid
            let deadline = Date().addingTimeInterval(20)
            var status: Int32 = 0
            while Date() < deadline, !listening() {
                if waitpid(pid, &status, WNOHANG) == pid {
                    child = nil
                    let said = log.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
                    return "the sandbox's warm server exited with status \(status >> 8) before it listened\(said.isEmpty ? "" : "; it said: \(said)")"
                }
                usleep(2_000)
            }
            return listening() ? nil : "the sandbox's warm server (pid \(pid)) did not listen within 20 s in \(socketDirectory.path)"
        }
    }

    /// Starts `systemd-socket-activate` listening on the activation socket (`host.sock`), as
    /// the user's service manager does with standfit-host.socket: on the first connection it
    /// becomes `standfit-host-full serve` (same pid), given the socket as descriptor 3 and
    /// `environment`, its stderr (the server's log in the foreground, as in a service's
    /// journal) appended to `log`. Answers its pid once it listens.
    public func startActivated(environment: [String: String], log: URL) -> pid_t? {
        lock.withLock {
            guard child == nil else { return nil }
            try? FileManager.default.createDirectory(at: socketDirectory, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            let socket = socketDirectory.appendingPathComponent("host.sock").path
            let tool = ExternalTool.systemdSocketActivate.path
            let arguments = ["-l", socket] + environment.sorted { $0.key < $1.key }.flatMap { ["-E", "\($0.key)=\($0.value)"] }
                + [Fixtures.fullHostBinary.path, "serve", "--idle-timeout", "120"]
            guard let pid = spawnInBackground(tool, arguments, environment: environment, log: log) else { return nil }
            child = pid
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, !FileManager.default.fileExists(atPath: socket), kill(pid, 0) == 0 {
                usleep(2_000)
            }
            return pid
        }
    }

    /// Closes, in the child, every descriptor above 2 open in the test process now: pipes that
    /// other tests' processes are being given (Foundation's are not close-on-exec) must not be
    /// held open by a long-lived server, nor reach its plugins.
    static func closeOthers(_ actions: inout posix_spawn_file_actions_t) {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    /// Waits up to `seconds` for the server this started to exit, and reaps it: whether it did.
    public func waitForExit(_ seconds: Double = 10) -> Bool {
        lock.withLock {
            guard let pid = child else { return true }
            var status: Int32 = 0
            let deadline = Date().addingTimeInterval(seconds)
            while waitpid(pid, &status, WNOHANG) == 0 {
                if Date() > deadline { return false }
                usleep(2_000)
            }
            child = nil
            return true
        }
    }

    /// Whether a server of any build accepts connections on a socket here (a socket file a
    /// killed server left behind does not count).
    public func listening() -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: socketDirectory.path)) ?? []
        return names.contains { $0.hasSuffix(".sock") && Self.accepts(socketDirectory.appendingPathComponent($0).path) }
    }

    /// Whether something accepts a connection on the Unix socket at `path`.
    static func accepts(_ path: String) -> Bool {
        // The connection closes as it goes.
        WarmClient.connect(to: path) != nil
    }

    /// Stops every server in the runtime directory: each writes its pid into the lock it holds.
    public func stopAll() {
        lock.withLock {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: socketDirectory.path)) ?? []
            for name in names where name.hasSuffix(".lock") {
                let path = socketDirectory.appendingPathComponent(name).path
                guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                      let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else { continue }
                let descriptor = open(path, O_RDWR | O_CLOEXEC)
                guard descriptor >= 0 else { continue }
                defer { close(descriptor) }
                // Held: a server is alive. It lets go of the lock only when it exits.
                guard flock(descriptor, LOCK_EX | LOCK_NB) != 0 else { continue }
                kill(pid, SIGTERM)
                let deadline = Date().addingTimeInterval(10)
                while flock(descriptor, LOCK_EX | LOCK_NB) != 0, Date() < deadline { usleep(2_000) }
                if flock(descriptor, LOCK_EX | LOCK_NB) != 0 { kill(pid, SIGKILL) }
            }
            if let child {
                kill(child, SIGTERM)
                var status: Int32 = 0
                let deadline = Date().addingTimeInterval(10)
                while waitpid(child, &status, WNOHANG) == 0 {
                    if Date() > deadline { kill(child, SIGKILL) }
                    usleep(2_000)
                }
                self.child = nil
            }
        }
    }

    deinit {
        stopAll()
    }
}

/// `text` as compact JSON with sorted keys, for comparing a whole `--json` answer with one line;
/// the text itself when it is not JSON (so the comparison fails showing it).
public func canonicalJSON(_ text: String) -> String {
    guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]),
          let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
    else { return text }
    return String(decoding: data, as: UTF8.self)
}

/// `plugins check`'s report with its one measured figure, how long `init` took, as "N ms":
/// everything else in it is known, so the rest can be compared whole.
public func withoutInitTime(_ report: String) -> String {
    report.replacing(#/\n  init: [0-9]+(\.[0-9]+)? ms\n/#, with: "\n  init: N ms\n")
}

/// The SHA-256 of the file at `url`, in hex, as `sha256sum` gives it.
public func sha256(of url: URL) -> String {
    String(runProcess(URL(fileURLWithPath: "/usr/bin/sha256sum"), arguments: [url.path]).stdout.prefix(64))
}
