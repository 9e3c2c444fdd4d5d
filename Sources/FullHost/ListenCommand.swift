import ArgumentParser
import Foundation
import HostDesktop
import HostDispatch
import HostModel
import HostSentences
import HostServer
import HostSpeech
import HostSurfaces
import StandFitHost

/// `listen`: a sentence spoken into the default input, recognised offline and run as `say`
/// runs it, after a confirmation.
struct ListenCommand: ManifestCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "listen",
        abstract: Usage.words("help.listen"),
        discussion: Usage.words("help.listen.discussion")
    ) }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var interaction: InteractionOptions

    @Flag(help: Usage.help("help.listen.yes"))
    var yes = false

    @Flag(help: Usage.help("help.listen.notify"))
    var notify = false

    /// How long a notification's question waits for its answer.
    static let answerSeconds = 60

    func run() throws {
        if notify { return try runNotifying() }
        let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
        let turn = try Self.takeTurn(session)
        defer { close(turn) }
        // Ready before recording starts, so that the first word is not lost to loading.
        let recognizer = try SpokenSentence.recognizer(session, logger: global.logger)
        Console.current.error(HostText(language: session.language)("listen.terminal") + "\n")
        let samples = try AudioInput.record(environment: session.request.environment, cancel: session.options.link.cancelDescriptor)
        let heard = try recognizer.reading(samples)
        try SpokenSentence.run(heard, source: HostText(language: session.language)("speech.microphone"), session: session, yes: yes, noInput: interaction.noInput,
                               options: interaction.runOptions(global), global: global)
    }

    /// One listen at a time per user: the microphone is one, and a shortcut pressed twice must
    /// not record twice or ask twice. The lock (`listen.lock` in the cache directory) is held
    /// on the descriptor returned until the command ends.
    static func takeTurn(_ session: HostSession) throws(HostError) -> Int32 {
        guard let descriptor = try UserLock.take("listen", in: session, wait: false) else {
            throw HostError(.speechUnavailable, key: "speech.alreadyListening")
        }
        return descriptor
    }

    /// `--notify`: what a global shortcut and the desktop entry's Listen action run.
    /// "Listening…" while it records, then the question with Run and Cancel (waited for, a
    /// minute at most), then the outcome. With no terminal to say it on, what stops it before
    /// anything was heard (no model, no recogniser, no microphone, a bad manifest) is a
    /// notification too.
    private func runNotifying() throws {
        guard let bus = DesktopBus.start(logger: global.logger, address: DesktopBus.sessionAddress(in: HostRequest.current.environment)) else {
            throw HostError(.desktopUnavailable, key: "listen.noBus")
        }
        defer { bus.stop() }
        let icon = DesktopInstallation.listenIcon
        var listening: UInt32?
        var turn: Int32 = -1
        defer { if turn >= 0 { close(turn) } }
        let (session, recognizer, samples): (HostSession, Recognizer, [Int16])
        do {
            session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
            turn = try Self.takeTurn(session)
            recognizer = try SpokenSentence.recognizer(session, logger: global.logger)
            let text = HostText(language: session.language)
            listening = bus.show(DesktopNotification(summary: text("listen.listening"), body: text("listen.hint"), icon: icon))
            samples = try AudioInput.record(environment: session.request.environment, cancel: session.options.link.cancelDescriptor)
        } catch {
            if let listening { bus.close(notification: listening) }
            // In the entry's language (its --locale, else the session's environment), as the error
            // is reported on stderr.
            let language = LanguagePreference(explicit: manifestOptions.locale, environment: HostRequest.current.environment).language(fallback: nil)
            bus.show(.failure(title: DesktopInstallation.applicationName, message: error.message(in: language), icon: icon))
            throw error
        }
        let text = HostText(language: session.language)
        if let listening { bus.close(notification: listening) }
        let reading = try recognizer.reading(samples)
        let heard = reading.text
        guard !heard.isEmpty else {
            bus.show(DesktopNotification(summary: DesktopInstallation.applicationName, body: text("listen.nothing"), icon: icon))
            return try SpokenSentence.run(reading, source: HostText(language: session.language)("speech.microphone"), session: session, yes: true, noInput: true,
                                          options: interaction.runOptions(global), global: global)
        }
        SpokenSentence.sayHeard(reading, yes: yes, language: session.language, logger: global.logger)
        let question = SpokenSentence.shown(heard, language: session.language) + "?"
        // --yes runs only what the recogniser is sure of; anything else is asked.
        if !(yes && reading.isSure) {
            guard bus.buttonLimit() >= 2 else {
                bus.show(DesktopNotification(summary: question, body: text("listen.noButtons", ["heard": heard]), icon: icon))
                let outcome = Outcome(status: .declined, type: "", message: text("listen.cannotConfirm", ["sentence": String(question.dropLast())]))
                return try Output.finish(outcome, global, language: session.language)
            }
            var confirm = DesktopNotification(summary: question, body: text("listen.heard", ["heard": heard]), icon: icon, buttons: [
                .init(key: "run", label: text("listen.run")), .init(key: "cancel", label: text("listen.cancel")),
            ])
            confirm.unanswered = text("notify.unanswered")
            let asked = NotificationAnswer.ask(confirm, on: bus)
            guard let asked else {
                throw HostError(.desktopUnavailable, key: "listen.noServer", ["heard": heard])
            }
            let answer = asked.wait(seconds: ListenCommand.answerSeconds)
            if answer == .some(nil) {
                // Closed without an answer: said on the desktop too, before this connection ends.
                bus.show(DesktopNotification(summary: question, body: text("notify.unanswered"), icon: icon))
            }
            guard answer == .some("run") else {
                // Cancel pressed, or the question closed without an answer (dismissed): said apart.
                let message = answer == .some(nil) ? text("notify.unanswered") : text("listen.notConfirmed", ["sentence": String(question.dropLast())])
                let outcome = Outcome(status: .declined, type: "", message: message)
                return try Output.finish(outcome, global, language: session.language)
            }
        }
        let outcome = Sentences(session).say(heard, options: Dispatcher.RunOptions(showsData: global.json))
        bus.show(CommandNotification.pressed(outcome, session: session))
        try Output.finish(outcome, global, language: session.language)
    }
}
