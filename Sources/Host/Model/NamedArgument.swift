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
        // The first "=" as a scalar: a Character search misses one that a prepended mark
        // (U+0600) joins into its grapheme ("؀=x"), which the fuzzer found.
        guard let equals = text.unicodeScalars.firstIndex(of: "="), equals != text.startIndex else { return nil }
        name = String(text[..<equals])
        // After the "=" scalar, not after its grapheme: a combining mark on it belongs to the value.
        value = String(text.unicodeScalars[text.unicodeScalars.index(after: equals)...])
    }
}
