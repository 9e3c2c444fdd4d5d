import ArgumentParser
import StandFitHost
import HostModel

struct RunCommand: ManifestCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run one quick action.",
        discussion: """
            TYPE is a full type (com.example.greeter.greet) or a unique last component (greet). \
            Parameters bind from name=value arguments, then the manifest item's userInfo, then \
            the declared defaults. A parameter that names something (an exercise) takes any of \
            its names ("push ups"). On a terminal, a missing required value is asked for; with \
            --no-input, or when stdin is not a terminal, the run answers invalid-input with \
            needsValue instead.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var isolation: IsolationOptions
    @OptionGroup var interaction: InteractionOptions

    @Argument(help: "The shortcut type to run.", completion: .custom(RunCompletion.complete))
    var type: String

    @Argument(help: ArgumentHelp("Parameters for the action.", valueName: "name=value"),
              completion: .custom(RunCompletion.complete))
    var parameters: [String] = []

    @Option(name: .customLong("user-info"),
            help: ArgumentHelp("The chosen item's userInfo, a JSON object (menus and desktop files pass it).",
                               valueName: "json"))
    var userInfoText: String?

    @Flag(help: "Also show the outcome as a desktop notification (what the desktop file's actions run).")
    var notify = false

    @Flag(help: "Run as a schedule does ('schedule add'): it teaches no suggestion (no donation).")
    var scheduled = false

    @Flag(help: "A reminder ('schedule add --remind'): with --notify, asking for a missing value is the answer (exit 0).")
    var remind = false

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
        let session = try HostSession(options: manifestOptions.hostOptions(global, isolate: isolation.isolate), logger: global.logger)
        var named: [NamedArgument] = []
        for text in parameters {
            guard let argument = NamedArgument(parsing: text) else {
                return try Output.finish(Outcome(status: .invalidInput, type: type,
                                                 message: HostText(language: session.language)("error.notNamed", ["argument": text])),
                                         global, language: session.language)
            }
            named.append(argument)
        }
        var options = interaction.runOptions(global)
        options.scheduled = scheduled
        let outcome = session.run(type, named: named, userInfo: userInfo, options: options)
        if notify {
            CommandNotification.show(outcome, session: session, parameters: named, userInfo: userInfo, logger: global.logger)
            // A reminder's question was its whole job: shown, it is done, not a failed run.
            if remind, outcome.needsValue != nil {
                Output.show(outcome.message)
                return
            }
        }
        try Output.finish(outcome, global, language: session.language)
    }
}
