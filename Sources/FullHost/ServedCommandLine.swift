import ArgumentParser
import Foundation
import HostDesktop
import HostModel
import HostServer
import HostSurfaces
import StandFitHost

/// What a client's request comes to in the warm server (`ServedCommands`): its line parsed as
/// the cold path parses it, and run through the same `StandFitHostCommand.execute`, unless the
/// command must run in the client's own process.
///
/// Rationale for `@unchecked Sendable`: `parsedLines` is behind `lock`.
final class ServedCommandLine: ServedCommands, @unchecked Sendable {
    /// Command lines parsed before, and what they parsed to (a command, or the error that
    /// `--version`, help or a usage error is), the most recently used last: a quick action is
    /// the same line again and again.
    private var parsedLines: [(arguments: [String], parsed: Result<any ParsableCommand, any Error>)] = []
    private let lock = NSLock()
    private static let parsedLinesKept = 32

    func admit(_ arguments: [String], in scope: RequestScope, by server: WarmServer) -> Admission {
        // Shell completions run in the client's own process: ArgumentParser reads the shell that
        // asks (and writes its answer for it) from the process's environment.
        guard arguments.first != "---completion" else { return .runCold(reason: "a shell completion", asDesigned: true) }
        switch parse(arguments) {
        case .failure where arguments != ["--version"]:
            // Help and usage errors are laid out for the terminal's width, which ArgumentParser
            // reads from the process (COLUMNS, descriptor 1): the client's own process says them.
            return .runCold(reason: "help or a usage error", asDesigned: true)
        case .failure(let error):
            return .serve { StandFitHostCommand.report(error) }
        case .success(let command):
            // server status and stop show no local time, and must reach the server whatever its mode.
            let controlsServer = CommandTraits.of(command).contains(.controlsServer)
            if ServedCommandLine.runsCold(command) {
                return .runCold(reason: "'\(type(of: command).configuration.commandName ?? "")' runs in its own process", asDesigned: true)
            }
            if !scope.zoneKnown && !controlsServer { return .runCold(reason: "the client's time zone is not one the server can read", asDesigned: false) }
            if !controlsServer, let mode = try? server.warm.config(in: scope.request.paths.configDirectory)
                .serverMode(environment: scope.request.environment), mode == .off {
                return .runCold(reason: "config.json's server mode is off", asDesigned: false)
            }
            return .serve { StandFitHostCommand.execute(command) }
        }
    }

    /// Commands that must not run in the server: those that say so (`CommandTraits.runsCold`),
    /// and help, laid out for the client's terminal.
    static func runsCold(_ command: any ParsableCommand) -> Bool {
        CommandTraits.of(command).contains(.runsCold)
            // ArgumentParser's help command: help is laid out for the terminal's width, which
            // it reads from the process (COLUMNS, descriptor 1).
            || type(of: command).configuration.commandName == "help"
    }

    /// `StandFitHostCommand.parse`, answered from `parsedLines` for a line parsed before.
    ///
    /// Rationale: a parse that succeeds is a function of the line alone (a failure's words
    /// follow the request's language and `menu`'s validate reads its terminals, but every
    /// failure but `--version`'s is handed back to the client, which parses the line again),
    /// and ArgumentParser builds its argument sets by reflection on every parse,
    /// which was the largest part of a warm `run`'s time in the server's profile. (Shell
    /// completions, whose parse runs code that reads the request, never come here.)
    private func parse(_ arguments: [String]) -> Result<any ParsableCommand, any Error> {
        let known = lock.withLock { () -> Result<any ParsableCommand, any Error>? in
            guard let index = parsedLines.firstIndex(where: { $0.arguments == arguments }) else { return nil }
            let line = parsedLines.remove(at: index)
            parsedLines.append(line)
            return line.parsed
        }
        if let known { return known }
        let parsed = StandFitHostCommand.parse(arguments)
        lock.withLock {
            if parsedLines.count >= ServedCommandLine.parsedLinesKept { parsedLines.removeFirst() }
            parsedLines.append((arguments, parsed))
        }
        return parsed
    }
}

/// What the desktop's requests come to in the warm server (`DesktopRequests`): `DesktopRequest`.
struct ServedDesktopRequests: DesktopRequests {
    func activateAction(_ key: String, parameters: [NamedArgument], on bus: DesktopBus) -> DesktopBus.Answer {
        key == DesktopEntry.listenActionID ? DesktopRequest.listen(bus: bus)
            : DesktopRequest.activateAction(.key(key), parameters: parameters, bus: bus)
    }

    func activate(app: String?, on bus: DesktopBus) -> DesktopBus.Answer {
        DesktopRequest.activate(app: app, bus: bus)
    }

    func matches(_ query: String, krunner: Bool, on bus: DesktopBus) -> [DesktopSearch.Match] {
        DesktopRequest.runnerMatches(query, krunner: krunner, bus: bus)
    }

    func run(match id: String, action: String, on bus: DesktopBus) -> DesktopBus.Answer {
        DesktopRequest.runnerRun(id, action: action, bus: bus)
    }

    func runnerActions(on bus: DesktopBus) -> [DesktopSearch.Action] {
        DesktopRequest.runnerActions(bus: bus)
    }
}
