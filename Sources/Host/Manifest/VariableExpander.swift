import HostModel

/// Expands Xcode-style `$(NAME)` references from `--define` values, then the environment.
///
/// `$(NAME:modifier)` forms (such as `$(PRODUCT_NAME:rfc1034identifier)`) use the name's value
/// unchanged; `$$` is a literal `$`.
public struct VariableExpander: Sendable {
    public var defines: [String: String]
    public var environment: [String: String]

    public init(defines: [String: String] = [:], environment: [String: String] = [:]) {
        self.defines = defines
        self.environment = environment
    }

    /// `text` with every reference replaced, or the first unresolved name.
    public func expand(_ text: String) -> Result<String, Unresolved> {
        guard text.contains("$") else { return .success(text) }
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            if afterDollar < rest.endIndex, rest[afterDollar] == "$" {
                output += "$"
                rest = rest[rest.index(after: afterDollar)...]
                continue
            }
            guard afterDollar < rest.endIndex, rest[afterDollar] == "(",
                  let close = rest[afterDollar...].firstIndex(of: ")")
            else {
                output += "$"
                rest = rest[afterDollar...]
                continue
            }
            let reference = String(rest[rest.index(after: afterDollar)..<close])
            let name = String(reference.prefix { $0 != ":" })
            guard let value = value(of: name) else { return .failure(Unresolved(name: name)) }
            output += value
            rest = rest[rest.index(after: close)...]
        }
        output += rest
        return .success(output)
    }

    /// Expands every string inside a JSON value.
    public func expand(_ value: JSONValue) -> Result<JSONValue, Unresolved> {
        switch value {
        case .string(let string):
            return expand(string).map(JSONValue.string)
        case .array(let elements):
            var expanded: [JSONValue] = []
            for element in elements {
                switch expand(element) {
                case .success(let value): expanded.append(value)
                case .failure(let error): return .failure(error)
                }
            }
            return .success(.array(expanded))
        case .object(let members):
            var expanded: [String: JSONValue] = [:]
            for (key, member) in members {
                switch expand(member) {
                case .success(let value): expanded[key] = value
                case .failure(let error): return .failure(error)
                }
            }
            return .success(.object(expanded))
        default:
            return .success(value)
        }
    }

    private func value(of name: String) -> String? {
        defines[name] ?? environment[name]
    }

    /// A `$(NAME)` with no value.
    public struct Unresolved: Error, Sendable {
        public let name: String
    }
}
