import Foundation

/// A handler's structured data as the JSON text the plugin attached: checked to be one JSON
/// document when it arrives, and decoded into a `JSONValue` only when something reads it
/// (`--json`). A year of `history` is 20,000 entries; decoding them into values the plain
/// output never shows cost more than the rest of the command.
public struct JSONText: Sendable, Hashable {
    /// The document, as the plugin wrote it.
    public let text: String

    /// `text` when it is one JSON document nested at most `JSONDepth.limit` deep; nil otherwise.
    public init?(validating text: String) {
        guard JSONText.refusal(of: text) == nil else { return nil }
        self.text = text
    }

    /// The canonical text of `value`.
    public init(_ value: JSONValue) {
        text = value.jsonText
    }

    /// The document as a value; `.null` stands for a text that is not JSON, which `init`
    /// does not let in.
    public var value: JSONValue {
        JSONValue(jsonText: text) ?? .null
    }

    /// Why `text` is not accepted as data ("is not valid JSON", or how deep it nests), or nil.
    /// The depth is counted first (one pass); then JSONSerialization parses the whole document,
    /// escapes and numbers included (JSONDecoder's scanner leaves those to the values it is
    /// asked for, so a document that reads nothing is not checked by it).
    public static func refusal(of text: String) -> HostText.Phrase? {
        if text == "{}" { return nil }
        if JSONDepth.exceeds(text.utf8) { return HostText.Phrase("json.deep", ["limit": "\(JSONDepth.limit)"]) }
        let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        return parsed == nil ? HostText.Phrase("json.invalid") : nil
    }

    /// Thrown when a worker's line carries data that is not a JSON document.
    public struct Refused: Error {
        public let reason: HostText.Phrase
    }
}

/// On the worker's answer line the text crosses as one JSON string, checked again on arrival
/// (the worker runs plugin code).
extension JSONText: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if let reason = JSONText.refusal(of: text) { throw Refused(reason: reason) }
        self.text = text
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
