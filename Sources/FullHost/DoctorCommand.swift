import ArgumentParser
import Foundation
import HostDoctor
import HostModel
import HostServer
import StandFitHost
import WarmWire

/// `doctor`: everything that decides what loads and runs, and what is wrong with it.
struct DoctorCommand: ManifestCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "doctor",
        abstract: Usage.words("help.doctor"),
        discussion: Usage.words("help.doctor.discussion")
    ) }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions

    func run() throws {
        let options = manifestOptions.hostOptions(global)
        let config = (try? options.config(of: options.request.paths)) ?? HostConfig()
        let language = options.languagePreference.language(fallback: nil)
        let report = Doctor.examine(options: options, server: DoctorCommand.serverLine(config, language: language), logger: global.logger)
        if global.json {
            Output.printJSON(report)
        } else {
            report.lines.forEach(Output.show)
        }
        if !report.problems.isEmpty { throw ExitCode(Output.Status.problemsFound) }
    }

    /// Whether a warm server of this build is up, and so how plugins run now.
    static func serverLine(_ config: HostConfig, language: String = "en") -> String {
        let request = HostRequest.current
        let text = HostText(language: language)
        if let server = WarmServer.current {
            return text("server.in", ["pid": "\(getpid())", "build": server.place.build, "served": "\(server.requestsServed)",
                                      "workers": "\(server.workers.summary.count)"])
        }
        let mode = config.serverMode(environment: request.environment)
        guard let place = try? ServerCommand.place(request: request) else { return text("server.unidentified") }
        if let pid = WarmServer.holder(of: place) {
            return text("server.running", ["pid": "\(pid)", "build": place.build, "mode": mode.rawValue])
        }
        return text("server.none", ["build": place.build, "next": text("server.next.\(mode.rawValue)")])
    }
}
