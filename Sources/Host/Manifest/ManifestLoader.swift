import Foundation
import HostModel

/// Reads the static manifest: an iOS `Info.plist` verbatim, or the same keys as JSON.
///
/// Titles and subtitles are looked up in `<lang>.lproj/InfoPlist.strings` beside the file (the
/// raw string is the key, as on iOS), then `$(NAME)` references are expanded everywhere the
/// host reads. Keys the host does not read are ignored, unexpanded.
public struct ManifestLoader: Sendable {
    public var expander: VariableExpander
    public var language: LanguagePreference

    public init(expander: VariableExpander, language: LanguagePreference) {
        self.expander = expander
        self.language = language
    }

    /// The file names looked for in a manifest directory, in order.
    public static let fileNames = ["Info.plist", "manifest.json"]

    /// Finds the manifest at `path` (a file, or a directory holding one of `fileNames`).
    /// A missing default location is no error: `required` says whether the user named it.
    public static func locate(_ path: String, required: Bool) throws(HostError) -> URL? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if required {
                throw HostError(.manifestNotFound, key: "manifest.missing", ["path": path])
            }
            return nil
        }
        guard isDirectory.boolValue else { return URL(fileURLWithPath: path) }
        let directory = URL(fileURLWithPath: path, isDirectory: true)
        for name in fileNames {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        if required {
            throw HostError(.manifestNotFound, key: "manifest.emptyDirectory", ["path": path])
        }
        return nil
    }

    /// Reads, localizes and expands the manifest at `url`.
    public func load(_ url: URL) throws(HostError) -> Manifest {
        let data: Data
        do {
            data = try UserFile.read(url, limit: UserFile.documentLimit)
        } catch {
            throw HostError(.io, key: "error.manifest.read", ["path": url.path], parts: ["why": UserFile.why(error)])
        }
        let document = try decode(data, path: url.path)
        // As on iOS, the user's language comes first, then the development region, then Base.
        // The region is expanded only when the user's language has no table, so an Apple
        // Info.plist's $(DEVELOPMENT_LANGUAGE) needs no --define for a translated language.
        var strings = try localizationTables(besides: url, names: language.userLprojNames)
        var developmentRegion: String?
        if strings.isEmpty, let region = document.developmentRegion {
            developmentRegion = try expand(region, at: "CFBundleDevelopmentRegion", in: url.path)
            strings = try localizationTables(besides: url, names: LanguagePreference.lprojNames(for: developmentRegion))
        }
        strings += try localizationTables(besides: url, names: ["Base"])
        var items: [ShortcutItem] = []
        for (index, entry) in (document.shortcutItems ?? []).enumerated() {
            items.append(try item(from: entry, index: index, strings: strings, path: url.path))
        }
        let fallback = try document.fallbackType.map { type throws(HostError) in
            try expand(type, at: ManifestDocument.CodingKeys.fallbackType.rawValue, in: url.path)
        }
        return Manifest(path: url.path, items: items, fallbackType: fallback?.isEmpty == false ? fallback : nil,
                        developmentRegion: developmentRegion)
    }

    func decode(_ data: Data, path: String) throws(HostError) -> ManifestDocument {
        let isJSON = path.hasSuffix(".json") || data.first(where: { !$0.isASCIIWhitespace }) == UInt8(ascii: "{")
        // Foundation's XML property-list reader traps (instead of throwing) on some bytes that
        // are not UTF-8, e.g. inside <integer> (found by Fuzz/, kept in Fuzz/regressions/), so
        // a text plist must be valid UTF-8 unless a UTF-16 byte-order mark says otherwise.
        if !isJSON, !data.starts(with: Array("bplist".utf8)), !data.starts(with: [0xFF, 0xFE]),
           !data.starts(with: [0xFE, 0xFF]), String(validating: data, as: UTF8.self) == nil {
            throw HostError(.manifestInvalid, key: "error.manifest.utf8", ["path": path])
        }
        do {
            if isJSON {
                return try JSONDecoder().decode(ManifestDocument.self, from: data)
            }
            return try PropertyListDecoder().decode(ManifestDocument.self, from: data)
        } catch let error as DecodingError {
            throw HostError(.manifestInvalid, ManifestLoader.describe(error, data: data, path: path, isJSON: isJSON))
        } catch {
            throw HostError(.manifestInvalid, key: "error.manifest.invalid", ["path": path, "why": error.localizedDescription])
        }
    }

    func item(from entry: ManifestDocument.Entry, index: Int, strings: [StringsTable],
                      path: String) throws(HostError) -> ShortcutItem {
        let at = "UIApplicationShortcutItems[\(index)]."
        typealias Key = ManifestDocument.Entry.CodingKeys
        let type = try expand(entry.type, at: at + Key.type.rawValue, in: path)
        guard !type.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw HostError(.manifestInvalid, key: "manifest.emptyType", ["path": path, "keyPath": "\(at)\(Key.type.rawValue)"])
        }
        let title = try expand(localized(entry.title, in: strings), at: at + Key.title.rawValue, in: path)
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw HostError(.manifestInvalid, key: "manifest.emptyTitle", ["path": path, "keyPath": "\(at)\(Key.title.rawValue)"])
        }
        let subtitle = try entry.subtitle.map { subtitle throws(HostError) in
            try expand(localized(subtitle, in: strings), at: at + Key.subtitle.rawValue, in: path)
        }
        // Apple's precedence: a symbol name overrides an icon file, which overrides an icon type.
        let iconKey: Key? = entry.iconSymbolName != nil ? .iconSymbolName
            : entry.iconFile != nil ? .iconFile : entry.iconType != nil ? .iconType : nil
        let rawIcon = entry.iconSymbolName ?? entry.iconFile ?? entry.iconType
        let icon = try rawIcon.map { icon throws(HostError) in
            try expand(icon, at: at + (iconKey?.rawValue ?? ""), in: path)
        }
        var userInfo: [String: JSONValue] = [:]
        for (key, value) in entry.userInfo ?? [:] {
            switch expander.expand(value) {
            case .success(let expanded): userInfo[key] = expanded
            case .failure(let unresolved):
                throw unresolvedError(unresolved, at: "\(at)\(Key.userInfo.rawValue).\(key)", in: path)
            }
        }
        return ShortcutItem(type: type, title: title, subtitle: subtitle?.isEmpty == true ? nil : subtitle,
                            icon: icon, userInfo: userInfo, source: .static, origin: path)
    }

    private func localized(_ key: String, in tables: [StringsTable]) -> String {
        tables.lazy.compactMap { $0.entries[key] }.first ?? key
    }

    private func localizationTables(besides url: URL, names: [String]) throws(HostError) -> [StringsTable] {
        let directory = url.deletingLastPathComponent()
        var tables: [StringsTable] = []
        for name in names {
            let file = directory.appendingPathComponent("\(name).lproj/InfoPlist.strings")
            if FileManager.default.fileExists(atPath: file.path) {
                tables.append(try StringsTable(contentsOf: file))
            }
        }
        return tables
    }

    private func expand(_ text: String, at keyPath: String, in path: String) throws(HostError) -> String {
        switch expander.expand(text) {
        case .success(let expanded): return expanded
        case .failure(let unresolved): throw unresolvedError(unresolved, at: keyPath, in: path)
        }
    }

    private func unresolvedError(_ unresolved: VariableExpander.Unresolved, at keyPath: String,
                                 in path: String) -> HostError {
        HostError(.variableUnresolved, key: "manifest.unresolved", ["path": path, "keyPath": keyPath, "name": unresolved.name])
    }
}

private extension UInt8 {
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
