import Foundation

/// A detached tmux session on a private server, for driving an interactive command as a
/// person would: send keys, read the screen.
public final class TmuxSession {
    public let socket: String
    private let tmux = ExternalTool.tmux.url

    /// Starts `command` (a shell command line) in a `width`×`height` terminal.
    public init(command: String, width: Int = 100, height: Int = 24) throws {
        socket = "standfit-test-\(UUID().uuidString.prefix(8))"
        // Rationale: tmux's client exits once its server has daemonized; Foundation's Process
        // was seen never to notice that exit here, so this one call waits on the pid itself.
        let arguments = [tmux.path, "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "test",
                         "-x", "\(width)", "-y", "\(height)", command]
        let status = TmuxSession.spawnAndWait(arguments)
        guard status == 0 else {
            throw TmuxFailure(message: "tmux new-session exited with \(status); is tmux installed?")
        }
    }

    /// Runs `argv` with standard input and output on /dev/null and returns its exit status.
    ///
    /// The tmux server it starts outlives it, so it must take nothing else of the test process:
    /// no other descriptor (a pipe another test is reading to its end would never end while the
    /// server held it open), and no blocked signals (test threads block most, and a server whose
    /// shells never see SIGHUP survives kill-server).
    static func spawnAndWait(_ argv: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in [Int32(0), 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // glibc 2.34's closefrom action, which Swift's Glibc module does not declare.
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }

    /// `text` quoted for a POSIX shell.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    deinit {
        _ = runProcess(tmux, arguments: ["-L", socket, "kill-server"])
    }

    /// The visible screen, trailing blank lines removed.
    public func screen() -> String {
        let text = runProcess(tmux, arguments: ["-L", socket, "capture-pane", "-p", "-t", "test"]).stdout
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            .joined(separator: "\n")
            .trimmingCharacters(in: .newlines)
    }

    /// Sends tmux key names ("Down", "Enter", "Escape") or literal text.
    public func send(_ keys: String...) {
        _ = runProcess(tmux, arguments: ["-L", socket, "send-keys", "-t", "test"] + keys)
    }

    /// Waits until the screen contains `text`, for at most `seconds`; returns the screen.
    /// A wait, not a timing assertion: the test then checks what the screen says.
    @discardableResult
    public func wait(for text: String, seconds: Double = 30) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var current = screen()
        while !current.contains(text) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            current = screen()
        }
        return current
    }
}

public struct TmuxFailure: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension HostSandbox {
    /// A shell command line running the built host with `arguments` in this sandbox's
    /// environment, then printing its exit status and staying open to be read. On the warm path
    /// the sandbox's server is started first (a failure to start shows in what the line prints).
    public func shellCommand(_ arguments: [String], stdoutTo file: URL? = nil) -> String {
        let quote = TmuxSession.quote
        var environment = self.environment
        environment["TERM"] = "xterm-256color"
        environment["LANG"] = "C.UTF-8"
        let assignments = environment.sorted { $0.key < $1.key }.map { quote("\($0.key)=\($0.value)") }
        let command = ([Fixtures.hostBinary.path] + arguments).map(quote)
        let redirect = file.map { " > \(quote($0.path))" } ?? ""
        if let failure = serveWarmPath() { return "echo \(quote(failure)); echo EXIT=-1; sleep 600" }
        return "env -i \(assignments.joined(separator: " ")) \(command.joined(separator: " "))\(redirect); echo EXIT=$?; sleep 600"
    }
}
