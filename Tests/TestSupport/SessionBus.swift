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
    /// With `system`, a stand-in for the system bus instead (GNOME Shell asks it for logind),
    /// which starts nothing.
    /// With `user`, the bus runs as that user (through setpriv; the caller is root), as another
    /// user's session bus would.
    public init?(sandbox: HostSandbox, system: Bool = false, user: uid_t? = nil) {
        self.sandbox = sandbox
        let socket = sandbox.root.appendingPathComponent(system ? "system-bus" : "bus").path
        address = "unix:path=\(socket)"
        let services = sandbox.dataHome.appendingPathComponent("dbus-1/services").path
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>\(system ? "system" : "session")</type>
              <listen>\(address)</listen>
              \(system ? "" : "<servicedir>\(services)</servicedir>")
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let file = sandbox.root.appendingPathComponent(system ? "system-bus.conf" : "bus.conf")
        try? Data(configuration.utf8).write(to: file)
        let log = sandbox.root.appendingPathComponent(system ? "system-bus.log" : "bus.log")
        let tool = ExternalTool.dbusDaemon.path
        let arguments = ["--config-file=\(file.path)", "--nofork", "--nopidfile"]
        let asUser = user.map { [ExternalTool.setpriv.path, "--reuid=\($0)", "--regid=\($0)", "--clear-groups", tool] } ?? [tool]
        guard let child = spawnInBackground(asUser[0], Array(asUser.dropFirst()) + arguments,
                                           environment: sandbox.environment, log: log) else { return nil }
        pid = child
        let deadline = Date().addingTimeInterval(10)
        var status: Int32 = 0
        var ended = false
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline {
            if waitpid(child, &status, WNOHANG) != 0 {
                ended = true
                break
            }
            usleep(2_000)
        }
        guard FileManager.default.fileExists(atPath: socket) else {
            // Reaped already, its pid may be another process's by now: not signalled again.
            if ended { stopped = true } else { stop() }
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
    /// Helpers started on this bus (a notification server), stopped before it.
    private var helpers: [pid_t] = []

    /// Ends `pid` (SIGTERM, SIGKILL after 10 s) and reaps it.
    private static func end(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(10)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline { kill(pid, SIGKILL) }
            usleep(2_000)
        }
    }

    /// Starts the test notification server (Tests/Fixtures/Desktop/notification-server.py) on
    /// this bus, recording each notification in `record` as a JSON line; it presses the button
    /// labelled `press` when one is shown (with `keeping`, twice, as a server that keeps an
    /// answered notification on screen and ignores CloseNotification would let a user press it
    /// again), and reports `capabilities`. Waits until it owns its name.
    /// With `reply`, a notification that asks for an inline reply gets that text typed.
    public func startNotificationServer(record: URL, press: String? = nil, keeping: Bool = false,
                                        capabilities: [String] = ["actions", "body"], reply: String? = nil,
                                        dismiss: Bool = false, choose: String? = nil) -> Bool {
        var arguments = [record.path, "--capabilities", capabilities.joined(separator: ",")]
        if let press { arguments += [keeping ? "--press-twice" : "--press", press] }
        if let choose { arguments += ["--choose", choose] }
        if let reply { arguments += ["--reply", reply] }
        if dismiss { arguments.append("--dismiss") }
        return startHelper("notification-server.py", arguments, record: record)
    }

    /// Starts the test clipboard manager (Tests/Fixtures/Desktop/clipboard.py, KDE's Klipper on
    /// the bus), recording each text set in `record` as a JSON line. Waits until it owns its name.
    public func startClipboard(record: URL) -> Bool {
        startHelper("clipboard.py", [record.path], record: record)
    }

    /// Starts the test service manager (Tests/Fixtures/Desktop/service-manager.py, systemd --user's
    /// org.freedesktop.systemd1 on the bus), its environment `environment`. Waits until it owns its name.
    public func startServiceManager(environment: [String], record: URL) -> Bool {
        startHelper("service-manager.py", [record.path] + environment, record: record)
    }

    /// Starts `script` of Tests/Fixtures/Desktop with python3 on this bus, until stop; waits
    /// until it creates `record` (once it owns its name).
    private func startHelper(_ script: String, _ arguments: [String], record: URL) -> Bool {
        let path = Fixtures.directory.appendingPathComponent("Desktop/\(script)").path
        guard let child = spawnInBackground(ExternalTool.python3.path, [path] + arguments, environment: environment,
                                           log: sandbox.root.appendingPathComponent("\(script).log")) else { return false }
        helpers.append(child)
        return eventually(10) { FileManager.default.fileExists(atPath: record.path) }
    }

    /// The notifications the test server recorded in `record`, in order.
    public static func notifications(in record: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: record, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// Stops the servers in the sandbox (those the bus started among them), the helpers, then the bus.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        sandbox.server.stopAll()
        // A server the bus started to serve the bus alone holds no lock: whoever still owns the
        // application id is ended too.
        if let owner = owner(of: "org.standfit.Host") {
            kill(owner, SIGTERM)
            if !eventually(10, { kill(owner, 0) != 0 }) { kill(owner, SIGKILL) }
        }
        helpers.forEach(SessionBus.end)
        SessionBus.end(pid)
    }

    /// The pid of the process that owns `name` on this bus, asked with gdbus when it is installed
    /// (`stop` asks it of every bus, to end the server the bus started; without gdbus that
    /// server ends with its bus): nil without gdbus, so no test has to declare it for this.
    public func owner(of name: String) -> pid_t? {
        guard ExternalTool.gdbus.isInstalled else { return nil }
        let answer = runProcess(URL(fileURLWithPath: ExternalTool.gdbus.location), arguments: ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                  "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", name], environment: environment)
        // "(uint32 1234,)"
        let digits = answer.stdout.split(whereSeparator: { !$0.isNumber }).last
        return answer.status == 0 ? digits.flatMap { pid_t($0) } : nil
    }

    deinit {
        stop()
    }
}
