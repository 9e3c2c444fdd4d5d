import ArgumentParser
import CHostSystem
import CWarmWire
import Foundation
import Glibc
import HostModel
import Logging
import PluginRuntime
import StandFitHost
import WarmWire

/// `serve`: the warm server in the foreground (what a supervisor runs); a cold command starts
/// one in the background (`AutoStart`).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the warm server in the foreground, so that commands answer in about a millisecond.",
        discussion: """
            Commands find the server through a socket in $XDG_RUNTIME_DIR/standfit (else \
            /tmp/standfit-UID) named by the build, and run there with their own environment, \
            directory and terminal. It exits after serverIdleTimeout seconds without a command \
            (config.json, default 900). A cold command starts one in the background unless \
            STANDFIT_SERVER or config.json's "server" is "off" or "manual".
            """
    )

    @Flag(name: .shortAndLong, help: "Log each request on stderr (or in the log file with --background).")
    var verbose = false

    @Option(help: ArgumentHelp("Seconds without a command before the server exits (default: serverIdleTimeout in config.json, else 900).",
                               valueName: "seconds"))
    var idleTimeout: Double?

    /// Started by a cold command: log in `$XDG_STATE_HOME/standfit/server.log`, and exit
    /// quietly when another server of this build is already up.
    @Flag(help: .hidden)
    var background = false

    /// Started by the session bus for its application id (the service file `export desktop
    /// --install` writes): log in the log file, and when a server of this build already has the
    /// socket, serve the bus alone.
    @Flag(name: .customLong("dbus-activated"), help: .hidden)
    var dbusActivated = false

    /// Whether it logs in the log file rather than on stderr.
    private var logsToFile: Bool { background || dbusActivated }

    func validate() throws {
        if let idleTimeout, !(idleTimeout >= 1 && idleTimeout <= 86_400) {
            throw ValidationError("--idle-timeout must be a number of seconds from 1 to 86400, got \(idleTimeout).")
        }
    }

    func run() throws {
        let activation = try ServeCommand.activationSocket()
        // What the server was started with beyond descriptors 0–2 (a shell's or a test
        // harness's other pipes) must not reach the helpers and plugin workers it starts.
        _ = standfit_cloexec_from(3)
        // A client whose pipe closed (`standfit-host list | head -1`) costs its own request a
        // write error, never the server.
        signal(SIGPIPE, SIG_IGN)
        let request = HostRequest.current
        let executable = Executable.url.path
        let place = try ServerCommand.place(request: request)
        let logDescriptor = try openLog(request: request)
        let logger = Logger(label: "standfit-host.server") { _ in
            StderrLogHandler(level: verbose ? .debug : .info, descriptor: logDescriptor, timestamps: true)
        }
        // A config.json that does not read stops every command, warm or cold, with its sentence
        // (each request reads it again); the server itself starts on the defaults, so that it
        // is there the moment the file is fixed, rather than every command running cold. Its
        // own settings (workers, idle timeouts) stay the defaults until it is restarted.
        let config: HostConfig
        do {
            config = try HostConfig.load(from: request.paths.configDirectory)
        } catch {
            logger.warning("The server starts with its default settings, because \(error.message(in: "en"))")
            config = HostConfig()
        }
        let server = WarmServer(place: place, executable: executable,
                                idleTimeout: idleTimeout ?? config.serverIdleTimeout,
                                warm: WarmResources(workers: WarmWorkers(limit: config.serverWorkers, idleTimeout: config.workerIdleTimeout)),
                                startedByBus: dbusActivated, logger: logger)
        /// From here on, descriptors 0–2 are /dev/null: each request writes to its own client's
        /// descriptors, and nothing reaches whatever started the server.
        func serve(_ listener: Int32?) {
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            for target in Int32(0)...2 { dup2(null, target) }
            if null > 2 { close(null) }
            _ = chdir("/")
            server.serve(listener: listener, activation: activation)
        }
        switch server.listen() {
        case .success(let listener):
            serve(listener)
        case .failure(.alreadyRunning) where activation != nil || dbusActivated:
            // Another server of this build has its own socket (but not the bus name, or the bus
            // would not have started this one); this one serves the activation socket or the bus.
            serve(nil)
        case .failure(.alreadyRunning):
            if background { return }
            throw HostError(.configInvalid, "A server of this build is already running on \(place.socketPath); 'standfit-host server status' shows it, 'standfit-host server stop' stops it.")
        case .failure(.refused(let why)):
            if logsToFile { logger.error("Not serving: \(why)") }
            throw HostError(.configInvalid, "The server cannot start: \(why).")
        }
    }

    /// The listening socket a service manager passed (the LISTEN_FDS protocol: descriptor 3 when
    /// LISTEN_PID is this process), or nil; the variables are removed so that no worker inherits
    /// them.
    ///
    /// Rationale: the protocol is two variables and a descriptor number, documented in
    /// sd_listen_fds(3) as an interface to implement; linking libsystemd for it would make
    /// libsystemd-dev a build dependency of every build.
    static func activationSocket() throws(HostError) -> Int32? {
        let environment = ProcessInfo.processInfo.environment
        defer { for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) } }
        guard let pid = environment["LISTEN_PID"].flatMap(pid_t.init), pid == getpid(),
              let count = environment["LISTEN_FDS"].flatMap(Int32.init), count > 0 else { return nil }
        let descriptor: Int32 = 3
        guard count == 1, WarmServer.isListeningUnixSocket(descriptor) else {
            throw HostError(.configInvalid, "The server was started with \(count) descriptor(s) (LISTEN_FDS) and needs exactly one listening Unix stream socket; give standfit-host.socket a single ListenStream= line.")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    /// The server's log: stderr in the foreground, `$XDG_STATE_HOME/standfit/server.log` in the
    /// background. A descriptor of its own, which requests' descriptors never replace.
    private func openLog(request: HostRequest) throws(HostError) -> Int32 {
        guard logsToFile else { return fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3) }
        let file = WarmServer.logFile(request: request)
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        let descriptor = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw HostError(.configInvalid, "The server cannot open its log \(file.path) (\(String(cString: strerror(errno)))); check that directory's permissions.")
        }
        return descriptor
    }
}

extension WarmServer {
    /// `$XDG_STATE_HOME/standfit/server.log` (else `~/.local/state/standfit/server.log`).
    static func logFile(request: HostRequest) -> URL {
        let state = request.environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? request.homeDirectory + "/.local/state"
        return URL(fileURLWithPath: state).appendingPathComponent("standfit/server.log")
    }
}

/// `server status` and `server stop`. Run through the warm path, the server answers about
/// itself; run cold, there is no server of this build (or it is not used), and they say so.
struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Show or stop the warm server.",
        subcommands: [Status.self, Stop.self]
    )

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Show whether a warm server runs, and what it has done.")

        @OptionGroup var global: GlobalOptions

        struct Document: Encodable {
            var running: Bool
            var pid: Int32?
            var build: String
            var socket: String
            /// Whether it also serves a socket a service manager passed (socket activation).
            var socketActivated: Bool?
            var uptimeSeconds: Int?
            var requestsServed: Int?
            var workers: Int?
            /// Each warm worker: its plugin, language, pid and whether it is running a call.
            var workerList: [Worker]?
            var log: String
            var message: String
        }

        struct Worker: Encodable {
            var plugin: String
            var language: String
            var pid: Int32
            var busy: Bool
        }

        func run() throws {
            let request = HostRequest.current
            let place = try ServerCommand.place(request: request)
            let log = WarmServer.logFile(request: request).path
            try ServerCommand.askServer(place)
            guard let server = WarmServer.running else {
                let message = "No server of this build is running (socket \(place.socketPath)); the next command starts one unless STANDFIT_SERVER or config.json's \"server\" is off or manual."
                Output.report(global, Document(running: false, build: place.build, socket: place.socketPath, log: log, message: message),
                              message: \.message)
                throw ExitCode(1)
            }
            let uptime = Int(Date().timeIntervalSince(server.started))
            let served = server.requestsServed
            let workers = server.workers.summary.map {
                Worker(plugin: $0.pluginID, language: $0.language, pid: $0.pid, busy: $0.busy)
            }
            let idleSeconds = Int(server.workers.idleTimeout.components.seconds)
            var message = """
                Server: running (pid \(getpid()), build \(place.build), up \(ServerCommand.duration(uptime)))
                Socket: \(server.ownsSocket ? server.place.socketPath : "none of its own (another server of this build has it)")\(server.activation != nil ? "\nActivation: also serves the socket the service manager passed (LISTEN_FDS)" : "")
                Requests served: \(served)
                Workers: \(workers.count) of at most \(server.workers.limit) (each stopped after \(ServerCommand.duration(idleSeconds)) idle)
                """
            for worker in workers {
                message += "\n  \(VisibleText.line(worker.plugin)) (\(VisibleText.line(worker.language))): pid \(worker.pid), \(worker.busy ? "running a call" : "idle")"
            }
            message += "\nLog: \(log)"
            Output.report(global, Document(running: true, pid: getpid(), build: server.place.build, socket: server.place.socketPath,
                                           socketActivated: server.activation != nil, uptimeSeconds: uptime, requestsServed: served, workers: workers.count,
                                           workerList: workers, log: log, message: message),
                          message: \.message)
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stop", abstract: "Stop the warm server of this build once this command has answered.")

        @OptionGroup var global: GlobalOptions

        struct Document: Encodable {
            var stopped: Bool
            var pid: Int32?
            var message: String
        }

        func run() throws {
            let place = try ServerCommand.place(request: .current)
            try ServerCommand.askServer(place)
            guard let server = WarmServer.running else {
                Output.report(global, Document(stopped: false, message: "No server of this build was running (socket \(place.socketPath))."),
                              message: \.message)
                return
            }
            server.stop()
            Output.report(global, Document(stopped: true, pid: getpid(),
                                           message: "Stopped the server (pid \(getpid())) after \(server.requestsServed) request\(server.requestsServed == 1 ? "" : "s")."),
                          message: \.message)
        }
    }

    static func place(request: HostRequest) throws(HostError) -> WarmPlace {
        let executable = Executable.url.path
        guard let place = WarmPlace(fullHost: executable, environment: { request.environment[$0] }) else {
            throw HostError(.configInvalid, "Cannot identify the host's binary \(executable); install standfit-host again.")
        }
        return place
    }

    /// Run cold (STANDFIT_SERVER=off, say) while a server of this build runs: the server
    /// answers, as it would have on the warm path.
    static func askServer(_ place: WarmPlace) throws {
        guard WarmServer.running == nil else { return }
        let request = HostRequest.current
        let forwarded = WarmRequest(arguments: Array(CommandLine.arguments.dropFirst()),
                                    environment: request.environment.map { "\($0.key)=\($0.value)" },
                                    workingDirectory: request.workingDirectory.path, umask: request.umask)
        if case .exited(let status) = WarmClient.forward(forwarded, to: place) {
            throw ExitCode(status)
        }
    }

    /// 3 s, 4 min 12 s, 2 h 5 min.
    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s" }
        return (seconds % 3600) / 60 == 0 ? "\(seconds / 3600) h" : "\(seconds / 3600) h \((seconds % 3600) / 60) min"
    }
}
