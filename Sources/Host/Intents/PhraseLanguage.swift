import Foundation
import HostModel

/// What `say` knows about a language beyond the phrases plugins declare: its number words
/// ("twenty", "twintig") and how people name the app they speak to ("log 20 squats in StandFit",
/// "StandFit, log 20 squats", "noteer 20 squats met StandFit"). Data, not code: another language
/// is another entry in `tables`.
public struct PhraseLanguage: Sendable {
    /// Number words 0 to 19, and the tens.
    public var units: [String: Int]
    public var tens: [String: Int]
    /// The word for 100 ("hundred"), with what may stand before it ("a", "one").
    public var hundred: String
    public var hundredPrefixes: [String]
    /// Words that are one on their own, never inside a longer number: English's articles ("log a
    /// minute of plank"); Dutch's "een" is a number word already.
    public var articles: [String] = []
    /// How a unit joins a ten: English puts the ten first ("twenty-one", "twenty one"); Dutch
    /// puts the unit first, in one word ("eenentwintig", "tweeëntwintig").
    public var unitFirst: Bool
    public var joiners: [String]
    /// Where the app's name may stand around the request: "{app}" is the name, the rest words
    /// that must be there ("in {app}", "{app}"). Prefixes before, suffixes after.
    public var appPrefixes: [String]
    public var appSuffixes: [String]

    /// The languages `say` knows, by their base tag.
    public static let tables: [String: PhraseLanguage] = [
        "en": PhraseLanguage(
            units: ["zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
                    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19],
            tens: ["twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90],
            hundred: "hundred", hundredPrefixes: ["a", "one"], articles: ["a", "an"], unitFirst: false, joiners: ["-", " "],
            appPrefixes: ["{app}", "hey {app}", "ask {app} to"],
            appSuffixes: ["in {app}", "with {app}", "using {app}", "on {app}"]),
        "nl": PhraseLanguage(
            units: ["nul": 0, "een": 1, "één": 1, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "zes": 6, "zeven": 7, "acht": 8,
                    "negen": 9, "tien": 10, "elf": 11, "twaalf": 12, "dertien": 13, "veertien": 14, "vijftien": 15,
                    "zestien": 16, "zeventien": 17, "achttien": 18, "negentien": 19],
            tens: ["twintig": 20, "dertig": 30, "veertig": 40, "vijftig": 50, "zestig": 60, "zeventig": 70, "tachtig": 80, "negentig": 90],
            hundred: "honderd", hundredPrefixes: ["een", "één"], unitFirst: true, joiners: ["en", "ën"],
            appPrefixes: ["{app}", "hé {app}", "hey {app}"],
            appSuffixes: ["in {app}", "met {app}", "via {app}", "op {app}"]),
    ]

    /// The table for `language` ("nl_NL" → "nl"), if `say` knows it.
    public static func table(for language: String) -> PhraseLanguage? {
        tables[LanguagePreference.base(of: language)]
    }

    /// The tables to read a sentence in: `language`'s first, then the others (a sentence may
    /// fit a phrase of another language, when its own has none that fits).
    public static func tables(preferring language: String) -> [PhraseLanguage] {
        let base = LanguagePreference.base(of: language)
        return ([tables[base]].compactMap { $0 }) + tables.filter { $0.key != base }.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The number `text` spells (one word, or two joined by a space: "twenty one"), from 0 to 100.
    public func number(_ text: String) -> Int? {
        let word = text.lowercased()
        if let unit = units[word] { return unit }
        if articles.contains(word) { return 1 }
        if let ten = tens[word] { return ten }
        if word == hundred || hundredPrefixes.contains(where: { "\($0) \(hundred)" == word }) { return 100 }
        for joiner in joiners {
            for (tenWord, ten) in tens {
                for (unitWord, unit) in units where (1...9).contains(unit) {
                    let spelled = unitFirst ? unitWord + joiner + tenWord : tenWord + joiner + unitWord
                    if spelled == word { return ten + unit }
                }
            }
        }
        return nil
    }

    /// `tokens` without the app's name around them ("log 20 squats in StandFit" → "log 20
    /// squats" for app "StandFit"), or nil when the name is not there.
    public func withoutApp(_ tokens: [String], named app: String) -> [String]? {
        let name = app.split(whereSeparator: \.isWhitespace).map { EntityText.key(String($0)) }
        guard !name.isEmpty else { return nil }
        func words(_ pattern: String) -> [String] {
            pattern.split(whereSeparator: \.isWhitespace).flatMap { $0 == "{app}" ? name : [EntityText.key(String($0))] }
        }
        var rest = tokens
        var found = false
        if let suffix = appSuffixes.map(words).first(where: { rest.count > $0.count && Array(rest.suffix($0.count).map(EntityText.key)) == $0 }) {
            rest.removeLast(suffix.count)
            found = true
        }
        // Longest first, so that "ask StandFit to" is not read as "StandFit" and a stray "ask";
        // also before a suffix ("hey StandFit, log 20 squats in StandFit").
        if let prefix = appPrefixes.map(words).sorted(by: { $0.count > $1.count })
            .first(where: { rest.count > $0.count && Array(rest.prefix($0.count).map(EntityText.key)) == $0 }) {
            rest.removeFirst(prefix.count)
            found = true
        }
        return found ? rest : nil
    }
}
