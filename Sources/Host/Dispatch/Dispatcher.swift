import HostModel
import HostIntents

/// Finds the handler for a requested type, binds its parameters and runs it.
///
/// Resolution order, first match wins:
/// 1. the exact type;
/// 2. the whole type, case-insensitively (`com.standfit.LogExercise`);
/// 3. a unique last component (`logexercise` → `com.standfit.logexercise`, case-insensitive);
///    two or more matches are ambiguous and answered with the candidates;
/// 4. a namespace handler a plugin registered (`com.example.*`), the longest prefix first;
/// 5. a menu item's full type with another prefix, by its last component
///    (`nl.me.StandFit.viewstreak` → `com.standfit.viewstreak`: an iOS manifest names its items
///    with the app's own bundle prefix, and seed AppCoda's `init?(fullIdentifier:)` reads only
///    the last component), when exactly one registered type or routine has it; a full type
///    typed on the command line that no item has is not guessed at (it gets did-you-mean);
/// 6. the manifest's fallback type, whose handler then receives the original type;
/// 7. the built-in answer: `unknown-type` with did-you-mean suggestions.
///
/// Known types, for steps 1 to 3, are the registered ones, the routines' and those of the
/// menu's items; step 5 counts only what runs without a fallback (registered types, routines).
public struct Dispatcher {
    public var registry: ActionRegistry
    /// The static menu items (the manifest's, the routines', the plugins' defaults), in menu
    /// order: where userInfo and titles come from.
    public var items: [ShortcutItem]
    public var fallbackType: String?
    /// The language handed to handlers.
    public var locale: String
    /// The entity `entityID` of plugin `pluginID`, for parameters that name one.
    public var entity: (_ pluginID: String, _ entityID: String) -> EntityProvider?
    /// The user's routines, checked when they were read.
    public var routines: [Routine]
    /// How the plugins' handlers and entity queries are called.
    public var calls: PluginCalls

    public init(registry: ActionRegistry, items: [ShortcutItem] = [], fallbackType: String? = nil,
                locale: String = "en", entity: @escaping (_ pluginID: String, _ entityID: String) -> EntityProvider? = { _, _ in nil },
                routines: [Routine] = [], calls: PluginCalls) {
        self.registry = registry
        self.items = items
        self.fallbackType = fallbackType
        self.locale = locale
        self.entity = entity
        self.routines = routines
        self.calls = calls
    }

    /// The host's words in the run's language.
    var text: HostText { HostText(language: locale) }

    /// How one run goes beyond its arguments.
    public struct RunOptions {
        /// Who to ask for missing values; nil never asks (`--no-input`, no terminal).
        public var conversation: Conversation?
        /// Resolve the parameters and stop before the handler.
        public var dryRun: Bool
        /// What the arguments are called in `--dry-run` (the words of a phrase, for `say`).
        public var argumentSource: ResolvedParameter.Source
        /// Whether the surface shows the handler's data (`--json`); when it does not, the
        /// handler may skip building it (`standfit.reply/1`).
        public var showsData: Bool
        /// Started by a schedule (`run --scheduled`, a timer's): what it does happens as any
        /// run's, but it teaches no suggestion, since the user did not choose it then.
        public var scheduled: Bool

        public init(conversation: Conversation? = nil, dryRun: Bool = false,
                    argumentSource: ResolvedParameter.Source = .argument, showsData: Bool = true, scheduled: Bool = false) {
            self.conversation = conversation
            self.dryRun = dryRun
            self.argumentSource = argumentSource
            self.showsData = showsData
            self.scheduled = scheduled
        }
    }

    /// How a requested type was matched.
    public enum Route: String, Sendable {
        case exact, lastComponent = "last-component", namespace, fallback
    }

    public enum Resolution {
        /// `type` is the full type asked for; `action` the handler that runs it.
        case handler(RegisteredAction, type: String, route: Route)
        /// A user routine (its type resolved exactly or by its last component).
        case routine(Routine)
        case ambiguous(name: String, candidates: [String])
        case unknown(type: String)
    }

    public func resolve(_ requested: String) -> Resolution {
        let type: String
        var route = Route.exact
        switch fullType(for: requested) {
        case .success(let full):
            type = full
            if full != requested { route = .lastComponent }
        case .failure(let ambiguity):
            return .ambiguous(name: requested, candidates: ambiguity.candidates)
        }
        if let action = registry.action(exactly: type) {
            return .handler(action, type: type, route: route)
        }
        if let routine = routines.first(where: { $0.type == type }) {
            return .routine(routine)
        }
        if let action = registry.namespaceHandler(for: type) {
            return .handler(action, type: type, route: .namespace)
        }
        if let runnable = itemTarget(of: type, among: runnableTypes()) {
            if let action = registry.action(exactly: runnable) {
                return .handler(action, type: runnable, route: .lastComponent)
            }
            if let routine = routines.first(where: { $0.type == runnable }) {
                return .routine(routine)
            }
        }
        if let fallbackType, let action = registry.handler(for: fallbackType) {
            return .handler(action, type: type, route: .fallback)
        }
        return .unknown(type: type)
    }

    /// Resolves, binds and runs `type` with `arguments`. `userInfo` is the chosen item's (a
    /// menu or desktop entry passes it); nil takes the first item of that type in `items`.
    public func run(_ requested: String, arguments: [NamedArgument], userInfo explicit: [String: JSONValue]? = nil,
                    options: RunOptions = RunOptions()) -> Outcome {
        switch resolve(requested) {
        case .ambiguous(let name, let candidates):
            return ambiguousOutcome(name, candidates: candidates)
        case .unknown(let type):
            return unknownOutcome(type)
        case .routine(let routine):
            return run(routine, options: options)
        case .handler(let action, let type, let route):
            // A fallback handler binds from its own item's userInfo, not the unknown type's.
            let itemType = route == .fallback ? (fallbackType ?? type) : type
            // An item of another prefix that resolved by its last component brings its own userInfo.
            let asked = route == .fallback ? nil
                : items.first { $0.type == requested } ?? items.first { $0.type.lowercased() == requested.lowercased() }
            let userInfo = explicit ?? (asked ?? items.first { $0.type == itemType })?.userInfo ?? [:]
            let plugin = action.pluginID
            var resolver = ParameterResolver(
                type: route == .fallback ? action.type : type, parameters: action.parameters,
                entity: { [entity] in entity(plugin, $0) }, query: calls.query, locale: locale,
                conversation: options.conversation,
                argumentSource: options.argumentSource)
            var arguments = arguments
            while true {
                switch resolver.resolve(arguments: arguments, userInfo: userInfo) {
                case .failure(let failure):
                    var outcome = Outcome(status: failure.isPluginFailure ? .pluginFailed : .invalidInput, type: type,
                                          message: failure.message, suggestions: failure.suggestions,
                                          parameter: failure.parameter, plugin: plugin)
                    if failure.needsValue {
                        outcome.needsValue = failure.parameter
                        outcome.question = failure.question
                        outcome.offered = failure.offered
                    }
                    return outcome
                case .success(let resolution):
                    if options.dryRun {
                        var outcome = Outcome(status: .dryRun, type: type,
                                              message: DryRun.describe(type: type, title: action.title, resolution.parameters, language: locale),
                                              plugin: plugin)
                        outcome.resolved = resolution.parameters
                        return outcome
                    }
                    // An action that asks to be confirmed is, where somebody can answer, once it
                    // has every value it asks for (one with a prompt left unset, its handler may
                    // ask for first: "which log?").
                    if action.confirms, let conversation = options.conversation,
                       !action.parameters.contains(where: { spec in
                           spec.prompt != nil && resolution.parameters.contains { $0.name == spec.name && $0.value == nil }
                       }),
                       !confirmed(action, resolution.parameters, conversation: conversation) {
                        return Outcome(status: .declined, type: type, message: text("run.notConfirmed", ["title": action.title]), plugin: plugin)
                    }
                    let reply = calls.perform(action, Invocation(requestedType: type, userInfo: userInfo,
                                                                 arguments: resolution.values, locale: locale,
                                                                 showsData: options.showsData))
                    var outcome = outcome(of: reply, action: action, type: type)
                    outcome.resolved = resolution.parameters
                    if route == .fallback { outcome.fallback = fallbackType }
                    // With nobody to ask at a prompt (a notification, a reminder), an optional value
                    // with a prompt and values to choose from that the handler asked for is a
                    // question, in the handler's words, with the values to offer.
                    if outcome.status == .invalidInput, options.conversation == nil, let refused = outcome.parameter,
                       let declared = action.parameters.first(where: { $0.name == refused }), !declared.required,
                       declared.prompt != nil, declared.domain != nil,
                       resolution.parameters.contains(where: { $0.name == refused && $0.value == nil }),
                       let offered = resolver.offered(for: refused) {
                        outcome.needsValue = refused
                        outcome.question = outcome.message
                        outcome.offered = offered
                        outcome.suggestions = offered.map(\.id)
                        return outcome
                    }
                    // A value answered at a prompt that the handler refused is asked again, with the
                    // refusal as the reason (as the host's own checks are); the others are kept.
                    // (Only one the resolver will ask for again: with no declared default, required
                    // or with a prompt; another would silently take its default, so the refusal
                    // stands.) So is an optional one with a prompt that was not given and that the
                    // handler refused to go on without ("which log?": the refusal lists them).
                    guard outcome.status == .invalidInput, let conversation = options.conversation,
                          let refused = outcome.parameter,
                          let declared = action.parameters.first(where: { $0.name == refused }), declared.defaultValue == nil,
                          declared.required || declared.prompt != nil,
                          resolution.parameters.contains(where: { $0.name == refused && ($0.source == .prompt || !declared.required && $0.value == nil) })
                    else { return outcome }
                    if !declared.required {
                        // Asked already and still without a value (Enter, or the end of input):
                        // the refusal stands rather than the same question again.
                        if resolver.asked.contains(refused),
                           resolution.parameters.contains(where: { $0.name == refused && $0.value == nil }) { return outcome }
                        resolver.asked.insert(refused)
                    }
                    conversation.retry(outcome.message)
                    arguments = resolution.parameters.compactMap { parameter in
                        guard parameter.name != refused, let value = parameter.value,
                              [.argument, .phrase, .prompt].contains(parameter.source) else { return nil }
                        return NamedArgument(name: parameter.name, value: value)
                    }
                }
            }
        }
    }

    /// Asks whether to run `action` with `parameters` ("Delete a Log (id=2): go ahead? [no]");
    /// only a yes in the session's language goes ahead (Enter or the end of input does not).
    private func confirmed(_ action: RegisteredAction, _ parameters: [ResolvedParameter], conversation: Conversation) -> Bool {
        let values = parameters.compactMap { parameter in parameter.value.map { "\(parameter.name)=\($0)" } }
        let question = text(values.isEmpty ? "run.confirm" : "run.confirm.values",
                            ["title": action.title, "values": values.joined(separator: ", ")])
        guard let answer = conversation.ask(question, options: [], defaultAnswer: text("run.confirm.no")) else { return false }
        let yes = text("run.confirm.yesWords").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return yes.contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    private struct Ambiguity: Error {
        var candidates: [String]
    }

    private func fullType(for requested: String) -> Result<String, Ambiguity> {
        // The common case, a registered full type, needs no list of every known type.
        if let action = registry.action(exactly: requested), !action.isNamespace { return .success(requested) }
        let known = knownTypes()
        if known.contains(requested) { return .success(requested) }
        let wanted = requested.lowercased()
        let runnable = runnableTypes()
        // A menu item of another prefix is the type it runs (step 5): `viewstreak` with an item
        // nl.me.StandFit.viewstreak and the action com.standfit.viewstreak names one thing.
        let target = { (type: String) in runnable.contains(type) ? type : self.itemTarget(of: type, among: runnable) ?? type }
        for fold in [{ (type: String) in type.lowercased() }, { Suggester.lastComponent(of: $0).lowercased() }] {
            let matches = known.filter { fold($0) == wanted }
            switch Set(matches.map(target)).count {
            case 0: continue
            case 1: return .success(matches.first(where: runnable.contains) ?? matches[0])
            default: return .failure(Ambiguity(candidates: matches.sorted()))
            }
        }
        return .success(requested)
    }

    /// What a menu item of another prefix runs (step 5): the one type of `runnable` with its
    /// last component; nil for a type no item has.
    private func itemTarget(of type: String, among runnable: [String]) -> String? {
        items.contains { $0.type == type } ? Dispatcher.byLastComponent(of: type, among: runnable) : nil
    }

    /// The types that run without a fallback: registered ones (not namespaces) and routines.
    private func runnableTypes() -> [String] {
        Dispatcher.runnableTypes(registry: registry, routines: routines)
    }

    /// Registered full types, routine types and item types, without duplicates, in a stable order.
    package func knownTypes() -> [String] {
        var seen = Set<String>()
        return (registry.actions.filter { !$0.isNamespace }.map(\.type) + routines.map(\.type) + items.map(\.type))
            .filter { seen.insert($0).inserted }
    }

    /// Runs a routine's steps in order, stopping at the first that is not handled unless it
    /// says to continue.
    private func run(_ routine: Routine, options: RunOptions) -> Outcome {
        var steps: [Outcome] = []
        var skipped: [Int] = []
        // A step's values are the routine file's, whatever brought the routine (a phrase).
        var stepOptions = options
        stepOptions.argumentSource = .argument
        for (index, step) in routine.steps.enumerated() {
            let outcome = run(step.type, arguments: step.arguments, options: stepOptions)
            steps.append(outcome)
            let ok = outcome.status == .handled || outcome.status == .dryRun
            if ok { continue }
            if step.continueOnFailure {
                skipped.append(index + 1)
                continue
            }
            var stopped = Outcome(status: outcome.status, type: routine.type,
                                  message: text("routine.stopped", ["title": routine.title, "index": "\(index + 1)", "count": "\(routine.steps.count)",
                                                                    "type": outcome.type, "message": outcome.message]),
                                  suggestions: outcome.suggestions, parameter: outcome.parameter, plugin: outcome.plugin)
            stopped.needsValue = outcome.needsValue
            stopped.steps = steps
            return stopped
        }
        let count = routine.steps.count
        let key = (options.dryRun ? "routine.wouldRun" : "routine.ran") + (count == 1 ? ".one" : ".many")
        var message = text(key, ["title": routine.title, "count": "\(count)"])
        if !skipped.isEmpty {
            message += text(skipped.count == 1 ? "routine.skipped.one" : "routine.skipped.many",
                            ["steps": text.list(skipped.map(String.init))])
        }
        var outcome = Outcome(status: options.dryRun ? .dryRun : .handled, type: routine.type, message: message + ".")
        outcome.steps = steps
        return outcome
    }
}
