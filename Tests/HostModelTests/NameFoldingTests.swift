import PluginAPI
import Testing
@testable import HostModel

/// Plugins match names with the SDK's `EntityValue.matchKey`; the host folds names (choices,
/// entity text, types) with `Suggester.fold`. Two rules would let a name match on one side and
/// not the other, so they are one rule, held together here.
@Suite("Name folding: SDK and host agree", .timeLimit(.minutes(10)))
struct NameFoldingTests {
    static let names = [
        "Push-Ups", "push ups", "pushups", "PUSH_UPS", "Log Exercise", "log-exercise", "com.standfit.LogExercise",
        "opdrukken", "Café", "cafe\u{301}", "Straße", "İstanbul", "Ωmega", "½ marathon", "x²", "٣ laps", "wall sit 60",
        "emoji 💪 squats", "tab\there", "", " ", "---", "ＦＵＬＬ ｗｉｄｔｈ", "日本語", "naïve", "ǅemal",
    ]

    @Test("every name folds to the same key on both sides", arguments: names)
    func agree(_ name: String) {
        #expect(Suggester.fold(name) == EntityValue.matchKey(name))
    }
}

/// Which types and parameter names the host takes: ASCII letters, digits, `_` (and `-` and dots
/// in types, with an optional `.*` for a namespace), nothing else.
@Suite("Type and parameter names", .timeLimit(.minutes(10)))
struct NameRuleTests {
    @Test("types", arguments: [
        ("com.example.open", true), ("com.example.*", true), ("a", true), ("a-b_c.d9", true),
        ("", false), ("*", false), (".*", false), ("com..x", false), ("com.", false), (".com", false),
        ("com.*.x", false), ("com.example.**", false), ("com.ex ample", false), ("com.exämple", false),
        ("com.x\n$(touch)", false), ("com.x/y", false),
    ])
    func types(_ type: String, _ valid: Bool) {
        #expect(TypeName.isValid(type) == valid)
    }

    @Test("parameter names", arguments: [
        ("count", true), ("_x", true), ("a1_b2", true), ("C", true),
        ("", false), ("1a", false), ("is-cold", false), ("naïve", false), ("a b", false), ("a.b", false),
    ])
    func parameters(_ name: String, _ valid: Bool) {
        #expect(ParameterName.isValid(name) == valid)
    }
}
