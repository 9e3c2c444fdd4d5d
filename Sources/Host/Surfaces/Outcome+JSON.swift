/// `run --json`: one object with `status`, `type` and `message`, and `suggestions`, `data`,
/// `parameter` and `plugin` where present.
extension Outcome: Encodable {
    enum CodingKeys: String, CodingKey {
        case status, type, message, suggestions, data, parameter, plugin
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status.rawValue, forKey: .status)
        try container.encode(type, forKey: .type)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(suggestions, forKey: .suggestions)
        try container.encodeIfPresent(data, forKey: .data)
        try container.encodeIfPresent(parameter, forKey: .parameter)
        try container.encodeIfPresent(plugin, forKey: .plugin)
    }
}
