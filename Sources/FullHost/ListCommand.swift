import ArgumentParser
import StandFitHost
import HostModel

struct ListCommand: ManifestCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "list",
        abstract: Usage.words("help.list"),
        discussion: Usage.words("help.list.discussion")
    ) }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var appOptions: AppOptions

    @Flag(help: Usage.help("help.list.all"))
    var all = false

    @Flag(help: Usage.help("help.list.explain"))
    var explain = false

    // Unconditional: "--limit -1" is a value to refuse in words, not an unknown option "-1".
    @Option(parsing: .unconditional, help: Usage.help("help.list.limit"))
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 {
            throw ValidationError(Usage.words("usage.list.limit", ["limit": "\(limit)"]))
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
