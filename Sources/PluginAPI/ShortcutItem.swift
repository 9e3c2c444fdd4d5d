import Foundation

/// A quick action as a menu shows it: a type to run, a title, and what to pass along.
public struct ShortcutItem: Sendable, Equatable {
    public var type: String
    public var title: String
    public var subtitle: String?
    public var icon: String?
    /// String-keyed values handed to the action as its userInfo; parameters bind from it.
    public var userInfo: [String: UserInfoValue]
    /// For a dynamic item: until when it is true ("5 days" until local midnight). The host never
    /// shows it from then on and asks the provider again first. nil: it holds until the plugin
    /// handles an action or `refresh` runs. Ignored for static items.
    public var validUntil: Date?

    /// `userInfo` takes literals and variables alike: `["exercise": name, "count": count]`.
    public init(type: String, title: String, subtitle: String? = nil, icon: String? = nil,
                userInfo: [String: any UserInfoConvertible] = [:], validUntil: Date? = nil) {
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.userInfo = userInfo.mapValues(\.userInfoValue)
        self.validUntil = validUntil
    }

    func userInfoJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(userInfo), as: UTF8.self)
    }
}

/// A userInfo value: the JSON-shaped values a quick action may carry.
public enum UserInfoValue: Sendable, Equatable, Encodable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case array([UserInfoValue])
    case object([String: UserInfoValue])

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension UserInfoValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

/// What a userInfo value can be made from: `String`, `Int`, `Double`, `Bool`, arrays and
/// string-keyed dictionaries of them, and `UserInfoValue` itself.
public protocol UserInfoConvertible {
    var userInfoValue: UserInfoValue { get }
}

extension UserInfoValue: UserInfoConvertible {
    public var userInfoValue: UserInfoValue { self }
}

extension String: UserInfoConvertible {
    public var userInfoValue: UserInfoValue { .string(self) }
}

extension Int: UserInfoConvertible {
    public var userInfoValue: UserInfoValue { .int(self) }
}

extension Double: UserInfoConvertible {
    public var userInfoValue: UserInfoValue { .double(self) }
}

extension Bool: UserInfoConvertible {
    public var userInfoValue: UserInfoValue { .bool(self) }
}

extension Array: UserInfoConvertible where Element: UserInfoConvertible {
    public var userInfoValue: UserInfoValue { .array(map(\.userInfoValue)) }
}

extension Dictionary: UserInfoConvertible where Key == String, Value: UserInfoConvertible {
    public var userInfoValue: UserInfoValue { .object(mapValues(\.userInfoValue)) }
}
