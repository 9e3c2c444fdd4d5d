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

/// A suggestion the user turned down for good ("Stop suggesting this"): an action with values,
/// never offered again, in a notification or the menu, until `suggestions unmute`.
public struct SuggestionMute: Sendable, Equatable, Encodable {
    public var type: String
    /// The values, as text, by parameter (as a donation stores them).
    public var parameters: [String: String]
    /// What it was called when it was turned down ("Log 10 Push-Ups").
    public var title: String
    public var mutedAt: Date

    public init(type: String, parameters: [String: String], title: String, mutedAt: Date) {
        self.type = type
        self.parameters = parameters
        self.title = title
        self.mutedAt = mutedAt
    }
}

/// A suggestion offered as a notification (`suggestions offer`), and how it was answered.
public struct SuggestionOffer: Sendable, Equatable {
    /// The buttons of a suggestion's notification, by their keys.
    public enum Answer: String, Sendable, CaseIterable {
        /// "Log": it runs.
        case run
        /// "Not now": not again today.
        case later
        /// "Stop suggesting this": muted.
        case mute
    }

    public var id: Int64
    public var type: String
    public var parameters: [String: String]
    public var title: String
    public var offeredAt: Date
    /// Its local day, "2026-11-27": the daily cap counts per day.
    public var day: String
    /// The button pressed; nil while unanswered (or closed without one).
    public var answer: Answer?

    public init(id: Int64, type: String, parameters: [String: String], title: String, offeredAt: Date, day: String, answer: Answer?) {
        self.id = id
        self.type = type
        self.parameters = parameters
        self.title = title
        self.offeredAt = offeredAt
        self.day = day
        self.answer = answer
    }
}
