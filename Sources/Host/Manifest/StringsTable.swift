import Foundation
import HostModel

/// An Apple `.strings` table (`"key" = "value";`, with comments and escapes), as used by
/// `<lang>.lproj/InfoPlist.strings` to localize an Info.plist.
public struct StringsTable: Sendable {
    public let entries: [String: String]

    public init(entries: [String: String]) {
        self.entries = entries
    }

    /// Reads a table; Xcode writes these as UTF-16 with a byte-order mark or as UTF-8.
    public init(contentsOf url: URL) throws(HostError) {
        let data: Data
        do {
            data = try UserFile.read(url, limit: UserFile.documentLimit)
        } catch {
            throw HostError(.io, key: "error.strings.read", ["path": url.path], parts: ["why": UserFile.why(error)])
        }
        try self.init(data: data, path: url.path)
    }

    init(data: Data, path: String) throws(HostError) {
        guard let text = StringsTable.decodeText(data) else {
            throw HostError(.stringsInvalid, key: "error.strings.encoding", ["path": path])
        }
        if text.allSatisfy(\.isWhitespace) {
            self.init(entries: [:])
            return
        }
        let parsed: Any
        do {
            // The .strings syntax is the old-style property-list dictionary without its braces,
            // which PropertyListSerialization reads as such.
            parsed = try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw HostError(.stringsInvalid, key: "error.strings.invalidDetail", ["path": path, "why": detail ?? "\(error)"])
        }
        guard let dictionary = parsed as? [String: Any] else {
            throw HostError(.stringsInvalid, key: "error.strings.invalid", ["path": path])
        }
        var entries: [String: String] = [:]
        for (key, value) in dictionary {
            guard let string = value as? String else {
                throw HostError(.stringsInvalid, key: "error.strings.notString", ["path": path, "key": key])
            }
            entries[key] = string
        }
        self.init(entries: entries)
    }

    private static func decodeText(_ data: Data) -> String? {
        let bytes = [UInt8](data.prefix(3))
        if bytes.starts(with: [0xFF, 0xFE]) {
            return String(data: data.dropFirst(2), encoding: .utf16LittleEndian)
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return String(data: data.dropFirst(2), encoding: .utf16BigEndian)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return String(data: data.dropFirst(3), encoding: .utf8)
        }
        return String(data: data, encoding: .utf8)
    }
}
