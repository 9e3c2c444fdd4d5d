import HostIntents
import HostModel

/// What can be said to the host, as a JSGF grammar for the recogniser: every phrase the plugins
/// declare in one language, each placeholder spelled out as the words that fill it — the number
/// words of the language for a number, every value's name and synonyms for an entity or a list
/// of choices. A recogniser that only hears what fits the grammar cannot hear "log squats" as
/// some other word, and whatever it hears is a sentence `say` understands.
///
/// Only words the recogniser's dictionary has can be in it (`isWord`); a value whose name has
/// another word is left out, and a phrase with a free-text placeholder (a note, a name) or a
/// word the dictionary lacks cannot be said (`unsayable` names them).
public struct SpeechGrammar: Sendable, Equatable {
    /// The grammar's text (JSGF V1.0).
    public var text: String
    /// How many phrases can be said.
    public var phrases: Int
    /// Phrases and values that cannot be said, and why.
    public var unsayable: [String]
    /// The sentences it takes, one per phrase: words, and rule names (`<number>`) for the
    /// placeholders, separated by spaces.
    public var alternatives: [String]
    /// The rules the sentences name, in order: each name's alternatives, words separated by spaces.
    public var rules: [Rule]

    /// A rule of the grammar: `<number> = one | two | …;`.
    public struct Rule: Sendable, Equatable {
        public var name: String
        public var values: [String]
    }

    /// What fills a placeholder.
    public enum Slot: Sendable, Equatable {
        /// A number of the language, 1 to 100.
        case number
        /// Names: each value's title and synonyms, as they are written.
        case names([String])
        /// Free text: no grammar can say it.
        case freeText
    }

    /// One action's phrase, with what fills each of its placeholders.
    public struct Source: Sendable {
        public var type: String
        public var phrase: Phrase
        public var slots: [String: Slot]
        /// The plugin that declared it: each plugin's share of the grammar is bounded.
        public var pluginID: String

        public init(type: String, phrase: Phrase, slots: [String: Slot], pluginID: String = "") {
            self.type = type
            self.phrase = phrase
            self.slots = slots
            self.pluginID = pluginID
        }
    }

    /// The most phrases of one plugin the grammar takes, and the most names of one placeholder:
    /// a plugin declaring thousands of either would make every spoken request slow and large
    /// (the recogniser searches all of them), and no one speaks such a list.
    public static let phrasesPerPlugin = 64
    public static let namesPerPlaceholder = 200

    /// The grammar of `sources` in `language`, with only the words `isWord` knows.
    public static func make(_ sources: [Source], language: String, isWord: (String) -> Bool) -> SpeechGrammar {
        let table = PhraseLanguage.table(for: language)
        var rules: [Rule] = [], alternatives: [String] = [], unsayable: [String] = []
        // A value list is one rule, however many phrases use it.
        var ruleNames: [String: String] = [:]
        var usesNumber = false
        var count = 0
        var perPlugin: [String: Int] = [:]
        for source in sources {
            perPlugin[source.pluginID, default: 0] += 1
            if perPlugin[source.pluginID]! > phrasesPerPlugin {
                if perPlugin[source.pluginID]! == phrasesPerPlugin + 1 {
                    unsayable.append("'\(source.phrase.template)' and the rest of \(source.pluginID)'s phrases: a plugin's first \(phrasesPerPlugin) phrases can be said, no more")
                }
                continue
            }
            var parts: [String] = [], newRules: [(names: String, rule: String)] = []
            var sayable = true
            for part in source.phrase.parts {
                switch part {
                case .word(let word):
                    let words = spoken(word)
                    if words.isEmpty || !words.allSatisfy(isWord) {
                        unsayable.append("'\(source.phrase.template)' (\(source.type)): the recogniser does not know '\(word)'")
                        sayable = false
                    }
                    parts.append(words.joined(separator: " "))
                case .placeholder(let name):
                    switch source.slots[name] ?? .freeText {
                    case .number:
                        guard table != nil else {
                            unsayable.append("'\(source.phrase.template)' (\(source.type)): no number words for \(language)")
                            sayable = false
                            break
                        }
                        usesNumber = true
                        parts.append("<number>")
                    case .names(let names):
                        var said: [String] = []
                        if names.count > namesPerPlaceholder {
                            let reason = "{\(name)} of \(source.type): its first \(namesPerPlaceholder) of \(names.count) names can be said, no more"
                            if !unsayable.contains(reason) { unsayable.append(reason) }
                        }
                        for value in names.prefix(namesPerPlaceholder) {
                            let words = spoken(value)
                            if words.isEmpty || !words.allSatisfy(isWord) {
                                // Once per value, however many phrases use it.
                                let reason = "'\(value)' (a value of {\(name)} of \(source.type)): a word the recogniser does not know"
                                if !words.isEmpty && !unsayable.contains(reason) { unsayable.append(reason) }
                                continue
                            }
                            let text = words.joined(separator: " ")
                            if !said.contains(text) { said.append(text) }
                        }
                        guard !said.isEmpty else {
                            unsayable.append("'\(source.phrase.template)' (\(source.type)): no value of {\(name)} can be said")
                            sayable = false
                            break
                        }
                        // Sorted: the grammar is the same text whatever order a plugin answers in.
                        let names = said.sorted().joined(separator: " | ")
                        let rule = ruleNames[names] ?? newRules.first { $0.names == names }?.rule
                            ?? "<values\(ruleNames.count + newRules.count + 1)>"
                        if ruleNames[names] == nil && !newRules.contains(where: { $0.names == names }) { newRules.append((names, rule)) }
                        parts.append(rule)
                    case .freeText:
                        unsayable.append("'\(source.phrase.template)' (\(source.type)): {\(name)} is free text")
                        sayable = false
                    }
                }
                if !sayable { break }
            }
            guard sayable else { continue }
            for (names, rule) in newRules {
                ruleNames[names] = rule
                rules.append(Rule(name: rule, values: names.components(separatedBy: " | ")))
            }
            alternatives.append(parts.joined(separator: " "))
            count += 1
        }
        if usesNumber, let table { rules.append(Rule(name: "<number>", values: numberWords(table, isWord: isWord))) }
        return SpeechGrammar(alternatives: alternatives, rules: rules, phrases: count, unsayable: unsayable)
    }

    init(alternatives: [String], rules: [Rule], phrases: Int, unsayable: [String]) {
        self.alternatives = alternatives
        self.rules = rules
        self.phrases = phrases
        self.unsayable = unsayable
        let sentence = alternatives.isEmpty ? "<VOID>" : alternatives.map { "(\($0))" }.joined(separator: " | ")
        text = (["#JSGF V1.0;", "grammar standfit;", "public <sentence> = \(sentence);"]
            + rules.map { "\($0.name) = \($0.values.joined(separator: " | "));" }).joined(separator: "\n") + "\n"
    }

    /// The grammar that cannot say `heard`, to ask the recogniser what else the sound could be
    /// (`Recognizer.reading`): without the number `heard` holds, else without the sentences
    /// that say it. Nil when nothing would be left.
    public func rival(of heard: String) -> SpeechGrammar? {
        let words = heard.split(separator: " ").map(String.init)
        if let index = rules.firstIndex(where: { $0.name == "<number>" }) {
            let said = rules[index].values.filter { number in
                let parts = number.split(separator: " ").map(String.init)
                return words.indices.contains { words[$0...].starts(with: parts) }
            }
            if let number = said.max(by: { $0.count < $1.count }) {
                var rules = self.rules
                rules[index].values.removeAll { $0 == number }
                return rules[index].values.isEmpty ? nil : SpeechGrammar(alternatives: alternatives, rules: rules, phrases: phrases, unsayable: [])
            }
        }
        let others = alternatives.filter { !says($0.split(separator: " ").map(String.init)[...], words[...]) }
        guard !others.isEmpty, others.count < alternatives.count else { return nil }
        return SpeechGrammar(alternatives: others, rules: rules, phrases: others.count, unsayable: [])
    }

    /// Whether the sentence `tokens` (words and rule names) can say exactly `words`.
    private func says(_ tokens: ArraySlice<String>, _ words: ArraySlice<String>) -> Bool {
        guard let first = tokens.first else { return words.isEmpty }
        guard first.hasPrefix("<"), let rule = rules.first(where: { $0.name == first }) else {
            return words.first == first && says(tokens.dropFirst(), words.dropFirst())
        }
        return rule.values.contains { value in
            let parts = value.split(separator: " ").map(String.init)
            return words.starts(with: parts) && says(tokens.dropFirst(), words.dropFirst(parts.count))
        }
    }

    /// `text` as the recogniser's words: lower-case, hyphens and underscores as spaces, nothing
    /// but letters and apostrophes; empty when it has a digit or nothing else.
    public static func spoken(_ text: String) -> [String] {
        let lowered = text.lowercased().replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
        guard !lowered.contains(where: \.isNumber) else { return [] }
        return lowered.split(separator: " ").map { word in
            String(word.filter { $0.isLetter || $0 == "'" })
        }.filter { !$0.isEmpty }
    }

    /// The numbers 1 to 100 as `table` spells them, in words the recogniser knows.
    static func numberWords(_ table: PhraseLanguage, isWord: (String) -> Bool) -> [String] {
        var words: [String] = []
        func add(_ text: String) {
            let parts = text.split(separator: " ").map(String.init)
            if parts.allSatisfy(isWord), !words.contains(text) { words.append(text) }
        }
        let units = table.units.filter { $0.value >= 1 }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
        let tens = table.tens.sorted { $0.value < $1.value }
        for (word, _) in units { add(word) }
        for (ten, _) in tens {
            add(ten)
            for (unit, value) in units where value <= 9 {
                // "twenty one" (spoken apart: the dictionary has no "twenty-one"); Dutch joins
                // the unit first in one word ("eenentwintig").
                add(table.unitFirst ? unit + (table.joiners.first ?? "") + ten : ten + " " + unit)
            }
        }
        for prefix in table.hundredPrefixes { add(prefix + " " + table.hundred) }
        return words
    }
}

