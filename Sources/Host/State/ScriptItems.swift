import Foundation
import HostModel

/// Reads the list `dynamic set` is given: a JSON array of items with the keys `list --json`
/// prints, so `list --json` output can be edited and fed back. The list is taken whole or not
/// at all: the first bad item is reported with its index and nothing is stored.
public enum ScriptItems {
    /// Keys an item may have; the ones `list --json` computes are accepted and ignored.
    static let keys: Set<String> = ["type", "title", "subtitle", "icon", "userInfo", "validUntil"]
    static let computedKeys: Set<String> = ["app", "appName", "source", "origin", "rank", "available", "withinLimit", "pruned", "shadows"]

    /// Parses `data` read from `origin` (a path, or standard input: `items.stdin`).
    public static func parse(_ data: Data, origin: HostText.Phrase) throws(HostError) -> [ShortcutItem] {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw HostError(.dynamicItemsInvalid, key: "error.items.json", parts: ["origin": origin], cause: error)
        }
        guard case .array(let elements) = value else {
            throw HostError(.dynamicItemsInvalid, key: "error.items.notArray", parts: ["origin": origin, "kind": kind(of: value)])
        }
        var items: [ShortcutItem] = []
        for (index, element) in elements.enumerated() {
            do throws(ItemProblem) {
                items.append(try item(element))
            } catch {
                throw HostError(.dynamicItemsInvalid, key: "error.items.item", ["index": "\(index)"], parts: ["origin": origin, "reason": error.reason])
            }
        }
        return items
    }

    struct ItemProblem: Error {
        var reason: HostText.Phrase
        init(_ key: String, _ values: [String: String] = [:], kind: JSONValue? = nil) {
            reason = HostText.Phrase(key, values, parts: kind.map { ["kind": ScriptItems.kind(of: $0)] } ?? [:])
        }
    }

    static func item(_ value: JSONValue) throws(ItemProblem) -> ShortcutItem {
        guard case .object(let fields) = value else {
            throw ItemProblem("items.notObject", kind: value)
        }
        if let unknown = fields.keys.sorted().first(where: { !keys.contains($0) && !computedKeys.contains($0) }) {
            throw ItemProblem("items.unknownKey", ["key": unknown])
        }
        guard case .string(let type)? = fields["type"] else {
            throw ItemProblem(fields["type"] == nil ? "items.noType" : "items.typeNotString")
        }
        guard !type.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ItemProblem("items.blankType")
        }
        guard case .string(let title)? = fields["title"] else {
            throw ItemProblem(fields["title"] == nil ? "items.noTitle" : "items.titleNotString")
        }
        guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ItemProblem("items.blankTitle")
        }
        let subtitle = try optionalString(fields["subtitle"], key: "subtitle")
        let icon = try optionalString(fields["icon"], key: "icon")
        var userInfo: [String: JSONValue] = [:]
        switch fields["userInfo"] {
        case nil, .null?:
            break
        case .object(let values)?:
            for (key, value) in values {
                try checkUserInfo(value, path: "userInfo.\(key)")
            }
            userInfo = values
        case let other?:
            throw ItemProblem("items.userInfoKind", kind: other)
        }
        var validUntil: Date?
        if let text = try optionalString(fields["validUntil"], key: "validUntil") {
            guard let instant = try? Date(text, strategy: .iso8601) else {
                throw ItemProblem("items.validUntil", ["value": text])
            }
            validUntil = instant
        }
        return ShortcutItem(type: type, title: title, subtitle: subtitle, icon: icon, userInfo: userInfo,
                            source: .dynamic, origin: HostState.scriptSource, validUntil: validUntil)
    }

    private static func optionalString(_ value: JSONValue?, key: String) throws(ItemProblem) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw ItemProblem("items.notString", ["key": key], kind: other)
        }
    }

    /// userInfo values are what a property list can hold: no nulls anywhere.
    private static func checkUserInfo(_ value: JSONValue, path: String) throws(ItemProblem) {
        switch value {
        case .null:
            throw ItemProblem("items.null", ["path": path])
        case .array(let values):
            for (index, value) in values.enumerated() { try checkUserInfo(value, path: "\(path)[\(index)]") }
        case .object(let values):
            for (key, value) in values { try checkUserInfo(value, path: "\(path).\(key)") }
        case .bool, .int, .double, .string:
            break
        }
    }

    static func kind(of value: JSONValue) -> HostText.Phrase {
        switch value {
        case .null: HostText.Phrase("kind.null")
        case .bool: HostText.Phrase("kind.bool")
        case .int, .double: HostText.Phrase("kind.number")
        case .string: HostText.Phrase("kind.string")
        case .array: HostText.Phrase("kind.array")
        case .object: HostText.Phrase("kind.object")
        }
    }
}
