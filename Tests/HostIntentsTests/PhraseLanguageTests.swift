import Testing
import HostModel
@testable import HostIntents

/// `say`'s language tables and the matcher that reads with them: number words, the app's name
/// around a request, a number's sign.
@Suite("Phrases: number words, app names, signs", .timeLimit(.minutes(10)))
struct PhraseLanguageTests {
    let english = PhraseLanguage.table(for: "en_GB")!
    let dutch = PhraseLanguage.table(for: "NL")!

    @Test("English number words from zero to a hundred, in the ways people write them")
    func englishNumbers() {
        let cases: [(String, Int?)] = [("zero", 0), ("one", 1), ("Fifteen", 15), ("twenty", 20), ("twenty-one", 21),
                                       ("twenty one", 21), ("ninety-nine", 99), ("hundred", 100), ("a hundred", 100),
                                       ("one hundred", 100), ("twenty-ten", nil), ("elf", nil), ("twintig", nil)]
        for (text, value) in cases { #expect(english.number(text) == value, "\(text)") }
    }

    @Test("Dutch number words: the unit before the ten, in one word, with en or ën")
    func dutchNumbers() {
        let cases: [(String, Int?)] = [("nul", 0), ("een", 1), ("één", 1), ("vijftien", 15), ("twintig", 20),
                                       ("eenentwintig", 21), ("vijfentwintig", 25), ("tweeëntwintig", 22), ("drieëndertig", 33),
                                       ("negenennegentig", 99), ("honderd", 100), ("een honderd", 100), ("twintigeneen", nil),
                                       ("twenty", nil)]
        for (text, value) in cases { #expect(dutch.number(text) == value, "\(text)") }
    }

    @Test("the app's name is taken from around a request, and only where the language puts it")
    func appNames() {
        let tokens = { (sentence: String) in PhraseMatcher.tokens(sentence) }
        #expect(english.withoutApp(tokens("log 20 squats in StandFit"), named: "StandFit") == ["log", "20", "squats"])
        #expect(english.withoutApp(tokens("StandFit, log 20 squats"), named: "StandFit") == ["log", "20", "squats"])
        #expect(english.withoutApp(tokens("ask standfit to log 20 squats"), named: "StandFit") == ["log", "20", "squats"])
        #expect(english.withoutApp(tokens("log 20 squats with Stand Fit"), named: "Stand Fit") == ["log", "20", "squats"])
        #expect(english.withoutApp(tokens("log 20 squats in Strava"), named: "StandFit") == nil)
        #expect(english.withoutApp(tokens("log StandFit squats"), named: "StandFit") == nil)
        #expect(english.withoutApp(tokens("in StandFit"), named: "StandFit") == nil)
        #expect(dutch.withoutApp(tokens("noteer 20 squats met StandFit"), named: "StandFit") == ["noteer", "20", "squats"])
        #expect(english.withoutApp(tokens("hey StandFit, log 20 squats in StandFit"), named: "StandFit") == ["log", "20", "squats"])
        #expect(dutch.withoutApp(tokens("hé StandFit, noteer 20 squats"), named: "StandFit") == ["noteer", "20", "squats"])
    }

    @Test("a number keeps its sign; punctuation around words goes")
    func signs() {
        #expect(PhraseMatcher.tokens("log -5 squats, now!") == ["log", "-5", "squats", "now"])
        #expect(PhraseMatcher.tokens("log +5 squats") == ["log", "+5", "squats"])
        #expect(PhraseMatcher.tokens("log −5 squats") == ["log", "-5", "squats"])
        #expect(PhraseMatcher.tokens("log - squats") == ["log", "squats"])
        #expect(PhraseMatcher.tokens("log (-5) squats") == ["log", "-5", "squats"])
        #expect(PhraseMatcher.tokens("log -twenty squats") == ["log", "-twenty", "squats"])
        #expect(PhraseMatcher.tokens("push-ups: 10") == ["push-ups", "10"])
    }

    let count = ParameterSpec(name: "count", kind: .int64, required: true)
    let exercise = ParameterSpec(name: "exercise", kind: .string, required: true,
                                 domain: .choices([EntityValue(id: "squats", title: "Squats")]))
    let at = ParameterSpec(name: "at", kind: .string)

    func matcher(language: String = "en") -> PhraseMatcher {
        let log = RegisteredAction(type: "com.standfit.logexercise", title: "Log Exercise", parameters: [count, exercise, at],
                                   pluginID: "com.standfit",
                                   phrases: [Phrase(language: "en", template: "log {count} {exercise}"),
                                             Phrase(language: "en", template: "log {count} {exercise} {at}"),
                                             Phrase(language: "nl", template: "noteer {count} {exercise}")])
        let routine = RegisteredAction(type: "user.workout", title: "My workout", pluginID: "",
                                       phrases: [Phrase(language: nil, template: "log my workout")])
        return PhraseMatcher(actions: [log, routine], applications: ["com.standfit": "StandFit"], language: language,
                             entity: { _, _ in nil }, query: { _, _, _ in .success([]) })
    }

    @Test("bare words (issue 51): the phrases' endings that name a thing read 'squats' and '20 squats'; none ends in free text ('{at}') or a number alone, and a routine without placeholders has none")
    func bareWords() {
        let bare = matcher().bareWords()
        #expect(bare.actions.map(\.type) == ["com.standfit.logexercise"])
        #expect(bare.actions.first?.phrases.map { "\($0.language ?? "*") \($0.template)" }
            == ["en {count} {exercise}", "en {exercise}", "nl {count} {exercise}", "nl {exercise}"])
        #expect(bare.matches("squats").map(\.summary) == ["Log Exercise: exercise=squats"])
        #expect(bare.matches("twenty squats").map(\.summary) == ["Log Exercise: count=20 exercise=squats"])
        #expect(bare.matches("20").isEmpty && bare.matches("squats tomorrow").isEmpty && bare.matches("my workout").isEmpty)
    }

    @Test("number words bind as digits; the app's name is left out, before a text placeholder could take it; a routine's phrase fits")
    func matching() {
        let summary = { (sentence: String, language: String) in self.matcher(language: language).matches(sentence).map(\.summary) }
        #expect(summary("log twenty squats", "en") == ["Log Exercise: count=20 exercise=squats"])
        #expect(summary("log twenty one squats", "en") == ["Log Exercise: count=21 exercise=squats"])
        #expect(summary("noteer twintig squats", "nl") == ["Log Exercise: count=20 exercise=squats"])
        #expect(summary("noteer vijfentwintig squats met StandFit", "nl") == ["Log Exercise: count=25 exercise=squats"])
        #expect(summary("log 20 squats in StandFit", "en") == ["Log Exercise: count=20 exercise=squats"])
        #expect(summary("log -5 squats", "en") == ["Log Exercise: count=-5 exercise=squats"])
        #expect(summary("log -twenty squats", "en") == ["Log Exercise: count=-20 exercise=squats"])
        #expect(summary("log my workout", "en") == ["My workout"])
        // A routine is no app's: naming one does not make the words fit.
        #expect(summary("log my workout in StandFit", "en").isEmpty)
    }
}
