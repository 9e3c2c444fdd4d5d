import ArgumentParser
import Foundation
import HostSentences
import HostServer
import HostSpeech
import StandFitHost
import HostModel

struct SayCommand: ManifestCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "say",
        abstract: Usage.words("help.say"),
        discussion: Usage.words("help.say.discussion")
    ) }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var isolation: IsolationOptions
    @OptionGroup var interaction: InteractionOptions

    /// Every word the options do not take, so that `say log -5 squats` reaches the phrases (and
    /// is refused as a count) instead of failing as an unknown option '-5'.
    @Argument(parsing: .allUnrecognized,
              help: Usage.help("help.say.words", valueName: "sentence"))
    var words: [String] = []

    @Option(help: Usage.help("help.say.audio", valueName: "file"))
    var audio: String?

    @Flag(help: Usage.help("help.say.yes"))
    var yes = false

    func validate() throws {
        let typed = !words.joined().trimmingCharacters(in: .whitespaces).isEmpty
        if audio != nil && typed {
            throw ValidationError(Usage.words("usage.say.both"))
        }
        if audio == nil && !typed {
            throw ValidationError(Usage.words("usage.say.nothing"))
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
