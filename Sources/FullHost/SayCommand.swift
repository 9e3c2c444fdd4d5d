import ArgumentParser
import HostSentences
import StandFitHost
import HostModel

struct SayCommand: ManifestCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Run the action a sentence asks for: say \"log 15 push-ups\".",
        discussion: """
            The sentence is matched against the phrases plugins declare ("log {count} {exercise}"), \
            in the run's language first. The words in a placeholder become that parameter's value. \
            Several equally good matches are asked about on a terminal and listed otherwise \
            (exit 2); no match answers with the closest phrases (exit 2).
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var isolation: IsolationOptions
    @OptionGroup var interaction: InteractionOptions

    /// Every word the options do not take, so that `say log -5 squats` reaches the phrases (and
    /// is refused as a count) instead of failing as an unknown option '-5'.
    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("What to do, in words; quote it or pass it as several words.", valueName: "sentence"))
    var words: [String]

    func validate() throws {
        if words.joined().trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("Say what to do, e.g. standfit-host say \"log 15 push-ups\".")
        }
    }

    func run() throws {
        let session = try HostSession(options: manifestOptions.hostOptions(global, isolate: isolation.isolate), logger: global.logger)
        let outcome = Sentences(session).say(words.joined(separator: " "), options: interaction.runOptions(global))
        try Output.finish(outcome, global, language: session.language)
    }
}
