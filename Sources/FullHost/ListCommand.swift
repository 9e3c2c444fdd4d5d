import ArgumentParser
import StandFitHost
import HostModel

struct ListCommand: ManifestCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the quick actions in menu order.",
        discussion: """
            Every plugin is an app with a menu of its own, as each iOS app's icon has; so are your \
            routines (app 'user'). In each app's menu, static items come first (the manifest's \
            that run its actions, then the plugin's defaults), then dynamic items by rank; the \
            limit counts per app. Dynamic items are the providers' stored answers (see 'refresh'); \
            a provider runs only when it was never asked, changed version, or has an item that expired.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var appOptions: AppOptions

    @Flag(help: "Also show items the limit cut and items that were pruned, marked.")
    var all = false

    @Flag(help: "Show every item with where it came from, its rank, whether the limit cut it and what it shadowed.")
    var explain = false

    // Unconditional: "--limit -1" is a value to refuse in words, not an unknown option "-1".
    @Option(parsing: .unconditional, help: "How many items each app's menu shows (default: menuLimit in config.json, else 4).")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 {
            throw ValidationError("--limit must be 1 or more, got \(limit).")
        }
    }

    func run() throws {
        let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
        let menu = try session.menu(limit: limit, app: appOptions.app)
        if global.json {
            Output.printJSON(menu.documents(all: all, explain: explain))
            return
        }
        let lines = menu.textLines(all: all, explain: explain, timeZone: session.request.timeZone, language: session.language,
                                   iconNote: { HostSession.iconNote(of: $0, language: session.language) })
        if lines.isEmpty {
            Output.printError(HostText(language: session.language)("menu.empty", ["path": "\(session.paths.configDirectory.path)/Info.plist"]))
        }
        lines.forEach(Output.show)
    }
}
