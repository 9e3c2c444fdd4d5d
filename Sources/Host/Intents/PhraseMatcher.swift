import Foundation
import HostModel

/// Understands a sentence by the phrases actions declare: "log 15 push-ups" fits
/// "log {count} {exercise}" with count 15 and exercise "push-ups". Literal words must match
/// (ignoring case and punctuation); a placeholder takes one or more words that make a value
/// of its parameter: a number (digits, or number words of a language `PhraseLanguage` knows:
/// "twenty", "twintig") for a number, a name the entity or choice list knows for an entity, any
/// words for text. A sentence that names an action's app ("… in StandFit", "StandFit, …") fits
/// as the same sentence without the name, for that app's actions only.
public struct PhraseMatcher {
    public var actions: [RegisteredAction]
    /// The name people call each plugin's app by ("StandFit"), by plugin id.
    public var applications: [String: String]
    /// The run's language: its phrases are tried first, the others only when none fits.
    public var language: String
    public var entity: (_ pluginID: String, _ entityID: String) -> EntityProvider?
    /// Asks an entity a query: `PluginCalls.query`.
    public var query: (_ entity: EntityProvider, _ query: EntityQuery, _ locale: String) -> Result<[EntityValue], EntityFailure>
    /// Whether a plugin is bundled or pinned by the user (`plugins trust`); routines count as
    /// the user's own. A sentence a trusted plugin's phrase fits is never taken by an untrusted
    /// one, however many more literal words its phrase has: a stranger's "log twenty squats"
    /// must not take StandFit's "log {count} {exercise}" away.
    public var isTrusted: (_ pluginID: String) -> Bool = { _ in true }

    public init(actions: [RegisteredAction], applications: [String: String] = [:], language: String,
                entity: @escaping (_ pluginID: String, _ entityID: String) -> EntityProvider?,
                query: @escaping (_ entity: EntityProvider, _ query: EntityQuery, _ locale: String)
                    -> Result<[EntityValue], EntityFailure>) {
        self.actions = actions
        self.applications = applications
        self.language = language
        self.entity = entity
        self.query = query
    }

    /// One way the sentence fits an action.
    public struct Match: Sendable, Equatable {
        public var type: String
        public var title: String
        public var phrase: Phrase
        public var arguments: [NamedArgument]
        /// How many literal words the phrase matched: more is more specific.
        public var words: Int
        /// How many words of the sentence free-text placeholders took: of two fits with as many
        /// literal words, the one that reads more words as names it knows (an entity's, a
        /// choice's, a number) is the more specific ("log 6 burpees with a vest": the exercise
        /// "burpees with a vest", not "burpees" done "with a vest").
        public var freeWords: Int = 0

        /// The phrase with the values as they were said, its first letter capitalized: "Log 15
        /// push-ups" for "log {count} {exercise}".
        public var said: String {
            phrase.sentence { name in arguments.first { $0.name == name }?.value ?? "{\(name)}" } ?? phrase.template
        }

        /// "Log Exercise: count=15 exercise=push-ups".
        public var summary: String {
            arguments.isEmpty ? title : "\(title): " + arguments.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        }
    }

    /// The longest sentence read, in words and in bytes: a phrase is a short sentence, and
    /// fitting one costs more than linear time in its words (a placeholder may take any run of
    /// them), so a stranger's megabyte (KRunner's Match, `say`) is refused before any work.
    public static let wordLimit = 64
    public static let byteLimit = 1024

    /// Whether `sentence` is longer than the matcher reads.
    public static func isTooLong(_ sentence: String) -> Bool {
        sentence.utf8.count > byteLimit || sentence.split(whereSeparator: \.isWhitespace).count > wordLimit
    }

    /// The best fits, most specific first; several only when they tie and differ; none for a
    /// sentence longer than the limits.
    public func matches(_ sentence: String) -> [Match] {
        guard !PhraseMatcher.isTooLong(sentence) else { return [] }
        let tokens = PhraseMatcher.tokens(sentence)
        guard !tokens.isEmpty else { return [] }
        var checker = ValueChecker(entity: entity, query: query, language: language)
        // A sentence that names an app is read without the name, for that app's actions, first:
        // "log 20 squats in StandFit" must not fit "log {count} {exercise} {at}" with at "in StandFit".
        // An untrusted plugin's name is no way around the trusted phrases: it is read as an app's
        // name only when no trusted phrase fits the whole sentence.
        var trustedFitsWhole: Bool?
        for table in PhraseLanguage.tables(preferring: language) {
            for (pluginID, name) in applications.sorted(by: { $0.key < $1.key }) {
                guard let rest = table.withoutApp(tokens, named: name) else { continue }
                if !isTrusted(pluginID) {
                    if trustedFitsWhole == nil {
                        trustedFitsWhole = !matches(tokens, of: actions.filter { isTrusted($0.pluginID) }, checker: &checker).isEmpty
                    }
                    if trustedFitsWhole == true { continue }
                }
                let found = matches(rest, of: actions.filter { $0.pluginID == pluginID }, checker: &checker)
                if !found.isEmpty { return found }
            }
        }
        return matches(tokens, of: actions, checker: &checker)
    }

    private func matches(_ tokens: [String], of actions: [RegisteredAction], checker: inout ValueChecker) -> [Match] {
        guard !tokens.isEmpty else { return [] }
        for ownLanguageOnly in [true, false] {
            var found: [Match] = []
            for action in actions where !action.isNamespace {
                for phrase in action.phrases where !ownLanguageOnly || phrase.applies(to: language) {
                    for bindings in fit(phrase.parts, tokens[...], action: action, checker: &checker) {
                        let arguments = bindings.map { NamedArgument(name: $0.name, value: $0.value) }
                        let free = bindings.filter { binding in
                            action.parameters.contains { $0.name == binding.name && $0.domain == nil && $0.kind == .string }
                        }
                        let match = Match(type: action.type, title: action.title, phrase: phrase, arguments: arguments,
                                          words: phrase.parts.filter { if case .word = $0 { true } else { false } }.count,
                                          freeWords: free.reduce(0) { $0 + $1.value.split(whereSeparator: \.isWhitespace).count })
                        if !found.contains(where: { $0.type == match.type && $0.arguments == match.arguments }) {
                            found.append(match)
                        }
                    }
                }
            }
            let actionsByType = Dictionary(actions.map { ($0.type, $0.pluginID) }, uniquingKeysWith: { first, _ in first })
            let trusted = found.filter { actionsByType[$0.type].map(isTrusted) ?? true }
            if !trusted.isEmpty { found = trusted }
            if let best = found.map(\.words).max() {
                let specific = found.filter { $0.words == best }
                let fewest = specific.map(\.freeWords).min() ?? 0
                return specific.filter { $0.freeWords == fewest }
            }
        }
        return []
    }

    /// The phrases nearest to a sentence no phrase fits, nearest first.
    public func closest(to sentence: String, limit: Int = 3) -> [(phrase: Phrase, action: RegisteredAction)] {
        guard !PhraseMatcher.isTooLong(sentence) else { return [] }
        let tokens = PhraseMatcher.tokens(sentence).map(EntityText.key)
        var scored: [(cost: Int, phrase: Phrase, action: RegisteredAction)] = []
        for action in actions where !action.isNamespace {
            for phrase in action.phrases where phrase.applies(to: language)
                && !scored.contains(where: { $0.phrase.template == phrase.template }) {
                scored.append((PhraseMatcher.distance(tokens, phrase.parts), phrase, action))
            }
        }
        return scored.sorted { ($0.cost, $0.phrase.template) < ($1.cost, $1.phrase.template) }
            .prefix(limit).map { ($0.phrase, $0.action) }
    }

    /// `phrase` of `action` as something to say: each placeholder filled with a value the action
    /// takes (a number in its range, the first name of a list or of the entity's suggestions),
    /// "…" for free text: "log 20 squats" for "log {count} {exercise}". What people read in a
    /// message, where a template's braces would be programmer text.
    public func example(_ phrase: Phrase, of action: RegisteredAction) -> String {
        phrase.parts.map { part -> String in
            switch part {
            case .word(let word):
                return word
            case .placeholder(let name):
                guard let parameter = action.parameters.first(where: { $0.name == name }) else { return "…" }
                switch parameter.domain {
                case .choices(let values)?:
                    return values.first.map { $0.title.lowercased() } ?? "…"
                case .entity(let id)?:
                    let values = entity(action.pluginID, id).flatMap { try? query($0, .suggest, language).get() } ?? []
                    return values.first.map { $0.title.lowercased() } ?? "…"
                case nil:
                    switch parameter.kind {
                    case .int64, .double:
                        return parameter.sampleNumber(preferring: 20)
                    case .bool:
                        return "yes"
                    case .string:
                        return "…"
                    }
                }
            }
        }.joined(separator: " ")
    }

    /// Words of a sentence, with punctuation around them dropped ("push-ups," → "push-ups"),
    /// but not a number's sign: "-5" stays "-5", so that it is refused as a count, not read as 5.
    static func tokens(_ sentence: String) -> [String] {
        sentence.split(whereSeparator: \.isWhitespace).map { token in
            let trimmed = token.trimmingCharacters(in: .punctuationCharacters.union(.symbols))
            // The character just before the word, when it is a sign: "-5", "(-5)", "-twenty".
            guard let start = token.firstIndex(where: { $0.isLetter || $0.isNumber }), start > token.startIndex else { return trimmed }
            let sign = token[token.index(before: start)]
            guard sign == "-" || sign == "+" || sign == "−" else { return trimmed }
            return (sign == "−" ? "-" : String(sign)) + trimmed
        }.filter { !$0.isEmpty }
    }

    private struct Binding {
        var name: String
        var value: String
    }

    /// The most ways one phrase may fit one sentence; beyond them the sentence is ambiguous anyway.
    static let fitLimit = 16

    /// The ways `parts` covers all of `tokens`, at most `fitLimit` of them.
    ///
    /// A search over (part, word) positions that remembers the positions from which the rest of
    /// the phrase cannot fit, so each is given up on once: a phrase of p parts against a
    /// sentence of n words costs at most p·n² value checks, however many placeholders stand
    /// side by side, instead of trying every way to cut the sentence.
    private func fit(_ parts: [Phrase.Part], _ tokens: ArraySlice<String>, action: RegisteredAction,
                     checker: inout ValueChecker) -> [[Binding]] {
        var search = FitSearch(parts: parts, tokens: Array(tokens), action: action)
        var found: [[Binding]] = []
        var path: [Binding] = []
        _ = search.fit(part: 0, token: 0, path: &path, found: &found, checker: &checker)
        return found
    }

    private struct FitSearch {
        let parts: [Phrase.Part]
        let tokens: [String]
        let action: RegisteredAction
        /// Positions (part, token) from which the rest cannot fit.
        var dead: Set<Int> = []
        /// How many words each part onwards needs at least.
        let wordsNeeded: [Int]

        init(parts: [Phrase.Part], tokens: [String], action: RegisteredAction) {
            self.parts = parts
            self.tokens = tokens
            self.action = action
            wordsNeeded = (0...parts.count).map { parts.count - $0 }
        }

        /// Adds the fits from this position to `found`; whether any was found.
        mutating func fit(part: Int, token: Int, path: inout [Binding], found: inout [[Binding]],
                          checker: inout ValueChecker) -> Bool {
            guard found.count < PhraseMatcher.fitLimit else { return true }
            guard part < parts.count else {
                guard token == tokens.count else { return false }
                found.append(path)
                return true
            }
            let key = part * (tokens.count + 1) + token
            guard !dead.contains(key), tokens.count - token >= wordsNeeded[part] else { return false }
            var any = false
            switch parts[part] {
            case .word(let word):
                if EntityText.key(tokens[token]) == EntityText.key(word) {
                    any = fit(part: part + 1, token: token + 1, path: &path, found: &found, checker: &checker)
                }
            case .placeholder(let name):
                guard let parameter = action.parameters.first(where: { $0.name == name }) else { break }
                let longest = tokens.count - token - wordsNeeded[part + 1]
                for length in stride(from: 1, through: longest, by: 1) {
                    let words = tokens[token..<(token + length)].joined(separator: " ")
                    guard let value = checker.value(words, for: parameter, of: action) else { continue }
                    path.append(Binding(name: name, value: value))
                    if fit(part: part + 1, token: token + length, path: &path, found: &found, checker: &checker) { any = true }
                    path.removeLast()
                    if found.count >= PhraseMatcher.fitLimit { break }
                }
            }
            if !any { dead.insert(key) }
            return any
        }
    }

    /// Word-level edit distance, where a placeholder stands for any one word.
    static func distance(_ tokens: [String], _ parts: [Phrase.Part]) -> Int {
        let pattern = parts.map { part -> String? in
            if case .word(let word) = part { return EntityText.key(word) }
            return nil
        }
        var previous = Array(0...pattern.count)
        for token in tokens {
            var current = [previous[0] + 1] + Array(repeating: 0, count: pattern.count)
            for (index, word) in pattern.enumerated() {
                let substitution = word.map { min(2, Suggester.distance($0, token, containsBonus: false)) } ?? 0
                current[index + 1] = min(previous[index + 1] + 1, current[index] + 1, previous[index] + substitution)
            }
            previous = current
        }
        return previous[pattern.count]
    }
}

/// Whether words make a value of a parameter, remembering entity answers so that one phrase
/// tried several ways asks each entity about each text once.
private struct ValueChecker {
    var entity: (_ pluginID: String, _ entityID: String) -> EntityProvider?
    var query: (_ entity: EntityProvider, _ query: EntityQuery, _ locale: String) -> Result<[EntityValue], EntityFailure>
    var language: String
    var known: [String: Bool] = [:]

    /// The value `text` gives `parameter` (number words as digits), or nil when it gives none.
    mutating func value(_ text: String, for parameter: ParameterSpec, of action: RegisteredAction) -> String? {
        if parameter.domain == nil, parameter.kind == .int64 || parameter.kind == .double,
           ArgumentCoercion.coerce(text, to: parameter.kind) == nil {
            // A sign stays with a number in words ("-twenty" is -20, and refused as a count).
            let negative = text.hasPrefix("-"), words = text.hasPrefix("-") || text.hasPrefix("+") ? String(text.dropFirst()) : text
            return PhraseLanguage.tables(preferring: language).lazy.compactMap { $0.number(words) }.first.map { String(negative ? -$0 : $0) }
        }
        return accepts(text, for: parameter, of: action) ? text : nil
    }

    mutating func accepts(_ text: String, for parameter: ParameterSpec, of action: RegisteredAction) -> Bool {
        switch parameter.domain {
        case .choices(let values)?:
            return values.contains { $0.id == text || $0.isNamed(by: text) }
        case .entity(let id)?:
            let key = "\(action.pluginID)\u{0}\(id)\u{0}\(text)"
            if let answer = known[key] { return answer }
            let provider = entity(action.pluginID, id)
            let answer = provider.map { provider in
                [EntityQuery.lookup(id: text), .match(text: text)].contains { query in
                    (try? self.query(provider, query, language).get())?.isEmpty == false
                }
            } ?? true
            known[key] = answer
            return answer
        case nil:
            return parameter.kind == .string || ArgumentCoercion.coerce(text, to: parameter.kind) != nil
        }
    }
}

extension PhraseMatcher {
    /// The whole phrases a bare-word `match` (of `bareWords()`) is the ending of: each phrase of
    /// its action that ends as it does ("log {count} {exercise}" for "{count} {exercise}"), only
    /// those of `language` when one is given. Asked of the matcher `bareWords()` was made from.
    public func wholePhrases(of match: Match, language: String? = nil) -> [Phrase] {
        guard let action = actions.first(where: { $0.type == match.type }) else { return [] }
        return action.phrases.filter { phrase in
            phrase.template.hasSuffix(" " + match.phrase.template) && language.map { phrase.applies(to: $0) } != false
        }
    }

    /// What a launcher's user types without the verb: each phrase read from each of its
    /// placeholders on ("log {count} {exercise}" as "{count} {exercise}" and "{exercise}"), so
    /// that "squats", "20 squats" or "push ups" fit. Only endings that name a thing (an entity
    /// or a choice) and take no free text: "{note}" alone would fit any words, and a number alone
    /// ("20") says nothing of what to do. Actions without such an ending are left out, and so are
    /// actions whose runs are never suggested (a correction, a setting such as a goal): bare words
    /// read as a habit ("20 squats" logs them), and those are reached by their whole phrases.
    public func bareWords() -> PhraseMatcher {
        var matcher = self
        matcher.applications = [:]
        matcher.actions = actions.compactMap { action in
            guard !action.isNamespace, action.suggestible else { return nil }
            var endings: [Phrase] = []
            for phrase in action.phrases {
                let words = phrase.template.split(whereSeparator: \.isWhitespace).map(String.init)
                for start in words.indices where start > 0 && words[start].hasPrefix("{") {
                    let ending = Phrase(language: phrase.language, template: words[start...].joined(separator: " "))
                    let parameters = ending.parts.compactMap { part -> ParameterSpec?? in
                        guard case .placeholder(let name) = part else { return nil }
                        return .some(action.parameters.first { $0.name == name })
                    }
                    guard parameters.allSatisfy({ $0 != nil }) else { continue }
                    let named = parameters.compactMap { $0 }
                    guard named.allSatisfy({ $0.domain != nil || $0.kind != .string }), named.contains(where: { $0.domain != nil }),
                          !endings.contains(ending) else { continue }
                    endings.append(ending)
                }
            }
            guard !endings.isEmpty else { return nil }
            var bare = action
            bare.phrases = endings
            return bare
        }
        return matcher
    }
}
