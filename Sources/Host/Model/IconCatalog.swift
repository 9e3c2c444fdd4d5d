/// The icon names quick-action items use, translated for Linux surfaces: a freedesktop theme
/// icon for the `.desktop` file and a one-character glyph for the terminal menu.
///
/// Items name their icon the iOS way: an Apple `UIApplicationShortcutIconType…` constant or an
/// SF Symbol name. Theme names come from the freedesktop Icon Naming Specification, so every
/// conforming theme (Adwaita, Breeze, Papirus, …) can draw them.
///
/// Rationale: the specification has no exercise icon, yet every `figure.*` symbol means one.
/// They all share Adwaita's `emoji-activities` (a sports ball), the closest common theme icon;
/// themes without it fall back to no icon, which launchers handle.
public enum IconCatalog {
    /// What one icon name becomes.
    package struct Entry: Sendable {
        /// An Icon Naming Specification name (no extension, no path).
        package let themeName: String
        /// One `Character`, for the terminal menu.
        package let glyph: String
    }

    /// The glyph for an item without a known icon.
    public static let defaultGlyph = "•"

    /// The theme icon and glyph every `figure.*` symbol (an exercise figure) shares.
    package static let exercise = Entry(themeName: "emoji-activities", glyph: "🏃")

    /// `UIApplicationShortcutIconType` + key.
    package static let appleIcons: [String: Entry] = [
        "Compose": Entry(themeName: "document-new", glyph: "📝"),
        "Play": Entry(themeName: "media-playback-start", glyph: "▶"),
        "Pause": Entry(themeName: "media-playback-pause", glyph: "⏸"),
        "Add": Entry(themeName: "list-add", glyph: "➕"),
        "Location": Entry(themeName: "go-jump", glyph: "🧭"),
        "Search": Entry(themeName: "edit-find", glyph: "🔍"),
        "Share": Entry(themeName: "document-send", glyph: "📤"),
        "Prohibit": Entry(themeName: "process-stop", glyph: "🚫"),
        "Contact": Entry(themeName: "contact-new", glyph: "👤"),
        "Home": Entry(themeName: "go-home", glyph: "🏠"),
        "MarkLocation": Entry(themeName: "bookmark-new", glyph: "📍"),
        "Favorite": Entry(themeName: "emblem-favorite", glyph: "⭐"),
        "Love": Entry(themeName: "emote-love", glyph: "💖"),
        "Cloud": Entry(themeName: "weather-overcast", glyph: "⛅"),
        "Invitation": Entry(themeName: "mail-send", glyph: "💌"),
        "Confirmation": Entry(themeName: "emblem-default", glyph: "✅"),
        "Mail": Entry(themeName: "mail-unread", glyph: "📧"),
        "Message": Entry(themeName: "mail-message-new", glyph: "💬"),
        "Date": Entry(themeName: "x-office-calendar", glyph: "📅"),
        "Time": Entry(themeName: "appointment-soon", glyph: "🕒"),
        "CapturePhoto": Entry(themeName: "camera-photo", glyph: "📷"),
        "CaptureVideo": Entry(themeName: "camera-video", glyph: "🎥"),
        "Task": Entry(themeName: "task-due", glyph: "📋"),
        "TaskCompleted": Entry(themeName: "emblem-default", glyph: "✅"),
        "Alarm": Entry(themeName: "appointment-soon", glyph: "⏰"),
        "Bookmark": Entry(themeName: "user-bookmarks", glyph: "🔖"),
        "Shuffle": Entry(themeName: "media-playlist-shuffle", glyph: "🔀"),
        "Audio": Entry(themeName: "audio-x-generic", glyph: "🔊"),
        "Update": Entry(themeName: "view-refresh", glyph: "🔄"),
    ]

    /// SF Symbols by root name; each also answers to `.fill`, `.circle` and `.circle.fill`.
    package static let symbols: [String: Entry] = [
        "plus": Entry(themeName: "list-add", glyph: "➕"),
        "flame": Entry(themeName: "emblem-important", glyph: "🔥"),
        "chart.bar": Entry(themeName: "x-office-spreadsheet", glyph: "📊"),
        "arrow.uturn.backward": Entry(themeName: "edit-undo", glyph: "🔙"),
        "arrow.clockwise": Entry(themeName: "view-refresh", glyph: "🔄"),
        "hand.wave": Entry(themeName: "face-smile", glyph: "👋"),
        "globe": Entry(themeName: "applications-internet", glyph: "🌐"),
        "dollarsign": Entry(themeName: "accessories-calculator", glyph: "💲"),
        "star": Entry(themeName: "emblem-favorite", glyph: "⭐"),
        "heart": Entry(themeName: "emote-love", glyph: "💖"),
        "clock": Entry(themeName: "appointment-soon", glyph: "🕒"),
        "calendar": Entry(themeName: "x-office-calendar", glyph: "📅"),
        "magnifyingglass": Entry(themeName: "edit-find", glyph: "🔍"),
        "square.and.pencil": Entry(themeName: "document-new", glyph: "📝"),
        "checkmark": Entry(themeName: "emblem-default", glyph: "✅"),
        "trash": Entry(themeName: "edit-delete", glyph: "🗑"),
        "gear": Entry(themeName: "preferences-system", glyph: "⚙"),
        "gearshape": Entry(themeName: "preferences-system", glyph: "⚙"),
    ]

    /// Every exact name the catalog answers to; `figure.*` is matched by prefix instead.
    package static let table: [String: Entry] = {
        var table: [String: Entry] = [:]
        for (name, entry) in appleIcons {
            table["UIApplicationShortcutIconType" + name] = entry
        }
        for (root, entry) in symbols {
            for suffix in ["", ".fill", ".circle", ".circle.fill"] {
                table[root + suffix] = entry
            }
        }
        return table
    }()

    package static func entry(for icon: String?) -> Entry? {
        guard let icon else { return nil }
        if let entry = table[icon] { return entry }
        if icon.hasPrefix("figure."), icon.count > "figure.".count { return exercise }
        return nil
    }

    /// The Icon Naming Specification name for `icon`; nil when `icon` is nil or unknown.
    public static func themeName(for icon: String?) -> String? {
        entry(for: icon)?.themeName
    }

    /// A one-character glyph for `icon`; `defaultGlyph` when `icon` is nil or unknown.
    public static func glyph(for icon: String?) -> String {
        entry(for: icon)?.glyph ?? defaultGlyph
    }

    /// Whether the catalog maps `icon`.
    public static func isKnown(_ icon: String) -> Bool {
        entry(for: icon) != nil
    }
}
