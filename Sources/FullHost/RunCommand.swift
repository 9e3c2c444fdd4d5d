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
            needsValue instead. Exit status: 0 handled, 1 declined, 2 unknown type, 3 invalid \
            input, 4 plugin failed, 5 configuration, 6 no plugin handles the type and the \
            manifest's fallback ran; 69 with --notify when no notification server showed the \
            outcome (docs/JSON.md).
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
        let named: [NamedArgument]
        switch RunCommand.namedArguments(parameters, type: type, language: session.language) {
        case .success(let parsed): named = parsed
        case .failure(let refusal): return try Output.finish(refusal.outcome, global, language: session.language)
        }
        var options = interaction.runOptions(global)
        options.scheduled = scheduled
        let outcome = session.run(type, named: named, userInfo: userInfo, options: options)
        if notify {
            let notShown = CommandNotification.show(outcome, session: session, parameters: named, userInfo: userInfo, logger: global.logger)
            // A reminder's question was its whole job: shown, it is done, not a failed run;
            // not shown, the reminder failed.
            if remind, outcome.needsValue != nil {
                let question = outcome.question ?? outcome.message
                if let notShown {
                    throw HostError(.desktopUnavailable, key: "run.reminderNotShown", ["question": question, "type": type], parts: ["why": notShown])
                }
                Output.show(question)
                return
            }
            return try CommandNotification.finish(outcome, notShown: notShown, global, language: session.language)
        }
        try Output.finish(outcome, global, language: session.language)
    }
}

extension RunCommand {
    /// A `name=value` word that is none, as the outcome `run` answers for it.
    struct NotNamed: Error {
        var outcome: Outcome
    }

    /// The `name=value` words of a command line as arguments (`run`, `schedule add`), or the
    /// invalid-input outcome for the first that is none.
    static func namedArguments(_ texts: [String], type: String, language: String) -> Result<[NamedArgument], NotNamed> {
        var named: [NamedArgument] = []
        for text in texts {
            guard let argument = NamedArgument(parsing: text) else {
                return .failure(NotNamed(outcome: Outcome(status: .invalidInput, type: type,
                                                          message: HostText(language: language)("error.notNamed", ["argument": text]))))
            }
            named.append(argument)
        }
        return .success(named)
    }
}
