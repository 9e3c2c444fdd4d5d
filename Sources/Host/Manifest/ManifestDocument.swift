import HostModel

/// The parts of an iOS `Info.plist` (or its JSON twin) that describe quick actions.
/// Every other key of a real Info.plist is ignored.
struct ManifestDocument: Decodable {
    var shortcutItems: [Entry]?
    var developmentRegion: String?
    var fallbackType: String?

    enum CodingKeys: String, CodingKey {
        case shortcutItems = "UIApplicationShortcutItems"
        case developmentRegion = "CFBundleDevelopmentRegion"
        case fallbackType = "StandFitFallbackShortcutItemType"
    }

    /// One `UIApplicationShortcutItems` entry, with Apple's key names.
    struct Entry: Decodable {
        var type: String
        var title: String
        var subtitle: String?
        var iconType: String?
        var iconSymbolName: String?
        var iconFile: String?
        var userInfo: [String: JSONValue]?

        enum CodingKeys: String, CodingKey {
            case type = "UIApplicationShortcutItemType"
            case title = "UIApplicationShortcutItemTitle"
            case subtitle = "UIApplicationShortcutItemSubtitle"
            case iconType = "UIApplicationShortcutItemIconType"
            case iconSymbolName = "UIApplicationShortcutItemIconSymbolName"
            case iconFile = "UIApplicationShortcutItemIconFile"
            case userInfo = "UIApplicationShortcutItemUserInfo"
        }
    }
}
