/// The closed set of parameter kinds of ABI 1, and how each is passed to a C handler.
public enum ParameterKind: Int32, Sendable, CaseIterable {
    case bool = 1    // bool
    case int64 = 2   // int64_t
    case double = 3  // double
    case string = 4  // const char *

    /// The kind as users read it in messages and `plugins` output.
    public var name: String {
        switch self {
        case .bool: "bool"
        case .int64: "int"
        case .double: "double"
        case .string: "string"
        }
    }
}

/// A parameter value, coerced to its declared kind, ready to pass to a handler.
public enum ArgumentValue: Hashable, Sendable {
    case bool(Bool)
    case int64(Int64)
    case double(Double)
    case string(String)

    public var kind: ParameterKind {
        switch self {
        case .bool: .bool
        case .int64: .int64
        case .double: .double
        case .string: .string
        }
    }

}

/// One declared parameter of a registered action.
public struct ParameterSpec: Hashable, Sendable {
    public var name: String
    public var kind: ParameterKind
    public var required: Bool
    public var defaultValue: ArgumentValue?
    public var title: String?
    /// The question asked on a terminal when it has no value ("How many?").
    public var prompt: String?
    /// Where its values come from when it names a thing (an entity or fixed choices).
    public var domain: ParameterDomain?
    /// The values an int or double parameter may take (`standfit.parameter-checks/1`); the host
    /// refuses any other before the handler runs.
    public var range: ClosedRange<Double>?
    /// False when its value is never suggestion material (`STANDFIT_PARAM_TRAIT_NOT_SUGGESTIBLE`):
    /// a run's donation leaves it out.
    public var suggestible = true

    public init(name: String, kind: ParameterKind, required: Bool = false,
                defaultValue: ArgumentValue? = nil, title: String? = nil, prompt: String? = nil,
                domain: ParameterDomain? = nil, range: ClosedRange<Double>? = nil) {
        self.name = name
        self.kind = kind
        self.required = required
        self.defaultValue = defaultValue
        self.title = title
        self.prompt = prompt
        self.domain = domain
        self.range = range
    }

    /// A number this parameter takes, as text, for saying a phrase as an example: `preferred`
    /// when its range (if any) holds it, else the range's lowest whole number.
    public func sampleNumber(preferring preferred: Int) -> String {
        guard let range, !range.contains(Double(preferred)) else { return "\(preferred)" }
        let low = range.lowerBound.rounded(.up)
        return (-1e15...1e15).contains(low) ? String(Int(low)) : "\(preferred)"
    }

    /// Whether `value` is one this parameter takes: inside its range, when it has one.
    public func admits(_ value: ArgumentValue) -> Bool {
        guard let range else { return true }
        switch value {
        case .int64(let number): return range.contains(Double(number))
        case .double(let number): return range.contains(number)
        case .bool, .string: return true
        }
    }
}

extension ClosedRange<Double> {
    /// A bound as people write it: 1, 2.5, -0.25.
    package static func text(_ bound: Double) -> String {
        bound == bound.rounded() && abs(bound) < 1e15 ? String(Int64(bound)) : "\(bound)"
    }
}

extension ArgumentValue {
    /// The value as text that `ArgumentCoercion.coerce(_:to:)` reads back exactly.
    package var text: String {
        switch self {
        case .bool(let value): value ? "true" : "false"
        case .int64(let value): String(value)
        case .double(let value): "\(value)"
        case .string(let value): value
        }
    }
}

/// Kept in the registry cache, and sent between the scan helper and the host.
extension ParameterSpec: Codable {
    private enum CodingKeys: String, CodingKey { case name, kind, required, defaultValue, title, prompt, domain, range, suggestible }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        let raw = try container.decode(Int32.self, forKey: .kind)
        guard let kind = ParameterKind(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown kind \(raw)")
        }
        self.kind = kind
        required = try container.decode(Bool.self, forKey: .required)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        defaultValue = try container.decodeIfPresent(String.self, forKey: .defaultValue)
            .flatMap { ArgumentCoercion.coerce($0, to: kind) }
        prompt = try container.decodeIfPresent(String.self, forKey: .prompt)
        domain = try container.decodeIfPresent(ParameterDomain.self, forKey: .domain)
        if let bounds = try container.decodeIfPresent([Double].self, forKey: .range), bounds.count == 2, bounds[0] <= bounds[1] {
            range = bounds[0]...bounds[1]
        }
        suggestible = try container.decodeIfPresent(Bool.self, forKey: .suggestible) ?? true
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encode(required, forKey: .required)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(defaultValue?.text, forKey: .defaultValue)
        try container.encodeIfPresent(prompt, forKey: .prompt)
        try container.encodeIfPresent(domain, forKey: .domain)
        try container.encodeIfPresent(range.map { [$0.lowerBound, $0.upperBound] }, forKey: .range)
        if !suggestible { try container.encode(false, forKey: .suggestible) }
    }
}
