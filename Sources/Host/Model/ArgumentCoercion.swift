/// Turns text from the command line, userInfo values and declared defaults into values of a
/// parameter's kind, the same way everywhere.
public enum ArgumentCoercion {
    /// Command-line or default text as `kind`; nil when it is not one.
    /// `text` as the JSON value of a parameter of `kind` (`--json`): a number or a boolean as
    /// such, anything else (and text that is not of its kind) as text.
    public static func json(_ text: String, as kind: ParameterKind) -> JSONValue {
        switch coerce(text, to: kind) {
        case .bool(let flag)?: .bool(flag)
        case .int64(let number)?: .int(number)
        case .double(let number)?: .double(number)
        case .string, nil: .string(text)
        }
    }

    public static func coerce(_ text: String, to kind: ParameterKind) -> ArgumentValue? {
        switch kind {
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "on", "1": return .bool(true)
            case "false", "no", "off", "0": return .bool(false)
            default: return nil
            }
        case .int64:
            return Int64(text).map(ArgumentValue.int64)
        case .double:
            guard let value = Double(text), value.isFinite else { return nil }
            return .double(value)
        case .string:
            return text.utf8.contains(0) ? nil : .string(text)
        }
    }

    /// A userInfo value as `kind`; nil when it is not one.
    public static func coerce(_ value: JSONValue, to kind: ParameterKind) -> ArgumentValue? {
        switch (value, kind) {
        case (.string(let text), _): return coerce(text, to: kind)
        case (.bool(let flag), .bool): return .bool(flag)
        case (.int(let number), .bool) where number == 0 || number == 1: return .bool(number == 1)
        case (.int(let number), .int64): return .int64(number)
        case (.double(let number), .int64):
            guard number.rounded() == number, let exact = Int64(exactly: number) else { return nil }
            return .int64(exact)
        case (.int(let number), .double): return .double(Double(number))
        case (.double(let number), .double): return .double(number)
        case (.int, .string), (.double, .string), (.bool, .string): return .string(value.jsonText)
        default: return nil
        }
    }

    /// What a value of `kind` looks like, for messages: "an integer".
    public static func expectation(of kind: ParameterKind) -> String {
        switch kind {
        case .bool: "true or false"
        case .int64: "an integer"
        case .double: "a number"
        case .string: "text without NUL characters"
        }
    }
}
