import ArgumentParser
import StandFitHost

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run one quick action.",
        discussion: """
            TYPE is a full type (com.example.greeter.greet) or a unique last component (greet). \
            Parameters bind from name=value arguments, then the manifest item's userInfo, then \
            the declared defaults.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var isolation: IsolationOptions

    @Argument(help: "The shortcut type to run.", completion: .custom(RunCompletion.complete))
    var type: String

    @Argument(help: ArgumentHelp("Parameters for the action.", valueName: "name=value"),
              completion: .custom(RunCompletion.complete))
    var parameters: [String] = []

    @Option(name: .customLong("user-info"),
            help: ArgumentHelp("The chosen item's userInfo, a JSON object (menus and desktop files pass it).",
                               valueName: "json"))
    var userInfoText: String?

    var userInfo: [String: JSONValue]? {
        guard let userInfoText, case .object(let values)? = JSONValue(jsonText: userInfoText) else { return nil }
        return values
    }

    func validate() throws {
        if let userInfoText, userInfo == nil {
            throw ValidationError("--user-info must be a JSON object such as '{\"exercise\": \"squats\"}', got \(userInfoText).")
        }
    }

    func run() throws {
        let session = try Output.session(global) { () throws(HostError) in
            try HostSession(options: manifestOptions.hostOptions(global, isolate: isolation.isolate), logger: global.logger)
        }
        let outcome = session.run(type, arguments: parameters, userInfo: userInfo)
        if global.json {
            Output.printJSON(outcome)
        } else if outcome.status == .handled {
            print(outcome.message)
        } else {
            Output.printError(outcome.message)
        }
        try Output.exit(for: outcome.status)
    }
}
