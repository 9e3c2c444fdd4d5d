import Foundation

/// Which language a user wants, as an ordered list of `.lproj` names to try.
///
/// The order is: `--locale`, else the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that names a
/// language (`C` and `POSIX` do not); the manifest loader then adds the manifest's
/// `CFBundleDevelopmentRegion` and `Base`. A POSIX locale such as `nl_NL.UTF-8@euro` tries `nl_NL`, `nl-NL`, then `nl`.
public struct LanguagePreference: Sendable, Equatable {
    /// The user's language without the manifest's fallback, e.g. "nl_NL"; nil when none is set.
    public let userLanguage: String?

    public init(explicit: String?, environment: [String: String]) {
        let candidates = [explicit, environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
        userLanguage = candidates.lazy.compactMap { $0.flatMap(LanguagePreference.normalize) }.first
    }

    /// The language handed to plugins: the user's, else `fallback`, else English.
    public func language(fallback: String?) -> String {
        userLanguage ?? fallback.flatMap(LanguagePreference.normalize) ?? "en"
    }

    /// The `.lproj` directory names of the user's language, most specific first.
    public var userLprojNames: [String] {
        LanguagePreference.lprojNames(for: userLanguage)
    }

    /// The `.lproj` directory names of a language (`nl_NL`, `nl-NL`, `nl`); none for nil.
    public static func lprojNames(for language: String?) -> [String] {
        language.flatMap(normalize).map(variants) ?? []
    }

    /// `nl_NL.UTF-8@euro` → `nl_NL`; nil for empty, `C` and `POSIX`.
    package static func normalize(_ raw: String) -> String? {
        let name = String(raw.prefix { $0 != "." && $0 != "@" })
        guard !name.isEmpty, name != "C", name != "POSIX" else { return nil }
        return name
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
