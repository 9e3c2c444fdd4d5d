import ArgumentParser
import CHostSystem
import Foundation
import HostModel
import HostServer
import PluginRuntime
import StandFitHost
import WarmWire

@main
struct StandFitHostCommand: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "standfit-host",
        abstract: Usage.words("help.root"),
        discussion: Usage.words("help.root.discussion"),
        version: "1.0.0",
        subcommands: [RunCommand.self, SayCommand.self, ListCommand.self, MenuCommand.self, RefreshCommand.self,
                      DynamicCommand.self, DonationsCommand.self, SuggestCommand.self, ExportCommand.self, BackupCommand.self, RestoreCommand.self, RofiCommand.self, PluginsCommand.self, DoctorCommand.self,
                      CompletionCommand.self, ScheduleCommand.self, SuggestionsCommand.self, ListenCommand.self,
                      ServeCommand.self, ServerCommand.self,
                      ScanHelperCommand.self, HandlerWorkerCommand.self]
    ) }

    /// The cold path: runs this process's command, then starts a warm server for the next one
    /// when none runs (`AutoStart`).
    static func main() {
        // What the caller left open (`7>>file`) reaches no program this process starts, nor a
        // plugin's: helpers get only 0-3 (HelperProcess), everything else exec'd gets 0-2.
        _ = standfit_cloexec_from(3)
        let arguments = Array(CommandLine.arguments.dropFirst())
        // What the thin client could not say itself (it has no tables).
        if let status = ClientNotices.say(arguments) { Foundation.exit(status) }
        // Help and usage errors are said in the line's --locale, found before it is parsed;
        // what tools read (the man page's and completion scripts' source, completions) in English.
        Usage.$locale.withValue(Usage.isForTools(arguments) ? "en" : Usage.locale(in: arguments)) {
            switch parse(arguments) {
            case .failure(let error):
                // Help, --version, completion requests and usage errors start no server.
                Foundation.exit(report(error, json: Usage.asksForJSON(arguments)))
            case .success(let command):
                if let refused = refuseInsidePlugin(command) { Foundation.exit(refused) }
                let status = execute(command)
                AutoStart.afterColdRun(command, request: .current)
                Foundation.exit(status)
            }
        }
    }

    /// The language `command` answers in: its --locale, else the environment's.
    private static func language(of command: any ParsableCommand) -> String {
        HostRequest.current.language(locale: (command as? any HostCommand)?.explicitLocale)
    }

    /// Refuses a command that plugin code started (a worker, or a program it ran: `plugins
    /// trust` on itself, a log in the user's name), saying so: its exit status, or nil when the
    /// command may run. The host's own children (`serve`, the helpers) are not refused.
    private static func refuseInsidePlugin(_ command: any ParsableCommand) -> Int32? {
        guard !CommandTraits.of(command).contains(.hostProcess), let ancestor = HostLineage.hostAncestor(of: getpid()) else { return nil }
        Output.report(HostError(.startedByPlugin, key: "error.startedByPlugin", ["pid": "\(ancestor)"]),
                      json: (command as? any HostCommand)?.globalOptions?.json ?? false, language: language(of: command))
        return Output.Status.configuration
    }

    /// The command `arguments` name, or why they name none (help and --version included).
    static func parse(_ arguments: [String]) -> Result<any ParsableCommand, any Error> {
        if let first = arguments.first, let subcommand = directSubcommands[first],
           let command = try? subcommand.parseAsRoot(Array(arguments.dropFirst())),
           type(of: command).configuration.commandName != "help" {
            return .success(command)
        }
        return Result { try parseAsRoot(arguments) }
    }

    /// The subcommands by name, parsed directly when named first.
    ///
    /// Rationale: `parseAsRoot` on the root builds the argument set of every command by
    /// reflection (and walks the whole tree for passthrough arguments) on each parse: in the
    /// warm server's profile it was a third of a `run`'s time. Parsing the named subcommand on
    /// its own gives the same command when it succeeds (the root has no options of its own); on
    /// any error, `--version` or a help request (which ArgumentParser answers with its help
    /// command rather than an error, and which must name the root in its usage), the root parses
    /// the line, so every message is ArgumentParser's own.
    private static let directSubcommands: [String: any ParsableCommand.Type] = Dictionary(
        configuration.subcommands.compactMap { type in type.configuration.commandName.map { ($0, type) } },
        uniquingKeysWith: { first, _ in first })

    /// Runs `command` and answers its exit status. The one place where a `HostError` a command
    /// throws becomes its sentence (on stderr, or as the JSON document under `--json`) and exit
    /// status 5; the warm server runs commands through it too.
    static func execute(_ command: any ParsableCommand) -> Int32 {
        var command = command
        let declared = command as? any HostCommand
        if let global = declared?.globalOptions { before(global, language: language(of: command)) }
        do {
            // The installed desktop file follows what the command changed, once, at its end.
            try DesktopRewrite.afterRequest { try command.run() }
            return 0
        } catch let error as HostError {
            Output.report(error, json: declared?.globalOptions?.json ?? false, language: language(of: command))
            switch error.code {
            case .desktopUnavailable, .speechUnavailable, .serverUnavailable: return Output.Status.unavailable
            case .serverLost: return Output.Status.pluginFailed
            case .unknownApp, .unknownSchedule: return Output.Status.unknownType
            case .scheduleInvalid, .audioInvalid: return Output.Status.invalidInput
            default: return Output.Status.configuration
            }
        } catch {
            return report(error, json: declared?.globalOptions?.json ?? false)
        }
    }

    /// What a command people run says before it runs, in its language: a warning for a
    /// `STANDFIT_SERVER` that names no mode, and under `--verbose` whether it runs in the warm
    /// server or cold.
    private static func before(_ command: GlobalOptions, language: String) {
        let request = HostRequest.current
        let text = HostText(language: language)
        if let value = request.environment["STANDFIT_SERVER"], HostConfig.ServerMode(rawValue: value.lowercased()) == nil {
            Output.printError(text("warning.prefix") + text("server.modeUnknown", ["value": value]))
        }
        if let value = request.environment[WarmClient.acceptTimeoutVariable], WarmClient.acceptTimeout(from: value) == nil {
            Output.printError(text("warning.prefix") + text("server.acceptTimeoutUnknown", ["value": value, "default": WarmClient.seconds(WarmClient.acceptTimeout)]))
        }
        guard command.verbose else { return }
        let directory = request.paths.configDirectory
        let config = (try? Executable.warm?.config(in: directory) ?? HostConfig.load(from: directory)) ?? HostConfig()
        GlobalOptions.logger(verbose: true).debug("\(DoctorCommand.serverLine(config))")
    }

    /// What ArgumentParser's `exit(withError:)` prints for `error` (help and --version on
    /// stdout, the rest on stderr), in the line's language (`Usage`), without exiting: its
    /// exit status.
    /// With `json` (the line asked for `--json`), a usage error is one JSON document on stdout,
    /// `{"status": "error", "code": "usage", "message": …}`, as every failure under `--json` is.
    static func report(_ error: any Error, json: Bool = false) -> Int32 {
        let code = exitCode(for: error)
        let text = Usage.localized(fullMessage(for: error), isError: code != .success, text: Usage.text)
        if json, code != .success, !text.isEmpty {
            Output.printJSON(Output.ErrorDocument(code: "usage", message: text.trimmingCharacters(in: .whitespacesAndNewlines)))
            return code.rawValue
        }
        if !text.isEmpty {
            if code == .success {
                Console.current.print(text)
            } else {
                Console.current.error(text + "\n")
            }
        }
        return code.rawValue
    }
}
