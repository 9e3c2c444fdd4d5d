import ArgumentParser
import Foundation
import HostSentences
import HostServer
import HostSpeech
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
            (exit 2); no match answers with the closest phrases (exit 2). With --audio FILE the \
            sentence is recognised offline in that recording (PocketSphinx, against the plugins' \
            own phrases) and confirmed before it runs ("Log 20 squats? [y/N]"; --yes runs at once \
            only what the recogniser is sure of, and asks the rest). Exit status: as typed, 1 not confirmed, 2 nothing heard, 3 audio that cannot \
            be read, 69 no recogniser or model.
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
    var words: [String] = []

    @Option(help: ArgumentHelp("Recognise the sentence spoken in this recording (any format SoX reads) instead.", valueName: "file"))
    var audio: String?

    @Flag(help: "Run what the recording says without asking, when the recogniser is sure of it (else it is asked all the same).")
    var yes = false

    func validate() throws {
        let typed = !words.joined().trimmingCharacters(in: .whitespaces).isEmpty
        if audio != nil && typed {
            throw ValidationError("Give the sentence as words or as --audio FILE, not both.")
        }
        if audio == nil && !typed {
            throw ValidationError("Say what to do, e.g. standfit-host say \"log 15 push-ups\".")
        }
    }

    func run() throws {
        let session = try HostSession(options: manifestOptions.hostOptions(global, isolate: isolation.isolate), logger: global.logger)
        guard let audio else {
            let outcome = Sentences(session).say(words.joined(separator: " "), options: interaction.runOptions(global))
            return try Output.finish(outcome, global, language: session.language)
        }
        let file = session.request.url(forPath: audio)
        let samples = try AudioInput.samples(of: file, environment: session.request.environment, cancel: session.options.link.cancelDescriptor)
        let heard = try SpokenSentence.recognizer(session, logger: global.logger).reading(samples)
        try SpokenSentence.run(heard, source: file.path, session: session, yes: yes, noInput: interaction.noInput,
                               options: interaction.runOptions(global), global: global)
    }
}
