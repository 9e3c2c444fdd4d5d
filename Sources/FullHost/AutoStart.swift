import ArgumentParser
import CWarmWire
import Foundation
import Glibc
import HostModel
import HostServer
import WarmWire

/// After a cold command: when the mode is `auto` (STANDFIT_SERVER, else config.json's
/// "server", else auto) and no server of this build answers, start one in the background for
/// the next command. It is a daemon (double fork, its own session, every inherited descriptor
/// closed, stdio on /dev/null, log in `$XDG_STATE_HOME/standfit/server.log`), so nothing of this
/// command waits for it or is held open by it.
enum AutoStart {
    /// Whether a server is started after `command`: not after one that says it starts none
    /// (the helpers, the server's own commands, printing a completion script; help, --version
    /// and completion requests never get here: they are not commands that ran).
    static func startsServer(after command: any ParsableCommand) -> Bool {
        !CommandTraits.of(command).contains(.startsNoServer)
    }

    static func afterColdRun(_ command: any ParsableCommand, request: HostRequest) {
        guard startsServer(after: command), WarmServer.current == nil,
              let config = try? HostConfig.load(from: request.paths.configDirectory),
              config.serverMode(environment: request.environment) == .auto else { return }
        let executable = Executable.url.path
        guard let place = try? ServerCommand.place(request: request) else { return }
        switch WarmPlace.state(of: place.directory) {
        case .unsafe(let problem):
            let text = HostText(language: request.language())
            Output.printError(text("warning.prefix") + text(HostText.Phrase("server.notStarted", ["directory": place.directory], parts: ["problem": problem.phrase(place.directory)])))
            return
        case .privateToUser:
            if isListening(place.socketPath) { return }
        case .missing:
            break
        }
        // A client that comes before the server listens waits for it (`WarmPlace.startingPath`)
        // rather than run cold beside it.
        if mkdir(place.directory, 0o700) == 0 || errno == EEXIST, case .privateToUser = WarmPlace.state(of: place.directory) {
            close(open(place.startingPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600))
        }
        let argv: [UnsafeMutablePointer<CChar>?] = [String]([executable, "serve", "--background"]).map { strdup($0) } + [nil]
        let environment: [UnsafeMutablePointer<CChar>?] = request.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        _ = standfit_wire_spawn_daemon(executable, argv, environment)
    }

    /// Whether something accepts connections on `path` (a socket file alone may be stale).
    private static func isListening(_ path: String) -> Bool {
        WarmClient.connect(to: path) != nil
    }
}
