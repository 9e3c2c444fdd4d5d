import Foundation
import Glibc

/// A private session bus for one test: `dbus-daemon --session` with a configuration of its own,
/// listening in the sandbox and starting services from the sandbox's
/// `$XDG_DATA_HOME/dbus-1/services`, where `export desktop --install` writes the host's. What it
/// starts gets the environment it was started with (the sandbox's), as a user's bus gives its
/// services the session's. `stop` ends it, and every server in the sandbox with it.
public final class SessionBus: @unchecked Sendable {
    public let address: String
    private let sandbox: HostSandbox
    private let pid: pid_t

    /// Starts the bus for `sandbox` and waits until it listens; nil when it could not start.
    public init?(sandbox: HostSandbox) {
        self.sandbox = sandbox
        let socket = sandbox.root.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        let services = sandbox.dataHome.appendingPathComponent("dbus-1/services").path
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <servicedir>\(services)</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let file = sandbox.root.appendingPathComponent("bus.conf")
        try? Data(configuration.utf8).write(to: file)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
        }
        let log = sandbox.root.appendingPathComponent("bus.log").path
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        SandboxServer.closeOthers(&actions)
        let tool = ExternalTool.dbusDaemon.path
        let arguments = [tool, "--config-file=\(file.path)", "--nofork", "--nopidfile"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = sandbox.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // With no signal blocked or ignored (a test thread's mask would be inherited), so that
        // SIGTERM ends it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        guard posix_spawn(&child, tool, &actions, &attributes, argv, envp) == 0 else { return nil }
        pid = child
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline, kill(child, 0) == 0 {
            usleep(2_000)
        }
        guard FileManager.default.fileExists(atPath: socket) else {
            stop()
            return nil
        }
    }

    /// The sandbox's environment with this bus as the session bus.
    public var environment: [String: String] {
        var environment = sandbox.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// Runs `tool` (gapplication, gdbus, python3) with `arguments` against this bus.
    public func run(_ tool: ExternalTool, _ arguments: [String], stdin: String? = nil) -> ProcessResult {
        runProcess(tool.url, arguments: arguments, environment: environment, stdin: stdin)
    }

    private var stopped = false

    /// Stops the servers in the sandbox (those the bus started among them), then the bus.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        sandbox.server.stopAll()
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(10)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline { kill(pid, SIGKILL) }
            usleep(2_000)
        }
    }

    deinit {
        stop()
    }
}
