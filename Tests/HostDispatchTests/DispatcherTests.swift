import Foundation
import HostModel
@_spi(Testing) import HostDispatch
import Testing

/// Fake actions and a fake plugin runtime that records what each was called with; no plugin is
/// loaded.
final class Recorder {
    var calls: [(action: String, invocation: Invocation)] = []
    private var replies: [String: HandlerReply] = [:]

    func action(_ type: String, title: String = "Title", parameters: [ParameterSpec] = [],
                plugin: String = "com.fake", reply: HandlerReply = HandlerReply(status: 0, message: "ok")) -> RegisteredAction {
        replies[type] = reply
        return RegisteredAction(type: type, title: title, parameters: parameters, pluginID: plugin)
    }

    /// The seam, faked: a handler call answers what its action was made with, and is recorded.
    var plugins: PluginCalls {
        var calls = PluginCalls.none
        calls.perform = { action, invocation in
            self.calls.append((action.type, invocation))
            return self.replies[action.type] ?? HandlerReply(status: -1, fault: .verbatim("has no such fake action"))
        }
        return calls
    }
}

@Suite("Dispatcher", .timeLimit(.minutes(10)))
struct DispatcherTests {
    let recorder = Recorder()

    func dispatcher(_ actions: [RegisteredAction], items: [ShortcutItem] = [], fallback: String? = nil,
                    locale: String = "nl") -> Dispatcher {
        Dispatcher(registry: ActionRegistry(actions), items: items, fallbackType: fallback, locale: locale,
                   calls: recorder.plugins)
    }

    @Test("an exact type runs its handler with the requested type and locale")
    func exact() {
        let outcome = dispatcher([recorder.action("com.standfit.logexercise")]).run("com.standfit.logexercise", arguments: [])
        #expect(outcome == Outcome(status: .handled, type: "com.standfit.logexercise", message: "ok", plugin: "com.fake"))
        #expect(recorder.calls.map(\.invocation) == [Invocation(requestedType: "com.standfit.logexercise", locale: "nl")])
    }

    @Test("a unique last component resolves, case-insensitively")
    func lastComponent() {
        let subject = dispatcher([recorder.action("com.standfit.logexercise"), recorder.action("com.standfit.viewstreak")])
        #expect(subject.run("LogExercise", arguments: []).type == "com.standfit.logexercise")
        guard case .handler(_, let type, let route) = subject.resolve("viewstreak") else {
            Issue.record("viewstreak did not resolve")
            return
        }
        #expect(type == "com.standfit.viewstreak")
        #expect(route == .lastComponent)
    }

    @Test("an ambiguous last component lists the candidates")
    func ambiguous() {
        let subject = dispatcher([recorder.action("com.a.open"), recorder.action("com.b.open")], locale: "en")
        let outcome = subject.run("open", arguments: [])
        #expect(outcome == Outcome(
            status: .unknownType, type: "open",
            message: "Shortcut type 'open' is ambiguous: it matches com.a.open, com.b.open; run one of them by its full type.",
            suggestions: ["com.a.open", "com.b.open"]))
        // In the run's language.
        #expect(dispatcher([recorder.action("com.a.open"), recorder.action("com.b.open")]).run("open", arguments: []).message
            == "Type snelle actie 'open' is niet eenduidig: het past bij com.a.open, com.b.open; voer er één uit met het volledige type.")
        #expect(recorder.calls.isEmpty)
    }

    @Test("the longest namespace handler wins and sees the requested type")
    func namespace() {
        let subject = dispatcher([recorder.action("com.example.*"), recorder.action("com.example.docs.*")])
        #expect(subject.run("com.example.docs.readme", arguments: []).status == .handled)
        #expect(subject.run("com.example.other", arguments: []).status == .handled)
        #expect(subject.run("com.examples", arguments: []).status == .unknownType)
        #expect(recorder.calls.map(\.action) == ["com.example.docs.*", "com.example.*"])
        #expect(recorder.calls.map(\.invocation.requestedType) == ["com.example.docs.readme", "com.example.other"])
    }

    @Test("an exact type wins over a namespace that covers it")
    func exactBeforeNamespace() {
        let subject = dispatcher([recorder.action("com.example.*"), recorder.action("com.example.open")])
        _ = subject.run("com.example.open", arguments: [])
        #expect(recorder.calls.map(\.action) == ["com.example.open"])
    }

    @Test("the manifest's fallback type receives unknown types, with its own item's userInfo")
    func fallback() {
        let reason = ParameterSpec(name: "reason", kind: .string, required: true)
        let subject = dispatcher(
            [recorder.action("com.app.help", parameters: [reason])],
            items: [ShortcutItem(type: "com.app.help", title: "Help", userInfo: ["reason": .string("unknown")])],
            fallback: "com.app.help")
        let outcome = subject.run("com.app.missing", arguments: [])
        #expect(outcome.status == .handled)
        #expect(outcome.type == "com.app.missing")
        #expect(outcome.fallback == "com.app.help")
        #expect(recorder.calls.map(\.invocation) == [
            Invocation(requestedType: "com.app.missing", userInfo: ["reason": .string("unknown")],
                       arguments: [.string("unknown")], locale: "nl"),
        ])
        #expect(subject.run("com.app.help", arguments: []).fallback == nil)
    }

    @Test("an unknown type answers with near types and titles")
    func unknownWithSuggestions() {
        let subject = dispatcher(
            [recorder.action("com.standfit.logexercise", title: "Log Exercise"),
             recorder.action("com.standfit.viewstreak", title: "View Streak")],
            items: [ShortcutItem(type: "com.standfit.viewprogress", title: "View Progress")], locale: "en")
        let outcome = subject.run("logexcercise", arguments: [])
        #expect(outcome == Outcome(
            status: .unknownType, type: "logexcercise",
            message: "Unknown shortcut type 'logexcercise'; did you mean com.standfit.logexercise (Log Exercise)?",
            suggestions: ["com.standfit.logexercise"]))
        #expect(subject.run("View Progres", arguments: []).suggestions == ["com.standfit.viewprogress"])
        #expect(subject.run("zzzzzz", arguments: []).message == "Unknown shortcut type 'zzzzzz'; run 'standfit-host list --all' to see the types there are.")
    }

    @Test("a menu item of the app's own prefix runs by its last component with its userInfo, in any case; a short name it shares with the type it runs is not ambiguous")
    func appPrefixedItems() {
        let count = ParameterSpec(name: "count", kind: .int64, required: true)
        let subject = dispatcher(
            [recorder.action("com.standfit.logexercise", parameters: [count]), recorder.action("com.standfit.viewstreak")],
            items: [ShortcutItem(type: "nl.me.StandFit.LogExercise", title: "Twelve", userInfo: ["count": .int(12)]),
                    ShortcutItem(type: "nl.me.StandFit.viewstreak", title: "Streak")], locale: "en")
        #expect(subject.run("nl.me.StandFit.LogExercise", arguments: []).status == .handled)
        #expect(subject.run("NL.ME.STANDFIT.LOGEXERCISE", arguments: []).status == .handled)
        #expect(subject.run("viewstreak", arguments: []).status == .handled)
        #expect(subject.run("com.standfit.VIEWSTREAK", arguments: []).status == .handled)
        #expect(recorder.calls.map(\.action) == ["com.standfit.logexercise", "com.standfit.logexercise", "com.standfit.viewstreak", "com.standfit.viewstreak"])
        #expect(recorder.calls.prefix(2).map(\.invocation.arguments) == [[.int64(12)], [.int64(12)]])
        // Typed, another app's prefix is not guessed at.
        #expect(subject.run("com.other.viewstreak", arguments: []).status == .unknownType)
    }

    @Test("a type the menu lists but no plugin handles says so")
    func listedButUnhandled() {
        let subject = dispatcher([], items: [ShortcutItem(type: "com.app.gone", title: "Gone")], locale: "en")
        #expect(subject.run("gone", arguments: []).message == "No plugin handles shortcut type 'com.app.gone', which the menu lists; install the plugin that provides it or remove the item (see 'standfit-host plugins').")
    }

    @Test("arguments win over userInfo, which wins over defaults")
    func bindingPrecedence() {
        let parameters = [
            ParameterSpec(name: "exercise", kind: .string, required: true),
            ParameterSpec(name: "count", kind: .int64, defaultValue: .int64(10)),
            ParameterSpec(name: "note", kind: .string),
            ParameterSpec(name: "ratio", kind: .double, defaultValue: .double(0.5)),
        ]
        let subject = dispatcher(
            [recorder.action("com.standfit.logexercise", parameters: parameters)],
            items: [ShortcutItem(type: "com.standfit.logexercise", title: "Log Squats",
                                 userInfo: ["exercise": .string("squats"), "count": .int(20), "other": .bool(true)])])
        _ = subject.run("logexercise", arguments: [NamedArgument(name: "count", value: "25")])
        #expect(recorder.calls.first?.invocation.arguments == [.string("squats"), .int64(25), nil, .double(0.5)])
        #expect(recorder.calls.first?.invocation.userInfo["other"] == .bool(true))
    }

    @Test("handler statuses map to outcomes", arguments: [
        (HandlerReply(status: 1, message: "Not today."), Outcome.Status.declined, "Not today."),
        (HandlerReply(status: 1), .declined, "Title declined to run."),
        (HandlerReply(status: 2, message: "count: too many"), .invalidInput, "count: too many"),
        (HandlerReply(status: 3, message: "disk full"), .pluginFailed, "Plugin 'com.fake' failed to run a.b: disk full"),
        (HandlerReply(status: 0), .handled, "Ran Title."),
        (HandlerReply(status: 42, message: "?"), .pluginFailed, "Plugin 'com.fake' returned status 42 from a.b, which is not a STANDFIT_STATUS_* code; report this to the plugin's author."),
        (HandlerReply(status: 0, message: "fine", fault: HostText.Phrase("fault.messageUTF8")), .pluginFailed,
         "Plugin 'com.fake' set a message that is not valid UTF-8 while running a.b; report this to the plugin's author."),
    ])
    func statuses(reply: HandlerReply, status: Outcome.Status, message: String) {
        let outcome = dispatcher([recorder.action("a.b", reply: reply)], locale: "en").run("a.b", arguments: [])
        #expect(outcome.status == status)
        #expect(outcome.message == message)
    }
}

@Suite("Parameter binding and coercion", .timeLimit(.minutes(10)))
struct ParameterBindingTests {
    let binder = ParameterBinder(type: "com.standfit.logexercise", parameters: [
        ParameterSpec(name: "exercise", kind: .string, required: true),
        ParameterSpec(name: "count", kind: .int64, defaultValue: .int64(10)),
        ParameterSpec(name: "strict", kind: .bool),
        ParameterSpec(name: "weight", kind: .double),
    ])

    func failure(_ arguments: [String], userInfo: [String: JSONValue] = [:]) -> ParameterBinder.Failure? {
        guard case .failure(let failure) = binder.bind(arguments: arguments.compactMap(NamedArgument.init(parsing:)), userInfo: userInfo) else {
            return nil
        }
        return failure
    }

    @Test("a wrong value names the parameter, the kind and the value")
    func wrongKind() {
        #expect(failure(["exercise=squats", "count=ten"]) == .init(message: "count: expected an integer, got 'ten'.", parameter: "count"))
        #expect(failure(["exercise=squats", "strict=maybe"])?.message == "strict: expected true or false, got 'maybe'.")
        #expect(failure(["exercise=squats", "weight=heavy"])?.message == "weight: expected a number, got 'heavy'.")
        #expect(failure(["exercise=squats"], userInfo: ["count": .double(2.5)])?.message == "count: expected an integer, got 2.5 from the item's userInfo.")
    }

    @Test("missing required parameters are named with the way to pass them")
    func missing() {
        #expect(failure([]) == .init(message: "Missing required parameter 'exercise' for com.standfit.logexercise; pass exercise=VALUE.", parameter: "exercise"))
    }

    @Test("unknown names get a did-you-mean and the list of parameters")
    func unknownName() {
        #expect(failure(["exercise=squats", "cont=3"])?.message == "Unknown parameter 'cont' for com.standfit.logexercise (did you mean 'count'?); it takes exercise, count, strict, weight.")
        #expect(failure(["exercise=squats", "zzz=3"])?.message == "Unknown parameter 'zzz' for com.standfit.logexercise; it takes exercise, count, strict, weight.")
    }

    @Test("a parameter given twice is refused")
    func twice() {
        #expect(failure(["exercise=a", "exercise=b"])?.message == "Parameter 'exercise' is given twice; pass it once.")
    }

    @Test("text coerces to each kind", arguments: [
        ("true", ParameterKind.bool, ArgumentValue.bool(true)), ("NO", .bool, .bool(false)), ("on", .bool, .bool(true)),
        ("0", .bool, .bool(false)), ("-9223372036854775808", .int64, .int64(.min)), ("+42", .int64, .int64(42)),
        ("1e3", .double, .double(1000)), ("-0.25", .double, .double(-0.25)), ("a=b", .string, .string("a=b")),
        ("", .string, .string("")),
    ])
    func coercesText(text: String, kind: ParameterKind, expected: ArgumentValue) {
        #expect(ArgumentCoercion.coerce(text, to: kind) == expected)
    }

    @Test("text that is not of the kind is refused", arguments: [
        ("yes please", ParameterKind.bool), ("9223372036854775808", .int64), ("1.5", .int64), (" 3", .int64),
        ("nan", .double), ("inf", .double), ("1,5", .double), ("a\u{0}b", .string),
    ])
    func refusesText(text: String, kind: ParameterKind) {
        #expect(ArgumentCoercion.coerce(text, to: kind) == nil)
    }

    @Test("userInfo values coerce to each kind", arguments: [
        (JSONValue.int(1), ParameterKind.bool, ArgumentValue?.some(.bool(true))), (.int(2), .bool, nil),
        (.double(3.0), .int64, .int64(3)), (.double(1e30), .int64, nil), (.int(4), .double, .double(4)),
        (.int(5), .string, .string("5")), (.bool(true), .string, .string("true")), (.array([]), .string, nil),
        (.string("7"), .int64, .int64(7)), (.null, .int64, nil),
    ])
    func coercesJSON(value: JSONValue, kind: ParameterKind, expected: ArgumentValue?) {
        #expect(ArgumentCoercion.coerce(value, to: kind) == expected)
    }

    @Test("name=value parsing keeps '=' in values and refuses a bare word")
    func namedArguments() {
        #expect(NamedArgument(parsing: "note=a=b") == NamedArgument(name: "note", value: "a=b"))
        #expect(NamedArgument(parsing: "squats") == nil)
        #expect(NamedArgument(parsing: "=5") == nil)
        // A mark that joins the "=" into its grapheme still splits there (found by fuzz-coercion).
        #expect(NamedArgument(parsing: "\u{0600}=x,:n'") == NamedArgument(name: "\u{0600}", value: "x,:n'"))
        #expect(NamedArgument(parsing: "count=\u{0304}:1=1") == NamedArgument(name: "count", value: "\u{0304}:1=1"))
    }
}
