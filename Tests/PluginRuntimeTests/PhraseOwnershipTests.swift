import HostModel
import Logging
import Testing
@testable import PluginRuntime

/// Phrases have owners: the catalog takes out a phrase another plugin's phrase already reads
/// (or that reads another's), keeping the one of the plugin asked first (bundled, trusted, the
/// rest; load order within each).
@Suite("Phrase ownership", .timeLimit(.minutes(10)))
struct PhraseOwnershipTests {
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    static let exercises = [EntityValue(id: "squats", title: "Squats"), EntityValue(id: "pushups", title: "Push-ups")]

    /// A set with StandFit-like "log {count} {exercise}" (bundled; its exercise entity answers
    /// from `exercises`) and `others` after it.
    static func set(_ others: [(PluginInfo, [RegisteredAction])]) -> PluginSet {
        var set = PluginSet()
        let count = ParameterSpec(name: "count", kind: .int64, required: true, range: 1...3600)
        let exercise = ParameterSpec(name: "exercise", kind: .string, required: true, domain: .entity("exercise"))
        let log = RegisteredAction(type: "com.standfit.logexercise", title: "Log Exercise", parameters: [count, exercise],
                                   pluginID: "com.standfit", phrases: [Phrase(language: "en", template: "log {count} {exercise}")])
        var standfit = PluginInfo(id: "com.standfit", name: "StandFit", version: "1", abiMajor: 1, abiMinor: 0, path: "/b/standfit.so", types: [])
        standfit.isBundled = true
        standfit.isTrusted = true
        var plugins = others
        plugins.append((standfit, [log]))  // loaded last, asked first: it is bundled
        for (info, actions) in plugins {
            set.plugins.append(info)
            for action in actions { _ = set.registry.register(action) }
        }
        set.entities = [EntityProvider(record: EntityRecord(id: "exercise", title: "Exercise"), pluginID: "com.standfit")]
        var calls = PluginCalls.none
        calls.query = { entity, query, _ in
            guard entity.pluginID == "com.standfit" else { return .success([]) }
            switch query {
            case .lookup(let id): return .success(exercises.filter { $0.id == id })
            case .match(let text): return .success(exercises.filter { $0.isNamed(by: text) })
            case .suggest: return .success(exercises)
            }
        }
        set.calls = calls
        return set
    }

    static func plugin(_ id: String, trusted: Bool = false) -> PluginInfo {
        var info = PluginInfo(id: id, name: id, version: "1", abiMajor: 1, abiMinor: 0, path: "/u/\(id).so", types: [])
        info.isTrusted = trusted
        return info
    }

    static func action(_ pluginID: String, _ phrases: [String], parameters: [ParameterSpec] = []) -> RegisteredAction {
        RegisteredAction(type: "\(pluginID).run", title: "Run", parameters: parameters, pluginID: pluginID,
                         phrases: phrases.map { Phrase(language: nil, template: $0) })
    }

    static func phrases(_ set: PluginSet, _ type: String) -> [String] {
        set.registry.action(exactly: type)?.phrases.map(\.template) ?? []
    }

    @Test("a stranger's 'log twenty squats', 'log 20 squats' and 'log {anything}' are taken out with a warning naming StandFit's phrase; its 'water {amount}' and 'log water' stay")
    func strangerLosesTheSentence() {
        let text = ParameterSpec(name: "anything", kind: .string, required: true)
        let amount = ParameterSpec(name: "amount", kind: .int64, required: true)
        var set = Self.set([
            (Self.plugin("zoo"), [Self.action("zoo", ["log twenty squats", "log 20 squats", "log water"])]),
            (Self.plugin("catch"), [Self.action("catch", ["log {anything}", "water {amount}"], parameters: [text, amount])]),
        ])
        set.ownPhrases(language: "en", logger: Self.quiet)
        #expect(Self.phrases(set, "zoo.run") == ["log water"])
        #expect(Self.phrases(set, "catch.run") == ["water {amount}"])
        #expect(Self.phrases(set, "com.standfit.logexercise") == ["log {count} {exercise}"])
        #expect(set.plugins.first { $0.id == "zoo" }?.warnings == [
            "The phrase \"log twenty squats\" of 'zoo.run' is not used: StandFit's phrase \"log {count} {exercise}\" ('com.standfit.logexercise', plugin 'com.standfit') already reads the same sentences, and a sentence belongs to the app that declared it first (bundled, then trusted, then the rest); choose words no other app uses.",
            "The phrase \"log 20 squats\" of 'zoo.run' is not used: StandFit's phrase \"log {count} {exercise}\" ('com.standfit.logexercise', plugin 'com.standfit') already reads the same sentences, and a sentence belongs to the app that declared it first (bundled, then trusted, then the rest); choose words no other app uses.",
        ])
        #expect(set.plugins.first { $0.id == "catch" }?.warnings.count == 1)
        // 'log water' is no exercise StandFit knows: its words are its own.
        #expect(set.plugins.first { $0.id == "com.standfit" }?.warnings == [])
    }

    @Test("between two plugins that are not bundled, the trusted one keeps the sentence wherever it loads; between equals, the one loaded first")
    func trustedThenLoadOrder() {
        var set = Self.set([
            (Self.plugin("early"), [Self.action("early", ["show my water"])]),
            (Self.plugin("late", trusted: true), [Self.action("late", ["show my water"])]),
            (Self.plugin("third"), [Self.action("third", ["show my water", "drink"])]),
        ])
        set.ownPhrases(language: "en", logger: Self.quiet)
        #expect(Self.phrases(set, "late.run") == ["show my water"])
        #expect(Self.phrases(set, "early.run") == [])
        #expect(Self.phrases(set, "third.run") == ["drink"])
        #expect(set.plugins.first { $0.id == "early" }?.warnings.first?.contains("late's phrase \"show my water\" ('late.run', plugin 'late')") == true)
    }

    @Test("one plugin alone never loses its phrases, however they overlap")
    func onePluginAlone() {
        var set = Self.set([])
        set.registry = ActionRegistry([Self.action("solo", ["log {count} {exercise}", "log twenty squats"])])
        set.plugins = [Self.plugin("solo")]
        set.ownPhrases(language: "en", logger: Self.quiet)
        #expect(Self.phrases(set, "solo.run") == ["log {count} {exercise}", "log twenty squats"])
    }

    @Test("a plugin's first 64 phrases are taken, the rest left out with a warning (comparing costs the owners' entity queries on every load); a bundled plugin keeps all its own")
    func phraseLimit() {
        var set = Self.set([(Self.plugin("many"), [Self.action("many", (1...70).map { "water number \($0)" })])])
        set.ownPhrases(language: "en", logger: Self.quiet)
        #expect(Self.phrases(set, "many.run").count == 64)
        #expect(Self.phrases(set, "many.run").last == "water number 64")
        #expect(set.plugins.first { $0.id == "many" }?.warnings == [
            "It declares 70 phrases; the host takes its first 64 and leaves out 6, so keep to 64 (a phrase with placeholders covers many sentences).",
        ])
        var bundled = Self.set([])
        var info = Self.plugin("own")
        info.isBundled = true
        bundled.plugins = [info]
        bundled.registry = ActionRegistry([Self.action("own", (1...70).map { "water number \($0)" })])
        bundled.ownPhrases(language: "en", logger: Self.quiet)
        #expect(Self.phrases(bundled, "own.run").count == 70)
    }
}
