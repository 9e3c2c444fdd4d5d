import Foundation

/// A JSON-shaped value: what userInfo, parameter values and result data are made of.
///
/// Decodes from JSON and from property lists alike (a plist `<date>` becomes an ISO 8601 string
/// and `<data>` a base64 string, since both must cross to plugins as JSON text).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Compact JSON text with sorted keys: the canonical form, used for identity and for plugins.
    public var jsonText: String {
        // Most handlers run without userInfo; "{}" needs no encoder (a JSONEncoder costs about a
        // microsecond, more than the rest of a dispatch).
        if case .object(let members) = self, members.isEmpty { return "{}" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case is a JSON value and doubles are finite.
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "null"
    }

    /// Parses JSON text; nil when it is not valid JSON.
    public init?(jsonText: String) {
        if jsonText == "{}" {
            self = .object([:])
            return
        }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(jsonText.utf8)) else {
            return nil
        }
        self = value
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // The decoder cannot say what kind of value comes, so kinds are tried in turn, and each
        // failed attempt costs a DecodingError. Leaves outnumber containers in any document (an
        // object of eight fields is one container and eight leaves), so strings go first, then
        // numbers and booleans, and objects and arrays last: a plugin's data of 20,000 log
        // entries decoded in half the time (`history days=366`).
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode(Date.self) {
            self = .string(value.formatted(.iso8601))
        } else if let value = try? container.decode(Data.self) {
            self = .string(value.base64EncodedString())
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a string, number, boolean, array or dictionary")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// The string, when this is one.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// How deep JSON may nest: Foundation's JSONDecoder refuses documents nested deeper than 512
/// arrays and objects, and calls them invalid. The host names that limit instead.
package enum JSONDepth {
    package static let limit = 512

    /// Whether `data` nests arrays and objects deeper than `limit`, outside strings; one pass.
    /// Rationale: JSONDecoder reports only "not valid JSON", and no parser the host uses
    /// reports depth, so this counts brackets itself.
    package static func exceeds(_ data: some Sequence<UInt8>) -> Bool {
        var depth = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return false
    }
}
