import HostModel
import HostIntents
import HostDispatch
import StandFitHost

/// `say`: a sentence instead of a type, over a session; the same for a typed reply to a prompt
/// (KDE's inline reply) and the picker's.
public struct Sentences {
    public let session: HostSession

    public init(_ session: HostSession) {
        self.session = session
    }

    /// Understands `sentence` by the actions' phrases and runs the one it fits, with the words
    /// of the placeholders as its arguments. Several equally good fits are asked about on a
    /// terminal and listed otherwise; none answers with the closest phrases.
    ///
    /// With `type`, the sentence answers that action's question (a typed reply to its prompt):
    /// it is read by that action's phrases alone, whole ("log 20 squats") or as their endings
    /// from the first placeholder on ("20 squats", "squats").
    public func say(_ sentence: String, answering type: String? = nil,
                    options: Dispatcher.RunOptions = Dispatcher.RunOptions()) -> Outcome {
        let text = HostText(language: session.language)
        guard !PhraseMatcher.isTooLong(sentence) else {
            return Outcome(status: .invalidInput, type: "", message: text("say.tooLong", [
                "words": "\(sentence.split(whereSeparator: \.isWhitespace).count)", "bytes": "\(sentence.utf8.count)",
                "wordLimit": "\(PhraseMatcher.wordLimit)", "byteLimit": "\(PhraseMatcher.byteLimit)",
            ]))
        }
        let matcher = type.map { replyMatcher(for: $0) } ?? session.phraseMatcher
        let matches = matcher.matches(sentence)
        var options = options
        options.argumentSource = .phrase
        switch matches.count {
        case 0:
            let closest = matcher.closest(to: sentence)
            guard !closest.isEmpty else {
                return Outcome(status: .unknownType, type: "", message: text("say.noPhrases", ["sentence": sentence])).said(sentence)
            }
            // Said as examples ("'log 20 squats' (Log Exercise)"), never as templates with braces.
            // One with free text ("log 20 push-ups …") only when its action has no other listed.
            var listed: [String] = [], listedTypes: Set<String> = []
            for (phrase, action) in closest {
                let example = matcher.example(phrase, of: action)
                let line = "'\(example)' (\(action.title))"
                guard !listed.contains(line), !(example.contains("…") && listedTypes.contains(action.type)) else { continue }
                listed.append(line)
                listedTypes.insert(action.type)
            }
            return Outcome(status: .unknownType, type: "",
                           message: text("say.closest", ["sentence": sentence, "closest": text.list(listed)]),
                           suggestions: closest.map(\.phrase.template)).said(sentence)
        case 1:
            return session.run(matches[0].type, named: matches[0].arguments, options: options)
        default:
            if let conversation = options.conversation {
                while let answer = conversation.ask(text("say.whichOne", ["sentence": sentence]),
                                                    options: matches.map(\.summary), defaultAnswer: nil) {
                    if let number = Int(answer.trimmingCharacters(in: .whitespaces)), matches.indices.contains(number - 1) {
                        return session.run(matches[number - 1].type, named: matches[number - 1].arguments, options: options)
                    }
                    conversation.retry(text("say.chooseNumber", ["count": "\(matches.count)"]))
                }
            }
            return Outcome(status: .unknownType, type: "",
                           message: text("say.ambiguous", ["sentence": sentence, "choices": text.list(matches.map(\.summary), or: true)]),
                           suggestions: matches.map(\.type)).said(sentence)
        }
    }

    /// A sentence `say` understands as it is, for showing what may be typed: the first phrase in
    /// the session's language without placeholders ("show my streak") of the first of `types`
    /// that has one; nil when none has.
    public func example(of types: [String]) -> String? {
        let actions = session.phraseMatcher.actions
        for type in types {
            guard let action = actions.first(where: { $0.type == type }) else { continue }
            if let phrase = action.phrases.first(where: { $0.applies(to: session.language) && !$0.template.contains("{") }) {
                return phrase.template
            }
        }
        return nil
    }

    /// What a reply to `type`'s question is read with: its phrases, and each one's ending from
    /// its first placeholder on ("log {count} {exercise}" also as "{count} {exercise}").
    func replyMatcher(for type: String) -> PhraseMatcher {
        var matcher = session.phraseMatcher
        matcher.actions = matcher.actions.filter { $0.type == type }.map { action in
            var action = action
            let endings = action.phrases.compactMap { phrase -> Phrase? in
                let words = phrase.template.split(whereSeparator: \.isWhitespace)
                guard let first = words.firstIndex(where: { $0.hasPrefix("{") }), first > 0 else { return nil }
                return Phrase(language: phrase.language, template: words[first...].joined(separator: " "))
            }
            action.phrases += endings.filter { !action.phrases.contains($0) }
            return action
        }
        matcher.applications = [:]
        return matcher
    }
}
