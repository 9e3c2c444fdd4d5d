import Foundation

/// The host's own words in the languages it speaks, looked up as plugins look up theirs:
/// `Localizable.strings` tables of `"key" = "text with {name} placeholders";`, read with
/// Foundation's property-list decoder, the run's language first, then English.
///
/// Rationale for tables in the source rather than `.strings` resource files: the installed host
/// is one executable copied into `libexec/standfit/` (Scripts/install), with no resource bundle
/// beside it, and a warm server must not depend on files that a later install may change
/// under it. The text of each table is the `.strings` a translator edits.
public struct HostText: Sendable {
    /// The languages the host speaks, by base tag; the first is the fallback.
    public static let languages = ["en", "nl"]

    /// The base tag of the language this text is in ("nl" for "nl_NL").
    public let language: String
    private let tables: [[String: String]]

    public init(language: String) {
        let base = LanguagePreference.base(of: language)
        self.language = HostText.languages.contains(base) ? base : "en"
        tables = [HostText.parsed[self.language], HostText.parsed["en"]].compactMap { $0 }
    }

    /// The text of `phrase`, each of its parts put into words in this language first.
    public func callAsFunction(_ phrase: Phrase) -> String {
        var values = phrase.values
        for (name, part) in phrase.parts { values[name] = self(part) }
        return self(phrase.key, values)
    }

    /// The text for `key`, each `{name}` replaced by `values[name]`; the key itself when no
    /// table has it (a test catches that: every key is in every table).
    public func callAsFunction(_ key: String, _ values: [String: String] = [:]) -> String {
        HostText.fill(tables.lazy.compactMap { $0[key] }.first ?? key, values)
    }

    /// `template` with each `{name}` replaced by `values[name]`, in one pass: a value that itself
    /// holds "{type}" (a plugin's message, a sentence the user said) is left as it is.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"), let value = values[String(rest[rest.index(after: open)..<close])] else {
                result.append("{")
                rest = rest[rest.index(after: open)...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// A sentence or part of one, kept as its key and values until it is said in a language:
    /// an error made in one place (a server, a store) and shown in another (a client in Dutch).
    /// `parts` are phrases of their own that fill a placeholder ("record the run of {type}").
    public struct Phrase: Sendable, Equatable {
        public var key: String
        public var values: [String: String]
        public var parts: [String: Phrase]

        public init(_ key: String, _ values: [String: String] = [:], parts: [String: Phrase] = [:]) {
            self.key = key
            self.values = values
            self.parts = parts
        }
    }

    /// What a value of `kind` must be: "an integer" ("een geheel getal").
    public func expectation(of kind: ParameterKind) -> String {
        switch kind {
        case .bool: self("expect.bool")
        case .int64: self("expect.int64")
        case .double: self("expect.double")
        case .string: self("expect.string")
        }
    }

    /// "a, b and c" ("a, b en c"), or with `or` ("of").
    public func list(_ items: [String], or: Bool = false) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(self(or ? "word.or" : "word.and")) " + items[items.count - 1]
    }

    /// Each language's table, parsed once.
    static let parsed: [String: [String: String]] = HostText.sources.compactMapValues { text in
        (try? PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil)) as? [String: String]
    }
}
