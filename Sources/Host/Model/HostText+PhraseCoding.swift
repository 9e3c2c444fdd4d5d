// A `HostText.Phrase` that crosses a process or is kept: a plugin's refusal is made in a scan
// helper, kept in the registry cache and by the warm server's vetting, and shown by a command
// that may run in another language.

extension HostText.Phrase: Codable {
    private enum CodingKeys: String, CodingKey { case key, values, parts }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(String.self, forKey: .key),
                  try container.decodeIfPresent([String: String].self, forKey: .values) ?? [:],
                  parts: try container.decodeIfPresent([String: HostText.Phrase].self, forKey: .parts) ?? [:])
    }

    /// Empty values and parts are left out: a registry cache of a hundred plugins holds many.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        if !values.isEmpty { try container.encode(values, forKey: .values) }
        if !parts.isEmpty { try container.encode(parts, forKey: .parts) }
    }
}

extension HostText.Phrase: CustomStringConvertible {
    /// Text that is said as it is in every language: a plugin's own words, or a sentence that
    /// was made as text (`plugin.verbatim` is "{text}" in every table).
    public static func verbatim(_ text: String) -> HostText.Phrase {
        HostText.Phrase("plugin.verbatim", ["text": text])
    }

    /// The phrase in `language`.
    public func text(in language: String) -> String {
        HostText(language: language)(self)
    }

    /// The phrase in the language of `words`.
    public func text(_ words: HostText) -> String {
        words(self)
    }

    /// The phrase in English, as logs and older callers compare it.
    public var english: String { text(in: "en") }

    public var description: String { english }
}
