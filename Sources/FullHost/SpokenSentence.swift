import Foundation
import HostDispatch
import HostIntents
import HostModel
import HostSentences
import HostServer
import HostSpeech
import Logging
import StandFitHost

/// Speech for `say --audio` and `listen`: the grammar of what the session's plugins can be
/// asked in its language, the recogniser with that language's model, and the confirmation a
/// reading needs before it runs.
enum SpokenSentence {
    /// What the plugins' and routines' phrases in the session's language can be filled with: numbers, the
    /// names of a list's or an entity's values (an entity's suggestions, asked of its plugin as
    /// completion asks), nothing for free text.
    static func sources(_ session: HostSession) -> [SpeechGrammar.Source] {
        var sources: [SpeechGrammar.Source] = []
        var entityNames: [String: [[String]]] = [:]
        // The plugins' actions, and the user's routines (their titles and phrases: "morning
        // routine"), each routine with a phrase budget of its own.
        let routines = session.routines.map { routine in
            var action = routine.action
            action.pluginID = "routine:" + action.type
            return action
        }
        for action in session.plugins.registry.actions + routines where !action.isNamespace {
            for phrase in action.phrases where phrase.applies(to: session.language) {
                var slots: [String: SpeechGrammar.Slot] = [:]
                for case .placeholder(let name) in phrase.parts {
                    guard let spec = action.parameters.first(where: { $0.name == name }) else { continue }
                    switch spec.domain {
                    case .choices(let values)?:
                        slots[name] = .values(values.map { [$0.title] + $0.synonyms })
                    case .entity(let id)?:
                        let key = action.pluginID + "/" + id
                        if entityNames[key] == nil {
                            let values = session.plugins.entity(id, of: action.pluginID)
                                .flatMap { try? session.plugins.calls.query($0, .suggest, session.language).get() } ?? []
                            entityNames[key] = values.map { [$0.title] + $0.synonyms }
                        }
                        slots[name] = .values(entityNames[key] ?? [])
                    case nil where spec.kind == .int64 || spec.kind == .double:
                        slots[name] = .number
                    case nil:
                        slots[name] = .freeText
                    }
                }
                sources.append(SpeechGrammar.Source(type: action.type, phrase: phrase, slots: slots, pluginID: action.pluginID))
            }
        }
        return sources
    }

    /// A recogniser for the session's language, with the grammar of its plugins' phrases.
    static func recognizer(_ session: HostSession, logger: Logger) throws(HostError) -> Recognizer {
        guard let model = SpeechModel.model(for: session.language, configured: session.config.speechModels) else {
            throw HostError(.speechUnavailable, key: "speech.noModel", ["language": session.language])
        }
        let words = try Recognizer.words(of: model)
        let grammar = SpeechGrammar.make(sources(session), language: session.language, isWord: words.contains)
        for reason in grammar.unsayable { logger.debug("Cannot be said: \(reason)") }
        guard grammar.phrases > 0 else {
            throw HostError(.speechUnavailable, key: "speech.noPhrases", ["language": session.language])
        }
        logger.debug("Speech grammar: \(grammar.phrases) phrases")
        return try Recognizer(model: model, grammar: grammar)
    }

    /// "Log 20 squats": the reading with its numbers in digits, as the question shows it.
    static func shown(_ heard: String, language: String) -> String {
        let words = heard.split(separator: " ").map(String.init)
        let table = PhraseLanguage.table(for: language)
        var shown: [String] = []
        var index = 0
        while index < words.count {
            if index + 1 < words.count, let number = table?.number(words[index] + " " + words[index + 1]) {
                shown.append(String(number))
                index += 2
            } else {
                shown.append(table?.number(words[index]).map(String.init) ?? words[index])
                index += 1
            }
        }
        let text = shown.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// Asks on stderr whether to run what was heard; the answer is a line of stdin ("y",
    /// "yes", Dutch "j", "ja"). No answer is no.
    static func confirm(_ heard: String, language: String) -> Bool {
        Console.current.error("\(shown(heard, language: language))? \(HostText(language: language)("speech.confirmKeys")) ")
        guard let answer = LineInput.readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return ["y", "yes", "j", "ja"].contains(answer)
    }
}

extension SpokenSentence {
    /// "Heard: …" on stderr, and with `yes`, when the recogniser was not sure of it, that it is
    /// asked all the same.
    static func sayHeard(_ reading: Recognizer.Reading, yes: Bool, language: String, logger: Logger) {
        logger.debug("Heard '\(reading.text)', \(reading.margin.map { String(format: "%.2f", $0) } ?? "no") margin over the nearest other sentence (sure at \(Recognizer.Reading.sureMargin))")
        let text = HostText(language: language)
        Console.current.error(text("listen.heard", ["heard": reading.text]) + "\n")
        if yes && !reading.isSure { Console.current.error(text("speech.notSure") + "\n") }
    }

    /// Runs what was heard in `source` (a file, or "the microphone") as `say` runs a typed
    /// sentence, once confirmed: "Heard: …" on stderr first, then "Log 20 squats? [y/N]"
    /// unless `yes` and the recogniser is sure of it.
    ///
    /// The grammar reads any sound as its nearest phrase ("call my mother" as "log my lunges",
    /// "fifteen" as "fifty two"), so a reading runs unasked only when the recogniser, asked
    /// again without it, fits the sound clearly worse (`Recognizer.Reading.isSure`); every
    /// other reading is confirmed, `--yes` or not (docs/BENCHMARKS.md, "Speech").
    static func run(_ reading: Recognizer.Reading, source: String, session: HostSession, yes: Bool, noInput: Bool,
                    options: Dispatcher.RunOptions, global: GlobalOptions) throws {
        let heard = reading.text
        let language = session.language
        let text = HostText(language: language)
        guard !heard.isEmpty else {
            let outcome = Outcome(status: .unknownType, type: "", message: text("speech.heardIn", ["source": source]))
            return try Output.finish(outcome, global, language: language)
        }
        sayHeard(reading, yes: yes, language: language, logger: global.logger)
        if !(yes && reading.isSure) {
            guard !noInput else {
                let outcome = Outcome(status: .invalidInput, type: "",
                                      message: text(yes ? "speech.unsureNeedsConfirmation" : "speech.needsConfirmation", ["heard": heard]))
                return try Output.finish(outcome, global, language: language)
            }
            guard confirm(heard, language: language) else {
                let outcome = Outcome(status: .declined, type: "", message: text("listen.notConfirmed", ["sentence": shown(heard, language: language)]))
                return try Output.finish(outcome, global, language: language)
            }
        }
        let outcome = Sentences(session).say(heard, options: options)
        try Output.finish(outcome, global, language: language)
    }
}
