import ArgumentParser
import Foundation
import HostModel
import HostDesktop
import HostServer
import WarmWire

/// `server status` and `server stop`. Run through the warm path, the server answers about
/// itself; run cold, there is no server of this build (or it is not used), and they say so.
struct ServerCommand: HostCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "server",
        abstract: Usage.words("help.server"),
        subcommands: [Status.self, Stop.self, TakeBus.self]
    ) }

    struct Status: GlobalCommand {
        static let traits: CommandTraits = [.startsNoServer, .controlsServer]

        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "status", abstract: Usage.words("help.server.status")) }

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
            let text = ServerCommand.text(request)
            guard let server = WarmServer.current else {
                let message = text("serverStatus.none", ["socket": place.socketPath])
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
            var lines = [
                text("serverStatus.running", ["pid": "\(getpid())", "build": place.build, "uptime": WarmServer.duration(uptime)]),
                server.ownsSocket ? text("serverStatus.socket", ["socket": server.place.socketPath]) : text("serverStatus.socketNotOwn"),
            ]
            if server.activation != nil { lines.append(text("serverStatus.activation")) }
            lines.append(text("serverStatus.requests", ["count": "\(served)"]))
            lines.append(text("serverStatus.workers", ["count": "\(workers.count)", "limit": "\(server.workers.limit)", "idle": WarmServer.duration(idleSeconds)]))
            for worker in workers {
                lines.append("  " + text(worker.busy ? "serverStatus.workerBusy" : "serverStatus.workerIdle", [
                    "plugin": VisibleText.line(worker.plugin), "language": VisibleText.line(worker.language), "pid": "\(worker.pid)",
                ]))
            }
            lines.append(text("serverStatus.log", ["path": log]))
            let message = lines.joined(separator: "\n")
            Output.report(global, Document(running: true, pid: getpid(), build: server.place.build, socket: server.place.socketPath,
                                           socketActivated: server.activation != nil, uptimeSeconds: uptime, requestsServed: served, workers: workers.count,
                                           workerList: workers, log: log, message: message),
                          message: \.message)
        }
    }

    struct Stop: GlobalCommand {
        static let traits: CommandTraits = [.startsNoServer, .controlsServer]

        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "stop", abstract: Usage.words("help.server.stop")) }

        @OptionGroup var global: GlobalOptions

        struct Document: Encodable {
            var stopped: Bool
            var pid: Int32?
            var message: String
        }

        func run() throws {
            let place = try ServerCommand.place(request: .current)
            try ServerCommand.askServer(place)
            let text = ServerCommand.text(.current)
            guard let server = WarmServer.current else {
                Output.report(global, Document(stopped: false, message: text("serverStatus.noneStopped", ["socket": place.socketPath])), message: \.message)
                return
            }
            server.stop()
            // "Stopped" only once nothing but this request is left: the server exits as soon as
            // it has answered. What is still running near the end of the stop's grace (it is
            // cancelled then, this request with it, so the answer comes just before) is said instead.
            let deadline = ContinuousClock.now + WarmServer.stopGrace - .milliseconds(500)
            while server.requestsUnderWay > 1, ContinuousClock.now < deadline { usleep(20_000) }
            let left = server.requestsUnderWay - 1
            // This request counted too, as the server's log counts it when it exits.
            let served = server.requestsServed + 1
            let counts = ["pid": "\(getpid())", "count": "\(served)", "left": "\(left)"]
            let message = left > 0 ? text(served == 1 ? "serverStatus.stopping.one" : "serverStatus.stopping.many", counts)
                : text(served == 1 ? "serverStatus.stopped.one" : "serverStatus.stopped.many", counts)
            Output.report(global, Document(stopped: left == 0, pid: getpid(), message: message), message: \.message)
        }
    }

    /// `server take-bus`: asked of the server that has the socket by a server of its build the
    /// session bus started (`serve --dbus-activated`), which then exits: the server joins the
    /// bus the request names and takes the application id, so the desktop and the command line
    /// reach one server. Says nothing when it did; not for users (hidden).
    struct TakeBus: GlobalCommand {
        static let traits: CommandTraits = [.startsNoServer, .controlsServer]

        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "take-bus", abstract: Usage.words("help.server.take-bus"), shouldDisplay: false) }

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let place = try ServerCommand.place(request: .current)
            try ServerCommand.askServer(place)
            guard let server = WarmServer.current else {
                throw HostError(.desktopUnavailable, key: "error.takeBus.noServer", ["socket": place.socketPath])
            }
            guard let client = HostRequest.current.clientProcess, BusHandOver.isAskedByActivatedServer(client) else {
                server.logger.warning("Refused server take-bus from pid \(HostRequest.current.clientProcess.map(String.init) ?? "?"): only a server of this build that the session bus started asks it.")
                throw HostError(.desktopUnavailable, key: "error.takeBus.byHand")
            }
            guard let address = DesktopBus.sessionAddress(in: HostRequest.current.environment) else {
                throw HostError(.desktopUnavailable, key: "error.takeBus.noBus")
            }
            guard server.joinBus(address: address) else {
                throw HostError(.desktopUnavailable, key: "error.takeBus.failed", ["pid": "\(getpid())", "name": DesktopInstallation.applicationID, "address": address])
            }
        }
    }

    /// The words of a request to the server, in its client's language.
    static func text(_ request: HostRequest) -> HostText {
        HostText(language: LanguagePreference(explicit: nil, environment: request.environment).language(fallback: nil))
    }

    static func place(request: HostRequest) throws(HostError) -> WarmPlace {
        let executable = Executable.url.path
        guard let place = WarmPlace(fullHost: executable, environment: { request.environment[$0] }) else {
            throw HostError(.configInvalid, key: "error.binaryUnknown", ["path": executable])
        }
        return place
    }

    /// Run cold (STANDFIT_SERVER=off, say) while a server of this build runs: the server
    /// answers, as it would have on the warm path.
    static func askServer(_ place: WarmPlace) throws {
        guard WarmServer.current == nil else { return }
        let request = HostRequest.current
        switch WarmClient.forward(forwarded(Array(CommandLine.arguments.dropFirst()), request: request), to: place,
                                  acceptTimeout: WarmClient.acceptTimeout(environment: request.environment)) {
        case .exited(let status): throw ExitCode(status)
        // The server took the request and ended under it: it is not run again here.
        case .lost(let why): throw ClientNotices.error(why)
        case .runCold, .unavailable: return
        }
    }

    /// `arguments` as a request to the server, with `request`'s environment, directory and umask.
    static func forwarded(_ arguments: [String], request: HostRequest) -> WarmRequest {
        WarmRequest(arguments: arguments, environment: request.environment.map { "\($0.key)=\($0.value)" },
                    workingDirectory: request.workingDirectory.path, umask: request.umask)
    }
}
