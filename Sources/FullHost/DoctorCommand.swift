import ArgumentParser
import Foundation
import StandFitHost
import HostModel

/// `doctor`: everything that decides what loads and runs, and what is wrong with it.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Explain the state of every plugin, the registry cache, the state database and permissions.",
        discussion: "Exit status: 0 when nothing is wrong, 1 when it lists problems."
    )

    @OptionGroup var options: PluginsCommand.Options

    func run() throws {
        let context = try options.context()
        let hostOptions = HostOptions(request: .current, executable: Executable.url, warm: Executable.warm)
        let report = Doctor.examine(context, options: hostOptions)
        if options.global.json {
            Output.printJSON(report)
        } else {
            report.lines.forEach(Output.show)
        }
        if !report.problems.isEmpty { throw ExitCode(Output.Status.problemsFound) }
    }
}
