import Testing
import HostModel
@testable import HostSpeech

/// The grammar made from the plugins' phrases (issue 39): what can be said, in the words a
/// recogniser's dictionary knows, and what cannot, with why.
@Suite("Speech: the grammar from the plugins' phrases", .timeLimit(.minutes(10)))
struct SpeechGrammarTests {
    let dictionary: Set<String> = ["log", "my", "show", "streak", "push", "ups", "squats", "plank", "one", "two", "three",
                                   "five", "ten", "twenty", "hundred", "a", "note", "in"]

    @Test("phrases with a number and an entity: the number words the dictionary has, the names spelled as words, one rule per value list, joined in one sentence rule")
    func numbersAndNames() {
        let grammar = SpeechGrammar.make([
            .init(type: "com.standfit.logexercise", phrase: Phrase(language: "en", template: "log {count} {exercise}"),
                  slots: ["count": .number, "exercise": .names(["Push-Ups", "pushups", "Squats", "Jumping Jacks", "Plank"])]),
            .init(type: "com.standfit.logexercise", phrase: Phrase(language: "en", template: "log {count} {exercise} {note}"),
                  slots: ["count": .number, "exercise": .names(["Plank"]), "note": .freeText]),
            .init(type: "com.standfit.viewstreak", phrase: Phrase(language: nil, template: "show my streak"), slots: [:]),
            .init(type: "com.standfit.logexercise", phrase: Phrase(language: "en", template: "log a {exercise}"),
                  slots: ["exercise": .names(["Push-Ups", "pushups", "Squats", "Jumping Jacks", "Plank"])]),
        ], language: "en", isWord: dictionary.contains)
        #expect(grammar.phrases == 3)
        // One rule for a value list however many phrases use it; none for a phrase left out.
        #expect(grammar.text == """
            #JSGF V1.0;
            grammar standfit;
            public <sentence> = (log <number> <values1>) | (show my streak) | (log a <values1>);
            <values1> = plank | push ups | squats;
            <number> = one | two | three | five | ten | twenty | twenty one | twenty two | twenty three | twenty five | a hundred | one hundred;

            """)
        #expect(grammar.unsayable == [
            "'pushups' (a value of {exercise} of com.standfit.logexercise): a word the recogniser does not know",
            "'Jumping Jacks' (a value of {exercise} of com.standfit.logexercise): a word the recogniser does not know",
            "'log {count} {exercise} {note}' (com.standfit.logexercise): {note} is free text",
        ])
    }

    @Test("the rivals of a reading, to ask what else the sound could be: one without each value filling its sentence (the number at its place, the exercise), one without the sentences that say it; none for what the grammar does not say")
    func rivals() throws {
        let grammar = SpeechGrammar.make([
            .init(type: "log", phrase: Phrase(language: "en", template: "log {count} {exercise}"),
                  slots: ["count": .number, "exercise": .names(["Push-Ups", "Squats", "Plank"])]),
            .init(type: "streak", phrase: Phrase(language: nil, template: "show my streak"), slots: [:]),
            .init(type: "log", phrase: Phrase(language: "en", template: "log a {exercise}"), slots: ["exercise": .names(["Push-Ups", "Squats"])]),
        ], language: "en", isWord: dictionary.contains)
        #expect(grammar.alternatives == ["log <number> <values1>", "show my streak", "log a <values2>"])
        let logged = grammar.rivals(of: "log twenty one push ups")
        #expect(logged.count == 3)
        // Without "twenty one" (not "one", nor "twenty"), then without "push ups", then without the sentence.
        #expect(logged[0].rules.first { $0.name == "<number>" }?.values.contains("twenty one") == false)
        #expect(logged[0].rules.first { $0.name == "<number>" }?.values.contains("one") == true)
        #expect(logged[1].rules.first { $0.name == "<values1>" }?.values == ["plank", "squats"])
        #expect(logged[2].alternatives == ["show my streak", "log a <values2>"])
        #expect(logged.allSatisfy { $0.text.hasPrefix("#JSGF V1.0;\ngrammar standfit;\npublic <sentence> = (") })
        // A sentence without placeholders: only the grammar without it.
        let streak = grammar.rivals(of: "show my streak")
        #expect(streak.map(\.alternatives) == [["log <number> <values1>", "log a <values2>"]])
        // What the grammar does not say has none; nor has a grammar of one sentence.
        #expect(grammar.rivals(of: "call my mother").isEmpty)
        #expect(grammar.rivals(of: "log twenty").isEmpty)
        let one = SpeechGrammar.make([.init(type: "streak", phrase: Phrase(language: nil, template: "show my streak"), slots: [:])],
                                     language: "en", isWord: dictionary.contains)
        #expect(one.rivals(of: "show my streak").isEmpty)
    }

    @Test("a plugin's share is bounded: 2,500 values of one placeholder keep their first 200, 100 phrases of one plugin their first 64, with the reasons; another plugin keeps its own")
    func bounded() {
        let names = (0..<2500).map { _ in "squats" } + ["plank"]
        let many = (0..<100).map { index in
            SpeechGrammar.Source(type: "com.zoo.big", phrase: Phrase(language: "en", template: "log w\(String(String(index).map { Character(UnicodeScalar(UInt8(97 + Int(String($0))!))) })) {exercise}"),
                                 slots: ["exercise": .names(names)], pluginID: "com.zoo")
        }
        let own = SpeechGrammar.Source(type: "com.standfit.viewstreak", phrase: Phrase(language: nil, template: "show my streak"), slots: [:], pluginID: "com.standfit")
        let grammar = SpeechGrammar.make(many + [own], language: "en", isWord: { _ in true })
        #expect(grammar.phrases == 65)
        #expect(grammar.text.contains("(show my streak)"))
        #expect(!grammar.text.contains("plank"))
        #expect(grammar.unsayable.contains("{exercise} of com.zoo.big: its first 200 of 2501 names can be said, no more"))
        #expect(grammar.unsayable.contains("'log wge {exercise}' and the rest of com.zoo's phrases: a plugin's first 64 phrases can be said, no more"))
    }

    @Test("what cannot be said is left out with its reason: free text, an unknown word, a value with digits, a language without number words")
    func unsayable() {
        let grammar = SpeechGrammar.make([
            .init(type: "t.note", phrase: Phrase(language: "en", template: "log a note {text}"), slots: ["text": .freeText]),
            .init(type: "t.yoga", phrase: Phrase(language: "en", template: "log yoga"), slots: [:]),
            .init(type: "t.set", phrase: Phrase(language: "en", template: "log {set}"), slots: ["set": .names(["5x5"])]),
            .init(type: "t.count", phrase: Phrase(language: "en", template: "log {count} squats"), slots: ["count": .number]),
        ], language: "fr", isWord: dictionary.contains)
        #expect(grammar.phrases == 0)
        #expect(grammar.text.contains("public <sentence> = <VOID>;"))
        #expect(grammar.unsayable == [
            "'log a note {text}' (t.note): {text} is free text",
            "'log yoga' (t.yoga): the recogniser does not know 'yoga'",
            "'log {set}' (t.set): no value of {set} can be said",
            "'log {count} squats' (t.count): no number words for fr",
        ])
    }

    @Test("spoken words: lower-case, hyphens and underscores as spaces, punctuation gone, nothing with a digit")
    func spoken() {
        #expect(SpeechGrammar.spoken("Push-Ups") == ["push", "ups"])
        #expect(SpeechGrammar.spoken("jumping_jacks!") == ["jumping", "jacks"])
        #expect(SpeechGrammar.spoken("don't") == ["don't"])
        #expect(SpeechGrammar.spoken("5x5") == [])
        #expect(SpeechGrammar.spoken("  ") == [])
    }
}

@Suite("SoX's words", .timeLimit(.minutes(10)))
struct SoxReasonTests {
    @Test("what SoX said is given without its program name and level, one line, at most 200 characters (issue 51: 'Nothing could be recorded' quoted it raw)")
    func reason() {
        #expect(AudioInput.soxReason("rec FAIL formats: can't open input  `default': Connection refused\nmore\n") == "can't open input  `default': Connection refused")
        #expect(AudioInput.soxReason("") == "no reason given")
        #expect(AudioInput.soxReason("sox WARN x: " + String(repeating: "y", count: 500)).count == 200)
    }
}
