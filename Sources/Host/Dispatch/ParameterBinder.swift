/// Binds an action's declared parameters, in order: `name=value` arguments (which win), then
/// the item's userInfo, then declared defaults. Values are coerced to the declared kind.
public struct ParameterBinder: Sendable {
    public var type: String
    public var parameters: [ParameterSpec]

    public init(type: String, parameters: [ParameterSpec]) {
        self.type = type
        self.parameters = parameters
    }

    /// Why binding failed: one sentence, and the parameter it is about.
    public struct Failure: Error, Equatable, Sendable {
        public var message: String
        public var parameter: String?

        public init(message: String, parameter: String?) {
            self.message = message
            self.parameter = parameter
        }
    }

    public func bind(arguments: [NamedArgument], userInfo: [String: JSONValue]) -> Result<[ArgumentValue?], Failure> {
        let declared = Set(parameters.map(\.name))
        var given: [String: String] = [:]
        for argument in arguments {
            guard declared.contains(argument.name) else { return .failure(unknown(argument.name)) }
            guard given[argument.name] == nil else {
                return .failure(Failure(message: "Parameter '\(argument.name)' is given twice; pass it once.", parameter: argument.name))
            }
            given[argument.name] = argument.value
        }
        var values: [ArgumentValue?] = []
        var missing: [String] = []
        for parameter in parameters {
            if let text = given[parameter.name] {
                guard let value = ArgumentCoercion.coerce(text, to: parameter.kind) else {
                    return .failure(Failure(message: "\(parameter.name): expected \(ArgumentCoercion.expectation(of: parameter.kind)), got \"\(text)\"", parameter: parameter.name))
                }
                values.append(value)
            } else if let json = userInfo[parameter.name] {
                guard let value = ArgumentCoercion.coerce(json, to: parameter.kind) else {
                    return .failure(Failure(message: "\(parameter.name): expected \(ArgumentCoercion.expectation(of: parameter.kind)), got \(json.jsonText) from the item's userInfo", parameter: parameter.name))
                }
                values.append(value)
            } else if let value = parameter.defaultValue {
                values.append(value)
            } else {
                if parameter.required { missing.append(parameter.name) }
                values.append(nil)
            }
        }
        guard missing.isEmpty else {
            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
            let usage = missing.map { "\($0)=VALUE" }.joined(separator: " ")
            let noun = missing.count == 1 ? "parameter" : "parameters"
            return .failure(Failure(message: "Missing required \(noun) \(names) for \(type); pass \(usage).", parameter: missing[0]))
        }
        return .success(values)
    }

    private func unknown(_ name: String) -> Failure {
        guard !parameters.isEmpty else {
            return Failure(message: "\(type) takes no parameters; remove '\(name)=…'.", parameter: name)
        }
        let names = parameters.map(\.name)
        let near = names.min { Suggester.distance(name, $0, containsBonus: false) < Suggester.distance(name, $1, containsBonus: false) }
        let hint = near.flatMap { Suggester.distance(name, $0, containsBonus: false) <= 2 ? " (did you mean '\($0)'?)" : nil } ?? ""
        return Failure(message: "Unknown parameter '\(name)' for \(type)\(hint); it takes \(names.joined(separator: ", ")).", parameter: name)
    }
}

/// A `name=value` argument from the command line.
public struct NamedArgument: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Parses `name=value` (the value may contain `=`); nil when there is no `=` or no name.
    public init?(parsing text: String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
        name = String(text[..<equals])
        value = String(text[text.index(after: equals)...])
    }
}
