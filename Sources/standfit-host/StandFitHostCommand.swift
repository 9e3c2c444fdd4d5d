import ArgumentParser
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
}
