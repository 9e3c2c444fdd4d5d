/// Sent to and from handler workers as the kind and the text form.
extension ArgumentValue: Codable {
    private enum CodingKeys: String, CodingKey { case kind, value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try container.decode(Int32.self, forKey: .kind)
        let text = try container.decode(String.self, forKey: .value)
        guard let kind = ParameterKind(rawValue: raw), let value = ArgumentCoercion.coerce(text, to: kind) else {
            throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "not a value of kind \(raw)")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encode(text, forKey: .value)
    }
}
