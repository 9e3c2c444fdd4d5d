import ArgumentParser
import Foundation
import HostServer
import HostSpeech
import StandFitHost

/// `listen`: a sentence spoken into the default input, recognised offline and run as `say`
/// runs it, after a confirmation.
struct ListenCommand: ManifestCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Listen for a sentence on the microphone and run it: \"log twenty squats\".",
        discussion: """
            Records from the default input (PipeWire, PulseAudio or ALSA, through SoX's rec) until \
            a second of quiet after you speak, at most 10 seconds; recognises it offline against \
            the plugins' own phrases (PocketSphinx, English: Debian's pocketsphinx-en-us) and \
            confirms it before it runs ("Log 20 squats? [y/N]"; --yes runs it at once). Exit \
            status: as say, 1 not confirmed, 2 nothing heard, 69 no microphone, recogniser or model.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var interaction: InteractionOptions

    @Flag(help: "Run what was heard without asking to confirm it.")
    var yes = false

    func run() throws {
        let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
        // Ready before recording starts, so that the first word is not lost to loading.
        let recognizer = try SpokenSentence.recognizer(session, logger: global.logger)
        Console.current.error("Listening… (say a phrase, such as \"log twenty squats\")\n")
        let samples = try AudioInput.record(environment: session.request.environment)
        let heard = try recognizer.read(samples)
        try SpokenSentence.run(heard, source: "what the microphone recorded", session: session, yes: yes, noInput: interaction.noInput,
                               options: interaction.runOptions(global), global: global)
    }
}
