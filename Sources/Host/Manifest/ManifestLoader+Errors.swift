import Foundation
import HostModel

extension ManifestLoader {
    /// One sentence for a decoding failure: the file, the key path, what was wrong, and the
    /// line where the parser reports one.
    static func describe(_ error: DecodingError, data: Data, path: String, isJSON: Bool) -> String {
        switch error {
        case .typeMismatch(let expected, let context):
            return "\(path): \(keyPath(context.codingPath)) should be \(kindName(expected)); \(lowercasedFirst(context.debugDescription))"
        case .valueNotFound(let expected, let context):
            return "\(path): \(keyPath(context.codingPath)) should be \(kindName(expected)) but is empty; give it a value."
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "the top level" : keyPath(context.codingPath)
            return "\(path): \(parent) has no \(key.stringValue); every shortcut item needs a type and a title."
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "\(path) is not a valid \(isJSON ? "JSON" : "property list") file (\(syntaxDetail(context, data: data, isJSON: isJSON))); fix the syntax there."
        case .dataCorrupted(let context):
            return "\(path): \(keyPath(context.codingPath)) is not valid: \(lowercasedFirst(context.debugDescription))"
        @unknown default:
            return "\(path) is not a valid manifest: \(error.localizedDescription)."
        }
    }

    /// `UIApplicationShortcutItems[1].UIApplicationShortcutItemTitle`
    static func keyPath(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "the top level" : text
    }

    private static func kindName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is [Any].Type: "an array"
        case is [String: Any].Type, is [String: JSONValue].Type: "a dictionary"
        case is Bool.Type: "a boolean"
        case is Int64.Type, is Int.Type: "an integer"
        case is Double.Type: "a number"
        default: "a value of type \(type)"
        }
    }

    /// The parser's own words, which carry the line number. PropertyListDecoder's are vaguer
    /// than PropertyListSerialization's, so for a plist the file is parsed once more to ask.
    private static func syntaxDetail(_ context: DecodingError.Context, data: Data, isJSON: Bool) -> String {
        var underlying = context.underlyingError
        if !isJSON {
            do {
                _ = try PropertyListSerialization.propertyList(from: data, format: nil)
            } catch {
                underlying = error
            }
        }
        guard let underlying else { return context.debugDescription }
        let nsError = underlying as NSError
        let detail = nsError.userInfo[NSDebugDescriptionErrorKey] as? String ?? nsError.localizedDescription
        return detail.hasSuffix(".") ? String(detail.dropLast()) : detail
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        let sentence = first.lowercased() + text.dropFirst()
        return sentence.hasSuffix(".") ? sentence : sentence + "."
    }
}
