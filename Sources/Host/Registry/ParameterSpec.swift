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

    public init(name: String, kind: ParameterKind, required: Bool = false,
                defaultValue: ArgumentValue? = nil, title: String? = nil, prompt: String? = nil,
                domain: ParameterDomain? = nil) {
        self.name = name
        self.kind = kind
        self.required = required
        self.defaultValue = defaultValue
        self.title = title
        self.prompt = prompt
        self.domain = domain
    }
}

extension ArgumentValue {
    /// The value as text that `ArgumentCoercion.coerce(_:to:)` reads back exactly.
    var text: String {
        switch self {
        case .bool(let value): value ? "true" : "false"
        case .int64(let value): String(value)
        case .double(let value): "\(value)"
        case .string(let value): value
        }
    }
}
