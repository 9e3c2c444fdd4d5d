import Foundation

/// One source's stored dynamic items.
public struct DynamicSource: Sendable, Equatable {
    /// The source name of the list `dynamic set` owns.
    public static let script = "script"

    /// A plugin id, or `DynamicSource.script`.
    public var source: String
    /// The provider's version when it answered; nil for the script list.
    public var pluginVersion: String?
    public var items: [ShortcutItem]
    /// The language the items are in (`HostState.languageKey`'s form; "" for the script list),
    /// when the state says it.
    public var language: String?

    public init(source: String, pluginVersion: String?, items: [ShortcutItem], language: String? = nil) {
        self.source = source
        self.pluginVersion = pluginVersion
        self.items = items
        self.language = language
    }
}

/// One handled run, as `suggest` learns from it.
public struct Donation: Sendable, Equatable, Encodable {
    public var id: Int64?
    public var type: String
    /// The values it ran with, as text, by parameter.
    public var parameters: [String: String]
    /// The titles of the values that name things ("pushups" → "Push-Ups").
    public var titles: [String: String]
    public var date: Date
    /// The plugin that handled it, and what it named the run's effect (`standfit.donations/1`),
    /// so that a later run of that plugin that undoes the effect can withdraw it.
    public var plugin: String?
    public var effect: String?

    private enum CodingKeys: String, CodingKey { case id, type, parameters, titles, date }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(parameters, forKey: .parameters)
        try container.encode(titles, forKey: .titles)
        try container.encode(ISO8601DateFormatter().string(from: date), forKey: .date)
    }

    public init(id: Int64? = nil, type: String, parameters: [String: String], titles: [String: String] = [:], date: Date,
                plugin: String? = nil, effect: String? = nil) {
        self.id = id
        self.type = type
        self.parameters = parameters
        self.titles = titles
        self.date = date
        self.plugin = plugin
        self.effect = effect
    }
}
