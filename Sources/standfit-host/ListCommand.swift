import ArgumentParser
import StandFitHost

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the quick actions in menu order."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions

    @Flag(help: "Also show items beyond the limit and items no plugin handles, marked.")
    var all = false

    @Option(help: "How many items the menu shows.")
    var limit = Menu.defaultLimit

    func validate() throws {
        guard limit >= 1 else {
            throw ValidationError("--limit must be 1 or more, got \(limit).")
        }
    }

    func run() throws {
        let session = try Output.session(global) { () throws(HostError) in
            try HostSession(options: manifestOptions.hostOptions(), logger: global.logger)
        }
        let menu = session.menu(limit: limit)
        if global.json {
            Output.printJSON(menu.documents(all: all))
            return
        }
        let lines = menu.textLines(all: all)
        if lines.isEmpty {
            Output.printError("No quick actions to show; add items to \(session.paths.configDirectory.path)/Info.plist or install a plugin (see 'standfit-host plugins').")
        }
        lines.forEach { print($0) }
    }
}
