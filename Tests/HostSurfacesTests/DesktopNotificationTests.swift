import HostModel
import HostSurfaces
import Testing

/// How an outcome and the picker become a notification (the bus itself is DesktopBusTests').
@Suite("Desktop notification", .timeLimit(.minutes(10)))
struct DesktopNotificationTests {
    let squats = EntityValue(id: "squats", title: "Squats"), pushups = EntityValue(id: "pushups", title: "Push-Ups")
    let plank = EntityValue(id: "plank", title: "Plank"), lunges = EntityValue(id: "lunges", title: "Lunges")

    func missing(offered: [EntityValue]) -> Outcome {
        var outcome = Outcome(status: .invalidInput, type: "com.standfit.logexercise",
                              message: "Missing required parameter 'exercise' for com.standfit.logexercise; pass exercise=VALUE.",
                              suggestions: offered.map(\.id), parameter: "exercise")
        outcome.needsValue = "exercise"
        outcome.question = "Which exercise?"
        outcome.offered = offered
        return outcome
    }

    @Test("done, declined and dry runs: the title over the message, normal urgency, the item's theme icon")
    func done() {
        for status in [Outcome.Status.handled, .declined, .dryRun] {
            let outcome = Outcome(status: status, type: "com.standfit.logexercise", message: "Logged 20 squats")
            #expect(DesktopNotification.outcome(outcome, title: "Log Exercise", icon: "UIApplicationShortcutIconTypeAdd", buttons: 3)
                == DesktopNotification(summary: "Log Exercise", body: "Logged 20 squats", icon: "list-add"))
        }
    }

    @Test("failures are of normal urgency and marked as failures (each takes the place of the one before); an unknown icon gets the application's")
    func failures() {
        for status in [Outcome.Status.invalidInput, .unknownType, .pluginFailed] {
            let outcome = Outcome(status: status, type: "t", message: "It went wrong; do this.")
            #expect(DesktopNotification.outcome(outcome, title: "T", icon: "no.such.symbol", buttons: 3)
                == DesktopNotification.failure(title: "T", message: "It went wrong; do this.", icon: DesktopEntry.fallbackIcon))
            #expect(DesktopNotification.outcome(outcome, title: "T", icon: nil, buttons: 3).urgency == .normal)
        }
    }

    @Test("a missing value: the question, and at most as many buttons as allowed, in the offered order")
    func missingValue() {
        let outcome = missing(offered: [plank, pushups, squats, lunges])
        var asking = DesktopNotification(summary: "Log Exercise", body: "Which exercise?", icon: DesktopEntry.fallbackIcon, buttons: [
            .init(key: "plank", label: "Plank"), .init(key: "pushups", label: "Push-Ups"), .init(key: "squats", label: "Squats"),
        ])
        asking.answered = "Dit is al beantwoord, en de eerste keuze is uitgevoerd; start de actie opnieuw om opnieuw te kiezen."
        // Where the server takes a typed reply: its field, with the first value as the example.
        asking.reply = "Of typ het, zoals 'plank'"
        asking.replyLabel = "Antwoorden"
        // Closed without an answer, it says so.
        asking.unanswered = "Niet uitgevoerd: geen antwoord."
        #expect(DesktopNotification.outcome(outcome, title: "Log Exercise", icon: nil, buttons: 3, language: "nl") == asking)
        #expect(DesktopNotification.outcome(outcome, title: "Log Exercise", icon: nil, buttons: 0).body
            == "Which exercise? Plank, Push-Ups, Squats, Lunges")
        // Nothing to offer: a failure like any other.
        #expect(DesktopNotification.outcome(missing(offered: []), title: "Log Exercise", icon: nil, buttons: 3).isFailure)
    }

    @Test("a picker with more actions than buttons pages, its last button showing the rest, so every action can be chosen (issue 33); without buttons it says how to run one")
    func pickerPages() {
        let actions: [(key: String, item: ShortcutItem)] = ["a", "b", "c", "d", "e"].map { ($0, ShortcutItem(type: $0, title: $0.uppercased())) }
        let pages = (0...2).map { DesktopNotification.picker(actions: actions, applicationName: "StandFit", icon: nil, language: "en", buttons: 3, page: $0) }
        #expect(pages.map { $0.buttons.map(\.key) } == [["a", "b", "standfit-more:1"], ["c", "d", "standfit-more:2"], ["e"]])
        #expect(pages.map { $0.buttons.map(\.label) } == [["A", "B", "More (3)…"], ["C", "D", "More (1)…"], ["E"]])
        // As many actions as buttons: no page of more.
        #expect(DesktopNotification.picker(actions: Array(actions.prefix(3)), applicationName: "StandFit", icon: nil, language: "nl", buttons: 3)
            .buttons.map(\.key) == ["a", "b", "c"])
        #expect(DesktopNotification.picker(actions: actions, applicationName: "StandFit", icon: nil, language: "en", buttons: 0).body
            == "Choose a quick action. A, B, C, D, E. This notification server shows no buttons: run one from the app's menu in your launcher or dock, or with 'standfit-host menu' in a terminal.")
    }

    @Test("the picker names actions as the desktop file does, in English and Dutch; none says so")
    func picker() {
        let actions: [(key: String, item: ShortcutItem)] = [
            ("a", ShortcutItem(type: "a", title: "Log Exercise")), ("b", ShortcutItem(type: "b", title: "View Streak", subtitle: "3 days")),
        ]
        var picker = DesktopNotification(summary: "StandFit", body: "Choose a quick action.", icon: DesktopEntry.fallbackIcon,
                                         buttons: [.init(key: "a", label: "Log Exercise"), .init(key: "b", label: "View Streak — 3 days")])
        picker.answered = "This was answered already, and the first choice ran; start the action again to choose again."
        picker.reply = "Or type what to do"
        picker.unanswered = "Not run: no answer."
        #expect(DesktopNotification.picker(actions: actions, applicationName: "StandFit", icon: nil, language: "en", buttons: 3) == picker)
        #expect(DesktopNotification.picker(actions: actions, applicationName: "StandFit", icon: nil, language: "nl", buttons: 3,
                                           example: "toon mijn reeks").reply == "Of typ wat je wilt doen, zoals 'toon mijn reeks'")
        #expect(DesktopNotification.picker(actions: actions, applicationName: "StandFit", icon: nil, language: "nl_NL", buttons: 0).body
            == "Kies een snelle actie. Log Exercise, View Streak — 3 days. Deze meldingenserver toont geen knoppen: voer er een uit via het menu van de app in je starter of dock, of met 'standfit-host menu' in een terminal.")
        #expect(DesktopNotification.picker(actions: [], applicationName: "StandFit", icon: nil, language: "nl", buttons: 3).body
            == "Er zijn geen snelle acties.")
    }
}
