import ArgumentParser
import Foundation
import StandFitHost
import HostModel
import WarmWire

/// `doctor`: everything that decides what loads and runs, and what is wrong with it.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Explain the state of every plugin, the registry cache, the state database, the settings, the manifest, the routines and permissions.",
        discussion: "Exit status: 0 when nothing is wrong, 1 when it lists problems."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions

    func run() throws {
        let options = manifestOptions.hostOptions(global)
        let config = (try? options.config(of: options.request.paths)) ?? HostConfig()
        let report = Doctor.examine(options: options, server: DoctorCommand.serverLine(config), logger: global.logger)
        if global.json {
            Output.printJSON(report)
        } else {
            report.lines.forEach(Output.show)
        }
        if !report.problems.isEmpty { throw ExitCode(Output.Status.problemsFound) }
    }

    /// Whether a warm server of this build is up, and so how plugins run now.
    static func serverLine(_ config: HostConfig) -> String {
        let request = HostRequest.current
        if let server = WarmServer.running {
            return "Warm server: this command ran in it (pid \(getpid()), build \(server.place.build), \(server.requestsServed) requests served, \(server.workers.summary.count) warm workers); every plugin runs in a warm worker, trusted or not"
        }
        let mode = config.serverMode(environment: request.environment)
        guard let place = try? ServerCommand.place(request: request) else { return "Warm server: none (the host's binary cannot be identified)" }
        if let pid = WarmServer.holder(of: place) {
            return "Warm server: running (pid \(pid), build \(place.build)), but this command ran cold (mode \(mode.rawValue)); commands it serves run every plugin in a warm worker"
        }
        let next = switch mode {
        case .auto: "the next command starts one"
        case .manual: "none is started (mode manual); 'standfit-host serve' runs one"
        case .off: "every command runs cold (mode off)"
        }
        return "Warm server: none of build \(place.build) is running; \(next). Run cold, trusted plugins run in-process and the others in worker processes"
    }
}
