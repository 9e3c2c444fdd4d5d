import HostModel

/// The static quick actions, as read from a manifest, expanded and localized.
public struct Manifest: Sendable, Equatable {
    /// The file it was read from; nil when there is none.
    public var path: String?
    /// The items in manifest order.
    public var items: [ShortcutItem]
    /// The type that unknown types fall back to (`StandFitFallbackShortcutItemType`).
    public var fallbackType: String?
    /// The manifest's `CFBundleDevelopmentRegion`, expanded: the language of last resort, read
    /// only when the user names no language (nil otherwise).
    public var developmentRegion: String?

    public init(path: String? = nil, items: [ShortcutItem] = [], fallbackType: String? = nil,
                developmentRegion: String? = nil) {
        self.path = path
        self.items = items
        self.fallbackType = fallbackType
        self.developmentRegion = developmentRegion
    }
}
