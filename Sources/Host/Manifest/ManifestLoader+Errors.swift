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
    /// JSONDecoder says only "not valid JSON", so a JSON file is parsed once more by
    /// JSONSerialization, which says where ("around character 80"), and that becomes a line
    /// and a column.
    private static func syntaxDetail(_ context: DecodingError.Context, data: Data, isJSON: Bool) -> String {
        var underlying = context.underlyingError
        do {
            if isJSON {
                _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            } else {
                _ = try PropertyListSerialization.propertyList(from: data, format: nil)
            }
        } catch {
            underlying = error
        }
        guard let underlying else { return context.debugDescription }
        let nsError = underlying as NSError
        var detail = nsError.userInfo[NSDebugDescriptionErrorKey] as? String ?? nsError.localizedDescription
        if detail.hasSuffix(".") { detail.removeLast() }
        if isJSON, let match = detail.firstMatch(of: #/ around character ([0-9]+)$/#), let offset = Int(match.1) {
            detail = detail[..<match.range.lowerBound] + " at " + lineAndColumn(offset, in: data)
        } else if isJSON, detail.contains("end of file") {
            detail += " at " + lineAndColumn(data.count, in: data)
        }
        return detail.prefix(1).lowercased() + detail.dropFirst()
    }

    /// "line 3, column 44" of byte `offset` of `data` (columns count characters from 1).
    /// Rationale: Foundation gives the offset only.
    static func lineAndColumn(_ offset: Int, in data: Data) -> String {
        let before = data.prefix(max(0, min(offset, data.count)))
        let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        return "line \(line), column \(column)"
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        let sentence = first.lowercased() + text.dropFirst()
        return sentence.hasSuffix(".") ? sentence : sentence + "."
    }
}
