/// How a value a parameter got was arrived at, as `--dry-run` shows it.
public struct ResolvedParameter: Sendable, Equatable, Encodable {
    public enum Source: String, Sendable, Encodable {
        /// A `name=value` argument (or a routine step's parameters).
        case argument
        /// The chosen item's userInfo.
        case userInfo
        /// Words of a spoken or typed phrase (`say`).
        case phrase
        /// An answer at a terminal prompt.
        case prompt
        /// The default the chosen value of another parameter brought ("pushups" brings count 10).
        case valueDefault = "value-default"
        /// The parameter's declared default.
        case `default`
    }

    public var name: String
    /// The value handed to the handler, as text; nil when the parameter stays unset.
    public var value: String?
    public var source: Source?
    /// The entity value's title ("Push-Ups") when the value names one.
    public var title: String?
    /// What the text resolved from said ("push ups"), when it differs from the value.
    public var input: String?
    /// The parameter's kind, so that `--json` gives a count as a number.
    public var kind: ParameterKind?
    /// False for a parameter whose value is never suggestion material: the run's donation
    /// leaves it out (`STANDFIT_PARAM_TRAIT_NOT_SUGGESTIBLE`). Not part of the JSON.
    public var suggestible = true

    package init(name: String, value: String? = nil, source: Source? = nil, title: String? = nil, input: String? = nil,
                 kind: ParameterKind? = nil) {
        self.name = name
        self.value = value
        self.source = source
        self.title = title
        self.input = input
        self.kind = kind
    }

    private enum CodingKeys: String, CodingKey { case name, value, source, title, input }

    /// `name`, `value` (a number or boolean as such, by the parameter's kind), `source`,
    /// `title` and `input` where present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if let value { try container.encode(ArgumentCoercion.json(value, as: kind ?? .string), forKey: .value) }
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(input, forKey: .input)
    }
}
