import Foundation

/// One value a parameter can take from an entity or a fixed choice list: the id the handler
/// receives, the title people read and say, other names, and defaults it brings for the
/// action's other parameters ("pushups" brings count 10).
public struct EntityValue: Sendable, Equatable, Hashable, Codable {
    public var id: String
    public var title: String
    public var synonyms: [String]
    public var defaults: [String: JSONValue]

    public init(id: String, title: String, synonyms: [String] = [], defaults: [String: JSONValue] = [:]) {
        self.id = id
        self.title = title
        self.synonyms = synonyms
        self.defaults = defaults
    }

    private enum CodingKeys: String, CodingKey { case id, title, synonyms, defaults }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        synonyms = try container.decodeIfPresent([String].self, forKey: .synonyms) ?? []
        defaults = try container.decodeIfPresent([String: JSONValue].self, forKey: .defaults) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        if !synonyms.isEmpty { try container.encode(synonyms, forKey: .synonyms) }
        if !defaults.isEmpty { try container.encode(defaults, forKey: .defaults) }
    }

    /// True when `text` names this value: its id, title or a synonym, ignoring case, spaces
    /// and punctuation.
    public func isNamed(by text: String) -> Bool {
        let key = EntityText.key(text)
        return !key.isEmpty && ([id, title] + synonyms).contains { EntityText.key($0) == key }
    }
}

/// How typed and spoken text is compared with names: letters and digits only, lowercased, so
/// "Push-Ups", "push ups" and "pushups" are one name.
public enum EntityText {
    public static func key(_ text: String) -> String {
        Suggester.fold(text)
    }
}

/// An entity a plugin registered: the kind of thing, answered by the plugin's queries.
public struct EntityRecord: Sendable, Equatable, Codable {
    public var id: String
    /// What one value is called ("Exercise").
    public var title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

/// Where a string parameter's values come from.
public enum ParameterDomain: Sendable, Hashable, Codable {
    /// An entity of the same plugin, by id; values come from its queries.
    case entity(String)
    /// A fixed list; the host matches names itself.
    case choices([EntityValue])
}

/// A sentence that invokes an action, with `{parameter}` placeholders.
public struct Phrase: Sendable, Equatable, Hashable, Codable {
    /// "en", "nl", or nil for every language.
    public var language: String?
    public var template: String

    public init(language: String?, template: String) {
        self.language = language
        self.template = template
    }

    /// The template's parts, in order.
    public enum Part: Equatable, Sendable {
        case word(String)
        case placeholder(String)
    }

    public var parts: [Part] {
        template.split(whereSeparator: \.isWhitespace).map { token in
            if token.hasPrefix("{"), token.hasSuffix("}"), token.count > 2 {
                return .placeholder(String(token.dropFirst().dropLast()))
            }
            return .word(String(token))
        }
    }

    /// The phrase as a sentence, its first letter capitalized: each placeholder filled with
    /// `value(name)`; nil when one has no value. "Log 15 push-ups" for "log {count} {exercise}".
    public func sentence(filling value: (_ placeholder: String) -> String?) -> String? {
        var words: [String] = []
        for part in parts {
            switch part {
            case .word(let word): words.append(word)
            case .placeholder(let name):
                guard let filled = value(name) else { return nil }
                words.append(filled)
            }
        }
        let sentence = words.joined(separator: " ")
        return sentence.prefix(1).uppercased() + sentence.dropFirst()
    }

    /// True when this phrase is meant for `language` ("nl" also covers "nl_NL").
    public func applies(to language: String) -> Bool {
        guard let own = self.language else { return true }
        let base = { (tag: String) in tag.lowercased().prefix { $0 != "_" && $0 != "-" } }
        return base(own) == base(language)
    }
}

/// One question to an entity.
public enum EntityQuery: Sendable, Equatable, Codable {
    case lookup(id: String)
    case match(text: String)
    case suggest
}

/// Why an entity query gave no values: one sentence naming plugin and entity.
public struct EntityFailure: Error, Sendable, Equatable {
    /// Why, said in the language of the run that shows it.
    public var sentence: HostText.Phrase

    /// A sentence made as text: said as it is in every language.
    public init(message: String) {
        sentence = .verbatim(message)
    }

    public init(_ sentence: HostText.Phrase) {
        self.sentence = sentence
    }

    /// In English, as logs say it.
    public var message: String { sentence.english }

    public func message(in language: String) -> String { sentence.text(in: language) }
}

/// A registered entity and the plugin that answers its queries (through `PluginCalls.query`).
public struct EntityProvider: Sendable, Equatable {
    public var record: EntityRecord
    public var pluginID: String

    public init(record: EntityRecord, pluginID: String) {
        self.record = record
        self.pluginID = pluginID
    }
}
