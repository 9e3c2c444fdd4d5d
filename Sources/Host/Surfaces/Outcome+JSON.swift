import HostModel

/// `run --json`: one object with `status`, `type` and `message`, and `suggestions`, `data`,
/// `parameter`, `plugin`, `needsValue` and a routine's `steps` where present; `--dry-run` adds
/// `parameters`, how each got its value.
extension Outcome: Encodable {
    enum CodingKeys: String, CodingKey {
        case status, type, message, suggestions, data, parameter, plugin, needsValue, parameters, steps, fallback, sentence
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // An unknown type the manifest's fallback handled is not "handled" as asked.
        try container.encode(fallback != nil && status == .handled ? "fallback" : status.rawValue, forKey: .status)
        // `say` with no action found has no type, and gives its sentence instead.
        if !type.isEmpty { try container.encode(type, forKey: .type) }
        try container.encodeIfPresent(sentence, forKey: .sentence)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(suggestions, forKey: .suggestions)
        try container.encodeIfPresent(data?.value, forKey: .data)
        try container.encodeIfPresent(parameter, forKey: .parameter)
        try container.encodeIfPresent(plugin, forKey: .plugin)
        try container.encodeIfPresent(needsValue, forKey: .needsValue)
        if status == .dryRun { try container.encodeIfPresent(resolved, forKey: .parameters) }
        try container.encodeIfPresent(steps, forKey: .steps)
        try container.encodeIfPresent(fallback, forKey: .fallback)
    }
}
