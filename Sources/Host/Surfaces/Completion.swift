/// What shell completion offers for `run TYPE name=value …`: the types, the parameter names of a
/// type and the values of a parameter.
///
/// Everything here answers from what the session already holds: the registry (from the registry
/// cache, or from the scan helper for a new or changed plugin) and the manifest. No handler or
/// provider is called, so completing a command line loads no plugin code in the host.
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
        let known = completionKnownTypes
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
    /// typed after the `=`.
    ///
    /// Today: `true` and `false` for a bool parameter; the declared default for any other
    /// parameter that has one; nothing else.
    ///
    /// This is the one seam for parameter values. Parameters whose values a plugin provides
    /// through a query (entities: suggestions with ids) are to be answered here as well, so
    /// that `run TYPE name=<TAB>` offers them in every shell without the executable changing.
    /// Whatever is added must keep this function's promises: it is called on every TAB, so it
    /// answers quickly, prints nothing, never prompts, and loads no plugin code in the host
    /// (a helper process with a deadline, as for handlers, is acceptable; a stored answer is
    /// better).
    public func completionValues(type: String, parameter: String, prefix: String) -> [String] {
        guard let spec = completionAction(for: type)?.parameters.first(where: { $0.name == parameter }) else {
            return []
        }
        let values: [String]
        if spec.kind == .bool {
            values = ["true", "false"]
        } else if let value = spec.defaultValue {
            values = [value.text]
        } else {
            values = []
        }
        return values.filter { $0.hasPrefix(prefix) }
    }

    /// The registered full types and the static items' types, once each.
    private var completionKnownTypes: [String] {
        var seen = Set<String>()
        return (plugins.registry.actions.filter { !$0.isNamespace }.map(\.type) + staticItems.map(\.type))
            .filter { seen.insert($0).inserted }
    }

    /// The action `run type` would call, found without calling it.
    private func completionAction(for type: String) -> RegisteredAction? {
        let dispatcher = Dispatcher(registry: plugins.registry, items: staticItems,
                                    fallbackType: manifest.fallbackType, locale: language)
        guard case .handler(let action, _, _) = dispatcher.resolve(type) else { return nil }
        return action
    }
}
