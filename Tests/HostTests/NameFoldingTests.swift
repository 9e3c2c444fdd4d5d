import PluginAPI
import Testing
@testable import HostModel

/// Plugins match names with the SDK's `EntityValue.matchKey`; the host folds names (choices,
/// entity text, types) with `Suggester.fold`. Two rules would let a name match on one side and
/// not the other, so they are one rule, held together here.
@Suite("Name folding: SDK and host agree")
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
