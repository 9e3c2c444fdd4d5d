import Foundation

/// Which language a user wants, as an ordered list of `.lproj` names to try.
///
/// The order is: `--locale`, else GNU gettext's: the `LANGUAGE` list (`nl:de:en`, unless the
/// locale is `C` or `POSIX`), then the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that names a
/// language (`C` and `POSIX` do not). Case does not matter (`NL`, `nl-nl`). The manifest loader
/// then adds the manifest's `CFBundleDevelopmentRegion` and `Base`. A POSIX locale such as
/// `nl_NL.UTF-8@euro` tries `nl_NL`, `nl-NL`, then `nl`.
///
/// The language of a run (`language(fallback:)`) is the first of these the host speaks
/// (`HostText.languages`), so that its words, the plugins' and every date come from one
/// language: `LANG=de_DE` answers in English, English dates included, and `--verbose` says so.
public struct LanguagePreference: Sendable, Equatable {
    /// The user's languages, most wanted first, e.g. ["nl_NL", "de"]; empty when none is set.
    public let userLanguages: [String]
    /// Where the first of them was set ("--locale", "LANGUAGE", "LANG"…).
    public let userLanguageSource: String?

    /// The user's first language without the manifest's fallback, e.g. "nl_NL"; nil when none is set.
    public var userLanguage: String? { userLanguages.first }

    public init(explicit: String?, environment: [String: String]) {
        var languages: [(String, String)] = []
        if let explicit, let language = LanguagePreference.normalize(explicit) { languages.append((language, "--locale")) }
        let locale = [("LC_ALL", environment["LC_ALL"]), ("LC_MESSAGES", environment["LC_MESSAGES"]), ("LANG", environment["LANG"])]
            .first { $0.1.map { !$0.isEmpty } ?? false }
        // As glibc's gettext: LANGUAGE counts unless the locale is exactly C or POSIX (C.UTF-8 is not).
        let localeIsC = locale.map { ["C", "POSIX"].contains($0.1!) } ?? true
        if !localeIsC, let list = environment["LANGUAGE"] {
            languages += list.split(separator: ":").compactMap { LanguagePreference.normalize(String($0)) }.map { ($0, "LANGUAGE") }
        }
        if let (name, value) = locale, let language = value.flatMap(LanguagePreference.normalize) {
            languages.append((language, name))
        }
        var seen = Set<String>()
        let unique = languages.filter { seen.insert($0.0).inserted }
        userLanguages = unique.map(\.0)
        userLanguageSource = unique.first?.1
    }

    /// The language of a run, handed to plugins: the first of the user's that the host speaks,
    /// else `fallback` (the manifest's development region) if it speaks that, else English.
    public func language(fallback: String?) -> String {
        if let spoken = userLanguages.first(where: { HostText.languages.contains(LanguagePreference.base(of: $0)) }) { return spoken }
        if let fallback = fallback.flatMap(LanguagePreference.normalize), HostText.languages.contains(LanguagePreference.base(of: fallback)) {
            return fallback
        }
        return "en"
    }

    /// When the user asked for a language the host does not speak and the run answers in
    /// another: one sentence for `--verbose`; nil otherwise.
    public func fallbackNote(fallback: String?) -> String? {
        guard let first = userLanguage, !HostText.languages.contains(LanguagePreference.base(of: first)) else { return nil }
        let answered = language(fallback: fallback)
        return "standfit-host does not speak \(first) (from \(userLanguageSource ?? "the environment")); it answers in \(answered), the first it speaks of \(userLanguages.joined(separator: ", ")) and its own \(HostText.languages.joined(separator: ", ")), and hands plugins \(answered) too."
    }

    /// The `.lproj` directory names of the user's languages, in their order, each most specific
    /// first (`LANGUAGE=fr:nl` tries `fr`, then `nl`).
    public var userLprojNames: [String] {
        var seen = Set<String>()
        return userLanguages.flatMap { LanguagePreference.lprojNames(for: $0) }.filter { seen.insert($0).inserted }
    }

    /// The `.lproj` directory names of a language (`nl_NL`, `nl-NL`, `nl`); none for nil.
    public static func lprojNames(for language: String?) -> [String] {
        language.flatMap(normalize).map(variants) ?? []
    }

    /// `nl_NL.UTF-8@euro` → `nl_NL`, `NL` → `nl`, `nl-nl` → `nl-NL`; a script modifier becomes
    /// the script (`sr_RS@latin` → `sr_Latn`, as `.lproj` names write it); nil for empty, `C` and
    /// `POSIX`.
    package static func normalize(_ raw: String) -> String? {
        // Rationale: trimmed by hand, not with Foundation's CharacterSet, which was a tenth of a
        // warm session's set-up in the server's profile; a locale name holds only ASCII.
        let trimmed = String(raw.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        let name = String(trimmed.prefix { $0 != "." && $0 != "@" })
        guard !name.isEmpty, name.uppercased() != "C", name.uppercased() != "POSIX" else { return nil }
        if let script = scriptModifier(of: trimmed) {
            return base(of: name) + "_" + script
        }
        guard let separator = name.firstIndex(where: { $0 == "_" || $0 == "-" }) else { return name.lowercased() }
        // A region is two letters (`NL`) or three digits; a script is four letters (`Hant`).
        let rest = name[name.index(after: separator)...]
        let region = rest.count == 2 ? rest.uppercased() : rest.count == 4 ? rest.prefix(1).uppercased() + rest.dropFirst().lowercased() : String(rest)
        return name[..<separator].lowercased() + String(name[separator]) + region
    }

    /// The script a POSIX locale's modifier names (`@latin` → `Latn`, `@cyrillic` → `Cyrl`), or nil
    /// (`@euro` names none).
    static func scriptModifier(of locale: String) -> String? {
        guard let at = locale.firstIndex(of: "@") else { return nil }
        return ["latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva"][locale[locale.index(after: at)...].lowercased()]
    }

    /// The language without its region, lower-cased: `nl_NL` → `nl`, `NL` → `nl`.
    public static func base(of language: String) -> String {
        String(language.prefix { $0 != "_" && $0 != "-" && $0 != "." && $0 != "@" }).lowercased()
    }

    /// `nl_NL` → [`nl_NL`, `nl-NL`, `nl`]; `pt-BR` → [`pt-BR`, `pt_BR`, `pt`].
    package static func variants(of language: String) -> [String] {
        let base = String(language.prefix { $0 != "_" && $0 != "-" })
        guard base.count < language.count else { return [language] }
        let other = language.contains("_")
            ? language.replacingOccurrences(of: "_", with: "-")
            : language.replacingOccurrences(of: "-", with: "_")
        return [language, other, base]
    }
}
