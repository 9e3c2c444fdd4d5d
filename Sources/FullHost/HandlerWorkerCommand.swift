import ArgumentParser
import HostServer
import PluginRuntime
import StandFitHost

/// The hidden mode a plugin call runs in (a worker process, sandboxed unless trusted): it talks
/// over its pipes, not to people.
struct HandlerWorkerCommand: HostCommand {
    static let traits = CommandTraits.process

    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "handler-worker", abstract: Usage.words("help.handler-worker"), shouldDisplay: false) }

    @Flag(name: .shortAndLong) var verbose = false
    /// A warm worker: keeps its plugin loaded and answers one call a line until stdin ends.
    @Flag var warm = false

    func run() throws {
        let logger = GlobalOptions.logger(verbose: verbose)
        let status = warm ? HandlerWorker.serveWarm(request: .current, logger: logger)
            : HandlerWorker.serve(request: .current, logger: logger)
        if status != 0 { throw ExitCode(status) }
    }
}
