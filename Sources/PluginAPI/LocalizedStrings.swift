import Foundation

/// A plugin's `Localizable.strings` tables, one per language, looked up by key with
/// `{name}` placeholders:
///
/// ```swift
/// let strings = LocalizedStrings(directory: PluginLibrary.resource("MyPlugin.resources/Localization"),
///                                language: context.locale)
/// strings("logged", ["count": "20", "exercise": "squats"])   // "Logged 20 squats"
/// ```
///
/// Tables live in `<directory>/<language>.lproj/Localizable.strings` (the `.strings` format,
/// UTF-8 or UTF-16 with a byte-order mark). A key is looked up in the user's language
/// (`nl_NL` → `nl_NL.lproj`, then `nl.lproj`), then in the development language, and when no
/// table has it the key itself is returned, so a missing translation shows, never crashes.
public struct LocalizedStrings: Sendable {
    /// The language asked for, normalized ("nl_NL").
    public let language: String
    private let tables: [[String: String]]

    public init(directory: URL?, language: String, developmentLanguage: String = "en") {
        let normalized = LocalizedStrings.normalize(language)
        self.language = normalized
        var names: [String] = []
        for candidate in LocalizedStrings.lprojNames(normalized) + [developmentLanguage]
            where !names.contains(candidate) {
            names.append(candidate)
        }
        tables = names.compactMap { name in
            directory.flatMap { LocalizedStrings.table(at: $0.appendingPathComponent("\(name).lproj/Localizable.strings")) }
        }
    }

    /// The language's base code ("nl" for "nl_NL").
    public var languageCode: String {
        String(language.prefix { $0 != "_" })
    }

    /// The text for `key` with each `{name}` replaced by `values[name]`; a placeholder with no
    /// value stays as written, and a value is never searched for placeholders of its own.
    public func callAsFunction(_ key: String, _ values: [String: String] = [:]) -> String {
        LocalizedStrings.fill(tables.lazy.compactMap { $0[key] }.first ?? key, values)
    }

    /// `template` with its `{name}` placeholders filled in from `values`, in one pass.
    /// Rationale: Foundation's `replacingOccurrences`, once per value, searched the whole text
    /// through NSString each time: a fifth of a 20,000-line `history` went there.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        let utf8 = template.utf8
        guard !values.isEmpty, var open = utf8.firstIndex(of: UInt8(ascii: "{")) else { return template }
        var text = String(template[..<open])
        text.reserveCapacity(utf8.count + 16)
        var rest = open
        while true {
            let nameStart = utf8.index(after: open)
            let close = utf8[nameStart...].firstIndex { $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "{") }
            if let close, utf8[close] == UInt8(ascii: "}"), let value = values[String(template[nameStart..<close])] {
                text += template[rest..<open]
                text += value
                rest = utf8.index(after: close)
            }
            guard let next = utf8[nameStart...].firstIndex(of: UInt8(ascii: "{")) else { break }
            open = next
        }
        text += template[rest...]
        return text
    }

    /// Whether some table has `key`.
    public func has(_ key: String) -> Bool {
        tables.contains { $0[key] != nil }
    }

    /// "nl-NL.UTF-8@euro" → "nl_NL"; a script modifier becomes the script ("sr_RS@latin" →
    /// "sr_Latn"); "C" and "POSIX" → "en".
    static func normalize(_ language: String) -> String {
        let base = language.prefix { $0 != "." && $0 != "@" }.replacingOccurrences(of: "-", with: "_")
        if base.isEmpty || base == "C" || base == "POSIX" { return "en" }
        if let at = language.firstIndex(of: "@"),
           let script = ["latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva"][language[language.index(after: at)...].lowercased()] {
            return String(base.prefix { $0 != "_" }) + "_" + script
        }
        return base
    }

    static func lprojNames(_ language: String) -> [String] {
        let code = String(language.prefix { $0 != "_" })
        return code == language ? [language] : [language, code]
    }

    /// Reads one `.strings` table through Foundation's property-list reader; nil when absent
    /// or unreadable (a broken table falls back to the next language rather than failing).
    static func table(at url: URL) -> [String: String]? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: String]
    }
}
