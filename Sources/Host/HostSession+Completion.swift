import HostModel

/// What shell completion offers for `run TYPE name=value …`: the types, the parameter names of a
/// type and the values of a parameter.
///
/// Everything here answers from what the session already holds: the registry (from the registry
/// cache, or from the scan helper for a new or changed plugin) and the manifest. No handler or
/// provider is called: completing a type or a parameter name loads no plugin code; only entity
/// values (`exercise=<TAB>`) ask the entity's plugin.
///
/// Each answer is filtered by the `prefix` the user typed, as the shells filter again by the
/// word under the cursor: a candidate that does not start with what was typed is never shown.
extension HostSession {
    /// The types `run` accepts that start with `prefix`: every registered full type (namespace
    /// handlers such as `com.example.*` are not types one can type) and every static item's
    /// type. When `prefix` is not empty and has no dot, also the unique last components that
    /// start with it (`pace` for `com.example.hello.pace`), which `run` resolves to their type;
    /// a last component shared by two types is left out, as `run` would refuse it.
    public func completionTypes(prefix: String) -> [String] {
        let known = dispatcher.knownTypes()
        var candidates = Set(known.filter { $0.hasPrefix(prefix) })
        if !prefix.isEmpty, !prefix.contains(".") {
            let byComponent = Dictionary(grouping: known) { Suggester.lastComponent(of: $0).lowercased() }
            for (_, types) in byComponent where types.count == 1 {
                let component = Suggester.lastComponent(of: types[0])
                if component.hasPrefix(prefix) { candidates.insert(component) }
            }
        }
        return candidates.sorted()
    }

    /// `name=` for each declared parameter of `type` (resolved as `run` resolves it: exact, a
    /// unique last component, a namespace handler, the fallback) that is not in `given` and
    /// starts with `prefix`, in declared order. Empty when `type` does not resolve.
    public func completionParameters(type: String, given: Set<String> = [], prefix: String) -> [String] {
        guard let action = completionAction(for: type) else { return [] }
        return action.parameters
            .filter { !given.contains($0.name) && $0.name.hasPrefix(prefix) }
            .map { "\($0.name)=" }
    }

    /// The values to offer after `parameter=` for `type`, starting with `prefix`, as they are
    /// typed after the `=`: the ids of a fixed choice list (from the registry cache); the
    /// suggested values of an entity (its plugin's suggest query, run where its handlers run);
    /// `true` and `false` for a bool; else the declared default.
    ///
    /// Only entity values run plugin code, and only on TAB after `name=`: a trusted plugin
    /// answers in this process, any other in a worker with the handler deadline. A failing
    /// query offers nothing and prints nothing.
    public func completionValues(type: String, parameter: String, prefix: String) -> [String] {
        guard let action = completionAction(for: type),
              let spec = action.parameters.first(where: { $0.name == parameter }) else {
            return []
        }
        let values: [String]
        switch spec.domain {
        case .choices(let choices)?:
            values = choices.map(\.id)
        case .entity(let id)?:
            values = plugins.entity(id, of: action.pluginID)
                .flatMap { try? plugins.calls.query($0, .suggest, language).get() }?.map(\.id) ?? []
        case nil where spec.kind == .bool:
            values = ["true", "false"]
        case nil:
            values = spec.defaultValue.map { [$0.text] } ?? []
        }
        return values.filter { $0.hasPrefix(prefix) }
    }

    /// The action `run type` would call, found without calling it.
    private func completionAction(for type: String) -> RegisteredAction? {
        guard case .handler(let action, _, _) = dispatcher.resolve(type) else { return nil }
        return action
    }
}
