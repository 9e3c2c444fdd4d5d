import ArgumentParser
import StandFitHost
import HostModel

struct RunCommand: ManifestCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "run",
        abstract: Usage.words("help.run"),
        discussion: Usage.words("help.run.discussion")
    ) }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var isolation: IsolationOptions
    @OptionGroup var interaction: InteractionOptions

    @Argument(help: Usage.help("help.run.type"), completion: .custom(RunCompletion.complete))
    var type: String

    @Argument(help: Usage.help("help.run.parameters", valueName: "name=value"),
              completion: .custom(RunCompletion.complete))
    var parameters: [String] = []

    @Option(name: .customLong("user-info"),
            help: Usage.help("help.run.userInfo", valueName: "json"))
    var userInfoText: String?

    @Flag(help: Usage.help("help.run.notify"))
    var notify = false

    @Flag(help: Usage.help("help.run.scheduled"))
    var scheduled = false

    @Flag(help: Usage.help("help.run.remind"))
    var remind = false

    var userInfo: [String: JSONValue]? {
        guard let userInfoText, case .object(let values)? = JSONValue(jsonText: userInfoText) else { return nil }
        return values
    }

    func validate() throws {
        if let userInfoText, userInfo == nil {
            throw ValidationError(Usage.words("usage.run.userInfo", ["value": userInfoText]))
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
            // A reminder with nothing to ask (its action declined: a goal met already) stays quiet.
            if remind, outcome.status == .declined {
                if global.json { Output.printJSON(outcome) } else { Output.show(outcome.message) }
                return
            }
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
