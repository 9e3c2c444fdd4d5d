import Testing
@testable import HostModel

/// The host's own words and the language a run is in.
@Suite("Host text and language preference")
struct HostTextTests {
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
