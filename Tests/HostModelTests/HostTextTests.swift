import Foundation
import Testing
import TestSupport
@testable import HostModel

/// The host's own words and the language a run is in.
@Suite("Host text and language preference", .timeLimit(.minutes(10)))
struct HostTextTests {
    @Test("no table names a key twice: the second would silently take the first one's place")
    func noKeyTwice() throws {
        for language in HostText.languages {
            let text = try #require(HostText.sources[language])
            var seen = Set<String>(), twice: [String] = []
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("\""), let end = trimmed.dropFirst().firstIndex(of: "\"") else { continue }
                let key = String(trimmed[trimmed.index(after: trimmed.startIndex)..<end])
                if !seen.insert(key).inserted { twice.append(key) }
            }
            #expect(seen.count > 50 && twice.isEmpty, "\(language) names these keys twice: \(twice)")
        }
    }

    @Test("every table has every key, with the same placeholders")
    func tablesAgree() throws {
        let english = try #require(HostText.parsed["en"])
        #expect(english.count > 50)
        for language in HostText.languages {
            let table = try #require(HostText.parsed[language], "\(language) does not parse as a .strings table")
            #expect(Set(table.keys) == Set(english.keys), "\(language)")
            for (key, text) in english {
                let placeholders = { (text: String) in Set(text.split(separator: "{", omittingEmptySubsequences: false).dropFirst().compactMap { $0.split(separator: "}").first }) }
                #expect(placeholders(table[key] ?? "") == placeholders(text), "\(language): \(key)")
            }
        }
    }

    /// Every table of words a user reads: the host's and StandFit's, each language.
    static func tables() throws -> [(name: String, entries: [String: String])] {
        var tables = HostText.languages.compactMap { language in HostText.parsed[language].map { ("host \(language)", $0) } }
        for language in ["en", "nl"] {
            let url = Fixtures.packageRoot.appendingPathComponent("Plugins/StandFit/Plugin/Localization/\(language).lproj/Localizable.strings")
            let entries = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: String],
                                       "\(url.path) does not parse as a .strings table")
            tables.append(("StandFit \(language)", entries))
        }
        return tables
    }

    @Test("one style in every table (issue 35): names and values quoted with ' (never “ ” or ‘ ’), a sentence with its way out ends with a period or a question mark, no doubled or trailing space; StandFit's tables agree as the host's do")
    func oneStyle() throws {
        let tables = try Self.tables()
        #expect(tables.count == 4)
        for (name, entries) in tables {
            for (key, text) in entries.sorted(by: { $0.key < $1.key }) {
                #expect(!text.contains { "“”‘’".contains($0) }, "\(name) \(key): \(text)")
                // What the user typed or named is quoted with ', as run's refusals quote it; a
                // phrase, words to say, with " as the closest phrases are listed.
                #expect(!text.replacingOccurrences(of: "\"{phrase}", with: "").contains("\"{"), "\(name) \(key) quotes a value with \": \(text)")
                #expect(!text.contains("  ") || key.hasPrefix("doctor.") || key.hasPrefix("xp.") || key.contains("didYouMean"),
                        "\(name) \(key) has a doubled space: \(text)")
                // A sentence (it starts with a capital or a placeholder) that names the way out
                // after "; " is whole: it ends as a sentence ends.
                if let first = text.first, first.isUppercase || first == "{", text.contains("; ") {
                    #expect(text.hasSuffix(".") || text.hasSuffix("?") || text.hasSuffix("):"), "\(name) \(key) does not end as a sentence: \(text)")
                }
            }
        }
        // StandFit's Dutch has every key of its English, with the same placeholders.
        let english = try #require(tables.first { $0.name == "StandFit en" }).entries
        let dutch = try #require(tables.first { $0.name == "StandFit nl" }).entries
        #expect(Set(dutch.keys) == Set(english.keys))
        let placeholders = { (text: String) in Set(text.split(separator: "{", omittingEmptySubsequences: false).dropFirst().compactMap { $0.split(separator: "}").first }) }
        for (key, text) in english {
            #expect(placeholders(dutch[key] ?? "") == placeholders(text), "StandFit nl: \(key)")
        }
    }

    @Test("Listen's and speech's sentences come from the tables (issue 51): a Dutch session reads them in Dutch")
    func speechInDutch() {
        #expect(HostError(.speechUnavailable, key: "speech.nothingHeard", ["seconds": "10"]).message(in: "nl")
            == "Er is in 10 seconden niets gehoord; controleer of de microfoon niet gedempt is, en spreek direct na 'Ik luister…'.")
        #expect(HostError(.speechUnavailable, key: "speech.nothingHeard", ["seconds": "10"]).message
            == "Nothing was heard in 10 seconds; check that the microphone is not muted, then speak right after 'Listening…'.")
        #expect(HostText(language: "nl")("listen.notConfirmed", ["sentence": "Log 20 squats"]) == "Niet uitgevoerd: 'Log 20 squats' is niet bevestigd.")
    }

    @Test("a language the host does not speak reads English; a region reads its language")
    func fallback() {
        #expect(HostText(language: "nl_BE")("menu.title") == "Snelle acties")
        #expect(HostText(language: "de")("menu.title") == "Quick actions")
        #expect(HostText(language: "NL")("word.or") == "of")
        #expect(HostText(language: "nl").list(["a", "b", "c"], or: true) == "a, b of c")
    }

    @Test("the run's language: --locale in any case, then LANGUAGE (unless the locale is C), then LC_ALL, LC_MESSAGES, LANG; the first the host speaks")
    func preference() {
        func language(_ explicit: String?, _ environment: [String: String], fallback: String? = nil) -> String {
            LanguagePreference(explicit: explicit, environment: environment).language(fallback: fallback)
        }
        #expect(language("NL", [:]) == "nl")
        #expect(language("nl-nl", [:]) == "nl-NL")
        #expect(language(nil, ["LANGUAGE": "de:nl:en", "LANG": "en_US.UTF-8"]) == "nl")
        #expect(language(nil, ["LANGUAGE": "nl", "LANG": "C"]) == "en")
        #expect(language(nil, ["LANG": "de_DE.UTF-8"]) == "en")
        #expect(language(nil, ["LANG": "de_DE.UTF-8"], fallback: "nl") == "nl")
        #expect(language("xx", ["LANG": "nl_NL.UTF-8"]) == "nl_NL")
        #expect(LanguagePreference(explicit: nil, environment: ["LANG": "de_DE.UTF-8"]).userLprojNames == ["de_DE", "de-DE", "de"])
        #expect(LanguagePreference(explicit: "xx", environment: [:]).fallbackNote(fallback: nil)
            == "standfit-host does not speak xx (from --locale); it answers in en, the first it speaks of xx and its own en, nl, and hands plugins en too.")
        #expect(LanguagePreference(explicit: "nl", environment: [:]).fallbackNote(fallback: nil) == nil)
    }
}
