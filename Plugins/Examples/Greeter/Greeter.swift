// Greeter — a standfit-host plugin in Swift, written with the PluginAPI SDK.
//
// Two actions that between them use every parameter kind: String, Int, Double, Bool, optionals
// and defaults. Try:
//
//     standfit-host run com.example.greeter.greet name=Ada times=2 excited=true
//     standfit-host run tip amount=42.50 people=3
import Foundation
import PluginAPI

struct Greet: ShortcutAction {
    static let type = "com.example.greeter.greet"
    static let title = "Greet"
    static let subtitle = "Say hello to someone"
    static let icon = "hand.wave"

    @Parameter(title: "Name") var name: String
    // The host refuses times=9 before perform runs, naming the parameter and the range.
    @Parameter(title: "Times", range: 1...5) var times: Int = 1
    @Parameter(title: "Excited") var excited: Bool = false
    @Parameter(title: "Greeting") var greeting: String?

    func perform(_ context: ActionContext) throws -> ActionResult {
        let line = "\(greeting ?? "Hello"), \(name)\(excited ? "!" : ".")"
        return .handled(Array(repeating: line, count: times).joined(separator: " "))
    }
}

struct Tip: ShortcutAction {
    static let type = "com.example.greeter.tip"
    static let title = "Split the Bill"
    static let icon = "dollarsign.circle"

    @Parameter(title: "Amount") var amount: Double
    @Parameter(title: "Tip %") var percent: Double = 15
    @Parameter(title: "People") var people: Int?

    struct Split: Encodable {
        let total: Double
        let perPerson: Double
        let people: Int
    }

    func perform(_ context: ActionContext) throws -> ActionResult {
        let people = people ?? 1
        // Checks of its own name their parameter, so that --json says which.
        guard amount >= 0 else { return .invalidInput("amount: expected 0 or more, got \(amount)", parameter: "amount") }
        guard people >= 1 else { return .invalidInput("people: expected 1 or more, got \(people)", parameter: "people") }
        // Cents are rounded half away from zero, from amount × (100 + percent), which is exact
        // for amounts in cents and whole percents (42.50 at 15% is 48.88, not 48.87).
        let total = (amount * (100 + percent)).rounded() / 100
        let share = (total / Double(people) * 100).rounded() / 100
        let dialog = people == 1
            ? String(format: "Total with %g%% tip: %.2f", percent, total)
            : String(format: "Total with %g%% tip: %.2f, or %.2f each for %d people", percent, total, share, people)
        return .handled(dialog, data: Split(total: total, perPerson: share, people: people))
    }
}

enum Greeter: Plugin {
    static let id = "com.example.greeter"
    static let name = "Greeter (Swift example)"
    static let version = "1.0.0"
    static let actions: [any ShortcutAction.Type] = [Greet.self, Tip.self]
    static let staticItems = [
        ShortcutItem(type: Greet.type, title: "Greet the World", icon: "globe", userInfo: ["name": "World"]),
    ]
}

@_cdecl("standfit_plugin_entry_v1")
public func standfitPluginEntry() -> UnsafePointer<standfit_plugin_entry>? { export(Greeter.self) }
