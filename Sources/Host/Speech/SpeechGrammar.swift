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
    /// The grammar's text (JSGF V1.0), made from `alternatives` and `rules`.
    public private(set) var text: String
    /// How many phrases can be said.
    public var phrases: Int
    /// Phrases and values that cannot be said, and why.
    public var unsayable: [String]
    /// The sentences it takes, one per phrase: words, and rule names (`<number>`) for the
    /// placeholders, separated by spaces.
    public private(set) var alternatives: [String]
    /// The rules the sentences name, in order: each name's alternatives, words separated by spaces.
    public private(set) var rules: [Rule]

    /// A rule of the grammar: `<number> = one | two | …;`.
    public struct Rule: Sendable, Equatable {
        public var name: String
        public var values: [String]
        /// Which values mean the same ("a hundred" and "one hundred", "squat" and "squats"):
        /// the same number for each of them; a value not in it means only itself.
        public var meanings: [String: Int] = [:]

        /// The values without `value` and every other that means the same.
        func without(_ value: String) -> [String] {
            guard let meaning = meanings[value] else { return values.filter { $0 != value } }
            return values.filter { $0 != value && meanings[$0] != meaning }
        }
    }

    /// What fills a placeholder.
    public enum Slot: Sendable, Equatable {
        /// A number of the language, 1 to 100.
        case number
        /// Names, each a value of its own, as they are written.
        case names([String])
        /// Values, each with its names: its title and synonyms, as they are written.
        case values([[String]])
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
            var parts: [String] = [], newRules: [(names: String, rule: String, meanings: [String: Int])] = []
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
                    case .names, .values:
                        var groups: [[String]] = []
                        if case .names(let names)? = source.slots[name] { groups = names.map { [$0] } }
                        if case .values(let values)? = source.slots[name] { groups = values }
                        let names = groups.flatMap { $0 }
                        let meaningOf = Dictionary(groups.enumerated().flatMap { index, group in group.map { ($0, index) } }) { first, _ in first }
                        var said: [String] = [], meanings: [String: Int] = [:]
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
                            if meanings[text] == nil { meanings[text] = meaningOf[value] }
                        }
                        guard !said.isEmpty else {
                            unsayable.append("'\(source.phrase.template)' (\(source.type)): no value of {\(name)} can be said")
                            sayable = false
                            break
                        }
                        // Sorted: the grammar is the same text whatever order a plugin answers in.
                        let list = said.sorted().joined(separator: " | ")
                        let rule = ruleNames[list] ?? newRules.first { $0.names == list }?.rule
                            ?? "<values\(ruleNames.count + newRules.count + 1)>"
                        if ruleNames[list] == nil && !newRules.contains(where: { $0.names == list }) { newRules.append((list, rule, meanings)) }
                        parts.append(rule)
                    case .freeText:
                        unsayable.append("'\(source.phrase.template)' (\(source.type)): {\(name)} is free text")
                        sayable = false
                    }
                }
                if !sayable { break }
            }
            guard sayable else { continue }
            for (names, rule, meanings) in newRules {
                ruleNames[names] = rule
                rules.append(Rule(name: rule, values: names.components(separatedBy: " | "), meanings: meanings))
            }
            alternatives.append(parts.joined(separator: " "))
            count += 1
        }
        if usesNumber, let table {
            let words = numberWords(table, isWord: isWord)
            rules.append(Rule(name: "<number>", values: words, meanings: Dictionary(words.compactMap { word in table.number(word).map { (word, $0) } }) { first, _ in first }))
        }
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

    /// The grammars that cannot say `heard` in one respect each, to ask the recogniser what else
    /// the sound could be (`Recognizer.reading`): one without each value that fills a
    /// placeholder of the sentence it is (the number, the exercise), and one without the
    /// sentences that say it. Empty when the grammar does not say `heard`.
    public func rivals(of heard: String) -> [SpeechGrammar] {
        let words = heard.split(separator: " ").map(String.init)
        guard let filled = alternatives.lazy.compactMap({ self.fill($0.split(separator: " ").map(String.init)[...], words[...]) }).first else {
            return []
        }
        var rivals: [SpeechGrammar] = []
        for (index, value) in filled {
            var rules = self.rules
            rules[index].values = rules[index].without(value)
            // A value no other can take the place of is no respect in which the sound is unsure.
            guard !rules[index].values.isEmpty else { continue }
            rivals.append(SpeechGrammar(alternatives: alternatives, rules: rules, phrases: phrases, unsayable: []))
        }
        let others = alternatives.filter { fill($0.split(separator: " ").map(String.init)[...], words[...]) == nil }
        if !others.isEmpty { rivals.append(SpeechGrammar(alternatives: others, rules: rules, phrases: others.count, unsayable: [])) }
        return rivals
    }

    /// How the sentence `tokens` (words and rule names) says exactly `words`: the rule (its index)
    /// and value that fills each of its placeholders; nil when it cannot say them.
    private func fill(_ tokens: ArraySlice<String>, _ words: ArraySlice<String>) -> [(rule: Int, value: String)]? {
        guard let first = tokens.first else { return words.isEmpty ? [] : nil }
        guard first.hasPrefix("<"), let index = rules.firstIndex(where: { $0.name == first }) else {
            return words.first == first ? fill(tokens.dropFirst(), words.dropFirst()) : nil
        }
        for value in rules[index].values {
            let parts = value.split(separator: " ").map(String.init)
            if words.starts(with: parts), let rest = fill(tokens.dropFirst(), words.dropFirst(parts.count)) {
                return [(index, value)] + rest
            }
        }
        return nil
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

