import Foundation
import Testing
@testable import HostModel
@testable import HostDispatch

/// The after-run policy, driven through the dispatcher with the fake plugin runtime: no plugin
/// is loaded, and every hook records what it was asked.
@Suite("After a run: donations, refresh, desktop", .timeLimit(.minutes(10)))
struct AfterRunTests {
    /// The hooks, recording.
    final class Hooks {
        var donations: [Donation] = []
        var scheduled: [Donation] = []
        var withdrawals: [(plugin: String, effects: [String])] = []
        var refreshed: [[String]] = []
        var rewrites = 0
        var installed = false
        var refreshChanges = true

        var afterRun: AfterRun {
            AfterRun(donate: { self.donations.append($0) },
                     withdraw: { self.withdrawals.append(($0, $1)) },
                     refresh: { self.refreshed.append($0); return self.refreshChanges },
                     desktopInstalled: { self.installed },
                     rewriteDesktop: { self.rewrites += 1 },
                     recordScheduled: { self.scheduled.append($0) })
        }
    }

    let recorder = Recorder()
    let hooks = Hooks()
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let count = ParameterSpec(name: "count", kind: .int64, required: true)

    /// Runs `type` through a dispatcher over the fake runtime, then the policy.
    func run(_ type: String, _ arguments: [String] = [], dryRun: Bool = false, actions: [RegisteredAction]) -> Outcome {
        let dispatcher = Dispatcher(registry: ActionRegistry(actions), locale: "en", calls: recorder.plugins)
        let outcome = dispatcher.run(type, arguments: arguments.compactMap(NamedArgument.init(parsing:)),
                                     options: Dispatcher.RunOptions(dryRun: dryRun))
        hooks.afterRun.apply(to: outcome, at: now)
        return outcome
    }

    @Test("a handled run is donated with its values, and its plugin's provider is asked again")
    func handled() {
        let log = recorder.action("com.fake.log", parameters: [count], plugin: "com.fake")
        #expect(run("com.fake.log", ["count=3"], actions: [log]).status == .handled)
        #expect(hooks.donations == [Donation(type: "com.fake.log", parameters: ["count": "3"], titles: [:], date: now, plugin: "com.fake")])
        #expect(hooks.refreshed == [["com.fake"]])
    }

    @Test("a scheduled run is no donation: it is recorded as scheduled, and its provider is asked again")
    func scheduled() {
        let log = recorder.action("com.fake.log", parameters: [count], plugin: "com.fake")
        let dispatcher = Dispatcher(registry: ActionRegistry([log]), locale: "en", calls: recorder.plugins)
        let outcome = dispatcher.run("com.fake.log", arguments: [NamedArgument(name: "count", value: "3")])
        hooks.afterRun.apply(to: outcome, at: now, scheduled: true)
        #expect(hooks.donations == [])
        #expect(hooks.scheduled == [Donation(type: "com.fake.log", parameters: ["count": "3"], titles: [:], date: now, plugin: "com.fake")])
        #expect(hooks.refreshed == [["com.fake"]])
    }

    @Test("a run of an unknown type that the manifest's fallback handled is not donated, and its plugin's provider is asked again")
    func fallbackIsNoHabit() {
        let help = recorder.action("com.fake.help", plugin: "com.fake")
        let dispatcher = Dispatcher(registry: ActionRegistry([help]), fallbackType: "com.fake.help", locale: "en", calls: recorder.plugins)
        let outcome = dispatcher.run("com.fake.typo", arguments: [])
        hooks.afterRun.apply(to: outcome, at: now)
        #expect(outcome.status == .handled && outcome.fallback == "com.fake.help")
        #expect(hooks.donations == [])
        #expect(hooks.refreshed == [["com.fake"]])
    }

    @Test("a handled run's donation carries the name its plugin gave it; a handled run that undid others withdraws them first, a declined one nothing")
    func withdrawals() {
        let log = recorder.action("com.fake.log", plugin: "com.fake", reply: HandlerReply(status: 0, message: "logged", donationID: "log/7"))
        let undo = recorder.action("com.fake.undo", plugin: "com.fake",
                                   reply: HandlerReply(status: 0, message: "undone", donationID: "undo/7", withdrawnDonations: ["log/7", "log/6"]))
        let refused = recorder.action("com.fake.refused", plugin: "com.fake",
                                      reply: HandlerReply(status: 1, message: "nothing to undo", withdrawnDonations: ["log/5"]))
        _ = run("com.fake.log", actions: [log, undo, refused])
        #expect(hooks.donations.map(\.effect) == ["log/7"])
        #expect(hooks.donations.map(\.plugin) == ["com.fake"])
        _ = run("com.fake.undo", actions: [log, undo, refused])
        #expect(hooks.withdrawals.map(\.plugin) == ["com.fake"])
        #expect(hooks.withdrawals.map(\.effects) == [["log/7", "log/6"]])
        #expect(hooks.donations.map(\.effect) == ["log/7", "undo/7"])
        _ = run("com.fake.refused", actions: [log, undo, refused])
        #expect(hooks.withdrawals.count == 1)
        #expect(hooks.donations.count == 2)
        let records = AfterRun.records(of: run("com.fake.undo", actions: [log, undo, refused]), at: now)
        #expect(records.first == .withdraw(pluginID: "com.fake", effects: ["log/7", "log/6"]))
    }

    @Test("a routine is donated once, as the routine; what a step undid is withdrawn all the same")
    func routineRecords() {
        var logged = Outcome(status: .handled, type: "com.fake.log", message: "logged", plugin: "com.fake")
        logged.donationID = "log/1"
        var undone = Outcome(status: .handled, type: "com.fake.undo", message: "undone", plugin: "com.fake")
        undone.withdrawnDonations = ["log/1"]
        var failed = Outcome(status: .declined, type: "com.fake.undo", message: "nothing", plugin: "com.fake")
        failed.withdrawnDonations = ["log/0"]
        var routine = Outcome(status: .handled, type: "user.fix", message: "ran 3 steps")
        routine.steps = [logged, undone, failed]
        #expect(AfterRun.records(of: routine, at: now) == [
            .withdraw(pluginID: "com.fake", effects: ["log/1"]),
            .donate(Donation(type: "user.fix", parameters: [:], date: now)),
        ])
    }

    @Test("declined, failed, invalid, unknown and dry runs donate nothing and refresh nothing",
          arguments: ["declined", "failed", "faulted", "invalid", "unknown", "dry"])
    func notHandled(_ kind: String) {
        let actions = [
            recorder.action("com.fake.declined", reply: HandlerReply(status: 1, message: "no")),
            recorder.action("com.fake.failed", reply: HandlerReply(status: 3, message: "broke")),
            recorder.action("com.fake.faulted", reply: HandlerReply(status: -1, fault: .verbatim("crashed with SIGSEGV"))),
            recorder.action("com.fake.invalid", parameters: [count]),
            recorder.action("com.fake.dry", parameters: [count]),
        ]
        let outcome = run("com.fake.\(kind)", kind == "dry" ? ["count=2"] : [], dryRun: kind == "dry", actions: actions)
        let expected: [String: Outcome.Status] = ["declined": .declined, "failed": .pluginFailed, "faulted": .pluginFailed,
                                                  "invalid": .invalidInput, "unknown": .unknownType, "dry": .dryRun]
        #expect(outcome.status == expected[kind])
        #expect(hooks.donations.isEmpty)
        #expect(hooks.refreshed.isEmpty)
        #expect(hooks.rewrites == 0)
        // The dry run reached no handler either.
        if kind == "dry" { #expect(recorder.calls.isEmpty) }
    }

    @Test("an installed desktop file is rewritten when a refresh changed the items, and only then")
    func desktop() {
        let log = recorder.action("com.fake.log", plugin: "com.fake")
        _ = run("com.fake.log", actions: [log])
        #expect(hooks.rewrites == 0)   // nothing installed
        hooks.installed = true
        _ = run("com.fake.log", actions: [log])
        #expect(hooks.rewrites == 1)
        hooks.refreshChanges = false
        _ = run("com.fake.log", actions: [log])
        #expect(hooks.rewrites == 1)   // the items did not change
        hooks.afterRun.itemsChanged()  // `dynamic set` and `refresh` say so themselves
        #expect(hooks.rewrites == 2)
    }

    @Test("a routine donates itself once (not its steps) and refreshes each plugin that handled a step once, in order")
    func routineSteps() {
        func step(_ type: String, _ status: Outcome.Status, _ plugin: String) -> Outcome {
            Outcome(status: status, type: type, message: "", plugin: plugin)
        }
        var routine = Outcome(status: .handled, type: "user.morning", message: "ran 3 steps.")
        routine.steps = [step("a.one", .handled, "p"), step("a.two", .declined, "q"), step("b.one", .handled, "r"),
                         step("a.three", .handled, "p")]
        hooks.afterRun.apply(to: routine, at: now)
        #expect(hooks.donations.map(\.type) == ["user.morning"])
        #expect(hooks.refreshed == [["p", "r"]])
    }
}
