import Foundation

/// A quick action as menus show it: what to run, how it is titled and what it carries.
public struct ShortcutItem: Hashable, Sendable, Codable {
    /// Where an item came from.
    public enum Source: String, Sendable, Codable {
        /// The manifest, or a plugin's default items.
        case `static`
        /// A dynamic-actions provider.
        case dynamic
        /// The host's own suggestion from past runs (`standfit-host suggest`).
        case suggestion
        /// A user shortcut (routine) from `$XDG_CONFIG_HOME/standfit/shortcuts/`.
        case routine
    }

    public var type: String
    public var title: String
    public var subtitle: String?
    public var icon: String?
    /// String-keyed values handed to the handler; parameters bind from them.
    public var userInfo: [String: JSONValue]
    public var source: Source
    /// Who supplied it: the manifest's path or a plugin's id.
    public var origin: String
    /// Until when a provided item holds (`standfit.item-lifetime/1`); nil: until its provider
    /// is asked again. An item is never shown from this instant on.
    public var validUntil: Date?

    public init(type: String, title: String, subtitle: String? = nil, icon: String? = nil,
                userInfo: [String: JSONValue] = [:], source: Source = .static, origin: String = "",
                validUntil: Date? = nil) {
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.userInfo = userInfo
        self.source = source
        self.origin = origin
        self.validUntil = validUntil
    }

    /// Whether the item no longer holds at `now`.
    public func hasExpired(at now: Date) -> Bool {
        validUntil.map { $0 <= now } ?? false
    }

    /// Two items are the same quick action when type and userInfo match (titles may differ).
    public var identity: Identity { Identity(type: type, userInfo: userInfo) }

    /// What makes two items the same quick action. Compared as values, not as JSON text, so a
    /// menu of a thousand items encodes no JSON to find its twins.
    public struct Identity: Hashable, Sendable {
        public var type: String
        public var userInfo: [String: JSONValue]

        public init(type: String, userInfo: [String: JSONValue]) {
            self.type = type
            self.userInfo = userInfo
        }
    }
}
