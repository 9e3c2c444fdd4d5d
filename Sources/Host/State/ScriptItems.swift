import Foundation
import HostModel

/// Reads the list `dynamic set` is given: a JSON array of items with the keys `list --json`
/// prints, so `list --json` output can be edited and fed back. The list is taken whole or not
/// at all: the first bad item is reported with its index and nothing is stored.
public enum ScriptItems {
    /// Keys an item may have; the ones `list --json` computes are accepted and ignored.
    static let keys: Set<String> = ["type", "title", "subtitle", "icon", "userInfo", "validUntil"]
    static let computedKeys: Set<String> = ["app", "appName", "source", "origin", "rank", "available", "withinLimit", "pruned", "shadows"]

    /// Parses `data` read from `origin` (a path, or "stdin").
    public static func parse(_ data: Data, origin: String) throws(HostError) -> [ShortcutItem] {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw HostError(.dynamicItemsInvalid, "\(origin) is not valid JSON; give a JSON array of items like [{\"type\": \"com.standfit.logexercise\", \"title\": \"Log Squats\"}]. Nothing was changed.", cause: error)
        }
        guard case .array(let elements) = value else {
            throw HostError(.dynamicItemsInvalid, "\(origin) must hold a JSON array of items, not \(kind(of: value)); nothing was changed.")
        }
        var items: [ShortcutItem] = []
        for (index, element) in elements.enumerated() {
            do throws(ItemProblem) {
                items.append(try item(element))
            } catch {
                throw HostError(.dynamicItemsInvalid, "\(origin): the item at index \(index) \(error.reason); nothing was changed.")
            }
        }
        return items
    }

    struct ItemProblem: Error {
        var reason: String
    }

    static func item(_ value: JSONValue) throws(ItemProblem) -> ShortcutItem {
        guard case .object(let fields) = value else {
            throw ItemProblem(reason: "is \(kind(of: value)), not an object with a type and a title")
        }
        if let unknown = fields.keys.sorted().first(where: { !keys.contains($0) && !computedKeys.contains($0) }) {
            throw ItemProblem(reason: "has an unknown key '\(unknown)' (the keys are type, title, subtitle, icon, userInfo and validUntil)")
        }
        guard case .string(let type)? = fields["type"] else {
            throw ItemProblem(reason: fields["type"] == nil ? "has no type" : "has a type that is not a string")
        }
        guard !type.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ItemProblem(reason: "has a blank type")
        }
        guard case .string(let title)? = fields["title"] else {
            throw ItemProblem(reason: fields["title"] == nil ? "has no title" : "has a title that is not a string")
        }
        guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ItemProblem(reason: "has a blank title")
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
            throw ItemProblem(reason: "has a userInfo that is \(kind(of: other)); userInfo must be an object of strings, numbers, booleans, arrays and objects")
        }
        var validUntil: Date?
        if let text = try optionalString(fields["validUntil"], key: "validUntil") {
            guard let instant = try? Date(text, strategy: .iso8601) else {
                throw ItemProblem(reason: "has a validUntil '\(text)' that is not an ISO 8601 time like 2026-11-24T00:00:00Z")
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
        case let other?: throw ItemProblem(reason: "has a \(key) that is \(kind(of: other)), not a string")
        }
    }

    /// userInfo values are what a property list can hold: no nulls anywhere.
    private static func checkUserInfo(_ value: JSONValue, path: String) throws(ItemProblem) {
        switch value {
        case .null:
            throw ItemProblem(reason: "has null at \(path); userInfo holds strings, numbers, booleans, arrays and objects only")
        case .array(let values):
            for (index, value) in values.enumerated() { try checkUserInfo(value, path: "\(path)[\(index)]") }
        case .object(let values):
            for (key, value) in values { try checkUserInfo(value, path: "\(path).\(key)") }
        case .bool, .int, .double, .string:
            break
        }
    }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
