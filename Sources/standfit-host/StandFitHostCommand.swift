import ArgumentParser
import Foundation
import HostModel

@main
struct StandFitHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "standfit-host",
        abstract: "Run quick actions and shortcuts provided by plugins.",
        discussion: """
            Exit status: 0 handled, 1 declined, 2 unknown type, 3 invalid input, 4 plugin failed, \
            5 bad manifest or configuration, 64 usage error.
            """,
        version: "1.0.0",
        subcommands: [RunCommand.self, SayCommand.self, ListCommand.self, MenuCommand.self, RefreshCommand.self,
                      DynamicCommand.self, DonationsCommand.self, SuggestCommand.self, ExportCommand.self, PluginsCommand.self, DoctorCommand.self,
                      CompletionCommand.self,
                      ScanHelperCommand.self, HandlerWorkerCommand.self]
    )

    /// ArgumentParser's `main`, plus the one place where a `HostError` a command throws becomes
    /// its sentence (on stderr, or as the JSON document under `--json`) and exit status 5.
    static func main() {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
        } catch let error as HostError {
            Output.report(error, json: (command as? ReportsJSON)?.json ?? false)
            Foundation.exit(Output.Status.configuration)
        } catch {
            exit(withError: error)
        }
    }
}

/// A command whose errors are reported as JSON under `--json`.
protocol ReportsJSON {
    var json: Bool { get }
}

extension RunCommand: ReportsJSON { var json: Bool { global.json } }
extension SayCommand: ReportsJSON { var json: Bool { global.json } }
extension ListCommand: ReportsJSON { var json: Bool { global.json } }
extension MenuCommand: ReportsJSON { var json: Bool { global.json } }
extension RefreshCommand: ReportsJSON { var json: Bool { global.json } }
extension SuggestCommand: ReportsJSON { var json: Bool { global.json } }
extension DynamicCommand.Set: ReportsJSON { var json: Bool { global.json } }
extension DynamicCommand.Clear: ReportsJSON { var json: Bool { global.json } }
extension DonationsCommand.List: ReportsJSON { var json: Bool { global.json } }
extension DonationsCommand.Clear: ReportsJSON { var json: Bool { global.json } }
extension ExportCommand.Desktop: ReportsJSON { var json: Bool { global.json } }
extension PluginsCommand.Show: ReportsJSON { var json: Bool { options.global.json } }
extension PluginsCommand.Rescan: ReportsJSON { var json: Bool { options.global.json } }
extension PluginsCommand.Check: ReportsJSON { var json: Bool { options.global.json } }
extension PluginsCommand.Trust: ReportsJSON { var json: Bool { options.global.json } }
extension PluginsCommand.Untrust: ReportsJSON { var json: Bool { options.global.json } }
extension DoctorCommand: ReportsJSON { var json: Bool { options.global.json } }
