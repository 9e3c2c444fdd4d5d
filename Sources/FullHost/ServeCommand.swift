import ArgumentParser
import CHostSystem
import CWarmWire
import Foundation
import Glibc
import HostModel
import HostServer
import Logging
import PluginRuntime
import StandFitHost
import WarmWire

/// `serve`: the warm server in the foreground (what a supervisor runs); a cold command starts
/// one in the background (`AutoStart`).
struct ServeCommand: HostCommand {
    static let traits = CommandTraits.process

    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "serve",
        abstract: Usage.words("help.serve"),
        discussion: Usage.words("help.serve.discussion")
    ) }

    @Flag(name: .shortAndLong, help: Usage.help("help.serve.verbose"))
    var verbose = false

    @Option(help: Usage.help("help.serve.idleTimeout", valueName: "seconds"))
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
            throw ValidationError(Usage.words("usage.serve.idleTimeout", ["value": "\(idleTimeout)"]))
        }
    }

    func run() throws {
        let activation = try WarmServer.activationSocket()
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
        let level = Self.logLevel(verbose: verbose, environment: request.environment)
        let logger = Logger(label: "standfit-host.server") { _ in
            StderrLogHandler(level: level.level, descriptor: logDescriptor, timestamps: true)
        }
        if let refusal = level.refusal { logger.warning("\(refusal)") }
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
                                startedByBus: dbusActivated, logger: logger,
                                commands: ServedCommandLine(), desktop: ServedDesktopRequests())
        /// From here on, descriptors 0–2 are /dev/null: each request writes to its own client's
        /// descriptors, and nothing reaches whatever started the server.
        func serve(_ listener: Int32?) {
            let null = open("/dev/null", O_RDWR | O_CLOEXEC)
            for target in Int32(0)...2 { dup2(null, target) }
            if null > 2 { close(null) }
            _ = chdir("/")
            // SIGTERM, SIGINT and SIGHUP end the server cleanly.
            server.serve(listener: listener, activation: activation, stopSignals: SignalPipe.install([SIGTERM, SIGINT, SIGHUP]),
                         handBusOver: dbusActivated ? { Self.handBusOver(to: place) } : nil)
        }
        switch server.listen() {
        case .success(let listener):
            serve(listener)
        case .failure(.alreadyRunning) where dbusActivated && activation == nil && Self.handBusOver(to: place):
            // Another server of this build has the socket (but not the bus name, or the bus would
            // not have started this one): it took the name, and the bus hands it the call that
            // started this one. One server, whoever started it.
            logger.info("The server of this build (pid \(WarmServer.holder(of: place).map(String.init) ?? "?")) has \(place.socketPath); it took the session bus, so this one (pid \(getpid())) exits")
        case .failure(.alreadyRunning) where activation != nil || dbusActivated:
            // That server is stopping, or the socket is a service manager's: this one serves
            // the activation socket or the bus, and takes the socket over once that one ends
            // (or, from the bus, hands the bus to whichever server has the socket then).
            serve(nil)
        case .failure(.alreadyRunning):
            if background { return }
            throw HostError(.configInvalid, key: "error.serve.running", ["socket": place.socketPath])
        case .failure(.refused(let why)):
            if logsToFile { logger.error("Not serving: \(HostText(language: "en")(why))") }
            throw HostError(.configInvalid, key: "error.serve.cannotStart", parts: ["why": why])
        }
    }

    /// Asks the server of `place`'s build (one that has the socket) to take the session bus this
    /// process was started for (`server take-bus`); true when it did. Its answer, a sentence
    /// when it could not, goes to this process's standard error (the bus's log).
    static func handBusOver(to place: WarmPlace) -> Bool {
        guard let address = DesktopBus.ownAddress() else { return false }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        let request = WarmRequest(arguments: ["server", "take-bus"], environment: environment.map { "\($0.key)=\($0.value)" },
                                  workingDirectory: "/", umask: ProcessFacts.currentUmask)
        // The default second, whatever STANDFIT_ACCEPT_TIMEOUT says: the desktop waits for this
        // activation (D-Bus gives it 25 s), and while the one with the socket does not accept,
        // this one serves the bus itself and offers it again later.
        guard case .exited(0) = WarmClient.forward(request, to: place) else { return false }
        return true
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
            throw HostError(.configInvalid, key: "error.serve.log", ["path": file.path, "why": String(cString: strerror(errno))])
        }
        return descriptor
    }
}

extension ServeCommand {
    /// The server log's level: debug with `--verbose`, else STANDFIT_LOG_LEVEL (`debug`, `info`,
    /// `warning`; for a server the session bus or systemd starts, where no flag can be given),
    /// else info. A value it does not know is said in the log, which then keeps info.
    static func logLevel(verbose: Bool, environment: [String: String]) -> (level: Logger.Level, refusal: String?) {
        if verbose { return (.debug, nil) }
        guard let value = environment["STANDFIT_LOG_LEVEL"], !value.isEmpty else { return (.info, nil) }
        switch value.lowercased() {
        case "debug": return (.debug, nil)
        case "info": return (.info, nil)
        case "warning": return (.warning, nil)
        default:
            return (.info, "STANDFIT_LOG_LEVEL='\(value)' is not a log level; the server logs at info (set it to debug, info or warning).")
        }
    }
}
