import Foundation
import HostModel

extension ManifestLoader {
    /// One sentence for a decoding failure: the file, the key path, what was wrong, and the
    /// line where the parser reports one.
    /// The parser's own detail (Foundation's words, which carry the line) is quoted as it is.
    static func describe(_ error: DecodingError, data: Data, path: String, isJSON: Bool) -> HostText.Phrase {
        switch error {
        case .typeMismatch(let expected, let context):
            let detail = lowercasedFirst(context.debugDescription)
            return HostText.Phrase("manifest.typeMismatch", ["path": path, "detail": detail.hasSuffix(".") ? String(detail.dropLast()) : detail],
                                   parts: ["key": keyPath(context.codingPath), "kind": kindName(expected)])
        case .valueNotFound(let expected, let context):
            return HostText.Phrase("manifest.valueMissing", ["path": path], parts: ["key": keyPath(context.codingPath), "kind": kindName(expected)])
        case .keyNotFound(let key, let context):
            return HostText.Phrase("manifest.keyMissing", ["path": path, "name": key.stringValue], parts: ["parent": keyPath(context.codingPath)])
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return HostText.Phrase(isJSON ? "manifest.syntaxJSON" : "manifest.syntaxPlist",
                                   ["path": path, "detail": syntaxDetail(context, data: data, isJSON: isJSON)])
        case .dataCorrupted(let context):
            return HostText.Phrase("manifest.valueInvalid", ["path": path, "detail": lowercasedFirst(context.debugDescription)],
                                   parts: ["key": keyPath(context.codingPath)])
        @unknown default:
            return HostText.Phrase("error.manifest.invalid", ["path": path, "why": error.localizedDescription])
        }
    }

    /// `UIApplicationShortcutItems[1].UIApplicationShortcutItemTitle`, or "the top level".
    static func keyPath(_ codingPath: [any CodingKey]) -> HostText.Phrase {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? HostText.Phrase("manifest.topLevel") : HostText.Phrase("manifest.keyPath", ["path": text])
    }

    private static func kindName(_ type: Any.Type) -> HostText.Phrase {
        switch type {
        case is String.Type: HostText.Phrase("kind.string")
        case is [Any].Type: HostText.Phrase("kind.array")
        case is [String: Any].Type, is [String: JSONValue].Type: HostText.Phrase("kind.dictionary")
        case is Bool.Type: HostText.Phrase("kind.bool")
        case is Int64.Type, is Int.Type: HostText.Phrase("kind.integer")
        case is Double.Type: HostText.Phrase("kind.number")
        default: HostText.Phrase("kind.other", ["type": "\(type)"])
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
