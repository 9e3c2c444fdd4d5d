/// The icon names quick-action items use, translated for Linux surfaces: a freedesktop theme
/// icon for the `.desktop` file and a one-character glyph for the terminal menu.
///
/// Items name their icon the iOS way, an Apple `UIApplicationShortcutIconType…` constant or an
/// SF Symbol name, or the Linux way, a freedesktop Icon Naming Specification name. Theme names
/// come from that specification, so every conforming theme (Adwaita, Breeze, Papirus, …) can
/// draw them. docs/PLUGIN_GUIDE.md lists every name (`IconCatalogDocTests` keeps it current).
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

    /// The endings every root in `symbols` also answers to ("drop.fill", "plus.circle").
    package static let symbolVariants = ["", ".fill", ".circle", ".circle.fill", ".square", ".square.fill"]

    /// Icon Naming Specification names the host takes as they are, with their glyphs: the
    /// standard names a quick action could mean (actions, devices, emblems, emotes, places,
    /// status and the generic applications and categories).
    package static let themeIcons: [String: String] = [
        "address-book-new": "📒", "application-exit": "🚪", "appointment-new": "📅", "call-start": "📞",
        "call-stop": "📵", "contact-new": "👤", "document-new": "📝", "document-open": "📂",
        "document-open-recent": "🕘", "document-print": "🖨", "document-properties": "📄",
        "document-save": "💾", "document-save-as": "💾", "document-send": "📤", "document-edit": "✏",
        "edit-clear": "🧹", "edit-copy": "📋", "edit-cut": "✂", "edit-delete": "🗑", "edit-find": "🔍",
        "edit-find-replace": "🔍", "edit-paste": "📋", "edit-redo": "↪", "edit-select-all": "🔲",
        "edit-undo": "↩", "folder-new": "📁", "format-justify-left": "📃", "go-bottom": "⤓",
        "go-down": "⬇", "go-first": "⏮", "go-home": "🏠", "go-jump": "🧭", "go-last": "⏭", "go-next": "➡",
        "go-previous": "⬅", "go-top": "⤒", "go-up": "⬆", "help-about": "ℹ", "help-contents": "❓",
        "insert-image": "🖼", "insert-link": "🔗", "insert-text": "📝", "list-add": "➕", "list-remove": "➖",
        "mail-forward": "📨", "mail-mark-important": "❗", "mail-message-new": "💬", "mail-reply-sender": "↩",
        "mail-send": "💌", "mail-send-receive": "📬", "media-eject": "⏏", "media-playback-pause": "⏸",
        "media-playback-start": "▶", "media-playback-stop": "⏹", "media-record": "⏺",
        "media-seek-backward": "⏪", "media-seek-forward": "⏩", "media-skip-backward": "⏮",
        "media-skip-forward": "⏭", "media-playlist-repeat": "🔁", "media-playlist-shuffle": "🔀",
        "object-flip-horizontal": "↔", "object-rotate-left": "↺", "object-rotate-right": "↻",
        "process-stop": "🚫", "system-lock-screen": "🔒", "system-log-out": "🚪", "system-run": "⚙",
        "system-search": "🔍", "system-reboot": "🔄", "system-shutdown": "⏻", "tools-check-spelling": "🔤",
        "view-fullscreen": "⛶", "view-refresh": "🔄", "view-restore": "🗗", "view-list": "📋",
        "view-reveal": "👁", "view-sort-ascending": "🔼", "view-sort-descending": "🔽", "window-close": "❌",
        "window-new": "🗔", "zoom-in": "🔎", "zoom-out": "🔍", "zoom-original": "🔍",
        "accessories-calculator": "🧮", "accessories-character-map": "🔣", "accessories-dictionary": "📖",
        "accessories-text-editor": "📝", "help-browser": "❓", "multimedia-volume-control": "🔊",
        "preferences-desktop": "🖥", "preferences-system": "⚙", "preferences-other": "🔧",
        "preferences-system-notifications": "🔔", "system-file-manager": "📁", "system-software-install": "📦",
        "system-users": "👥", "utilities-system-monitor": "📈", "utilities-terminal": "💻",
        "applications-games": "🎮", "applications-graphics": "🎨", "applications-internet": "🌐",
        "applications-multimedia": "🎬", "applications-office": "💼", "applications-other": "📦",
        "applications-science": "🔬", "applications-utilities": "🧰",
        "audio-headphones": "🎧", "audio-input-microphone": "🎤", "battery": "🔋", "camera-photo": "📷",
        "camera-video": "🎥", "camera-web": "📹", "computer": "🖥", "input-gaming": "🎮", "input-keyboard": "⌨",
        "input-mouse": "🖱", "media-optical": "💿", "multimedia-player": "🎵", "network-wireless": "📶",
        "phone": "📱", "printer": "🖨", "video-display": "🖥",
        "emblem-default": "✅", "emblem-documents": "📄", "emblem-favorite": "⭐", "emblem-important": "❗",
        "emblem-mail": "📧", "emblem-photos": "🖼", "emblem-readonly": "🔒", "emblem-shared": "🤝",
        "emblem-synchronized": "🔄", "emblem-system": "⚙", "emblem-unreadable": "🚫",
        "face-angel": "😇", "face-angry": "😠", "face-cool": "😎", "face-crying": "😢", "face-devilish": "😈",
        "face-embarrassed": "😳", "face-kiss": "😘", "face-laugh": "😆", "face-monkey": "🐵", "face-plain": "😐",
        "face-raspberry": "😛", "face-sad": "🙁", "face-sick": "🤢", "face-smile": "🙂", "face-smile-big": "😀",
        "face-smirk": "😏", "face-surprise": "😮", "face-tired": "😫", "face-uncertain": "😕", "face-wink": "😉",
        "face-worried": "😟", "emote-love": "💖", "emoji-activities": "🏃",
        "folder": "📁", "folder-remote": "🗂", "network-server": "🖧", "network-workgroup": "🖧",
        "start-here": "🏁", "user-bookmarks": "🔖", "user-desktop": "🖥", "user-home": "🏠", "user-trash": "🗑",
        "appointment-missed": "📅", "appointment-soon": "🕒", "audio-volume-high": "🔊",
        "audio-volume-low": "🔈", "audio-volume-medium": "🔉", "audio-volume-muted": "🔇",
        "battery-caution": "🪫", "battery-low": "🪫", "battery-full": "🔋", "battery-full-charging": "⚡",
        "dialog-error": "⛔", "dialog-information": "ℹ", "dialog-password": "🔑", "dialog-question": "❓",
        "dialog-warning": "⚠", "folder-drag-accept": "📂", "folder-open": "📂", "folder-visiting": "📂",
        "image-loading": "⏳", "image-missing": "🖼", "mail-attachment": "📎", "mail-unread": "📧",
        "mail-read": "📭", "mail-replied": "↩", "mail-signed": "🔏", "mail-signed-verified": "🔏",
        "media-playlist-repeat-song": "🔂", "network-error": "🚫", "network-idle": "🖧", "network-offline": "🚫",
        "network-receive": "📥", "network-transmit": "📤", "network-transmit-receive": "🔄",
        "printer-error": "🖨", "printer-printing": "🖨", "security-high": "🛡", "security-medium": "🛡",
        "security-low": "🛡", "software-update-available": "⬆", "software-update-urgent": "⬆",
        "sync-error": "🚫", "sync-synchronizing": "🔄", "task-due": "📋", "task-past-due": "📋",
        "user-available": "🟢", "user-away": "🟡", "user-idle": "🟡", "user-offline": "⚪", "user-info": "👤",
        "avatar-default": "👤", "weather-clear": "☀", "weather-clear-night": "🌙", "weather-few-clouds": "🌤",
        "weather-few-clouds-night": "🌙", "weather-fog": "🌫", "weather-overcast": "☁",
        "weather-severe-alert": "⛈", "weather-showers": "🌧", "weather-showers-scattered": "🌦",
        "weather-snow": "❄", "weather-storm": "⛈", "airplane-mode": "✈", "bookmark-new": "📍",
        "changes-allow": "🔓", "notifications-disabled": "🔕", "text-x-generic": "📄",
        "image-x-generic": "🖼", "audio-x-generic": "🔊", "video-x-generic": "🎬", "x-office-calendar": "📅",
        "x-office-document": "📄", "x-office-spreadsheet": "📊", "x-office-presentation": "📽",
        "x-office-address-book": "📒", "mail-folder-inbox": "📥",
    ]

    /// Every exact name the catalog answers to; `figure.*` is matched by prefix instead.
    package static let table: [String: Entry] = {
        var table: [String: Entry] = [:]
        for (name, entry) in appleIcons {
            table["UIApplicationShortcutIconType" + name] = entry
        }
        for (name, glyph) in themeIcons {
            table[name] = Entry(themeName: name, glyph: glyph)
        }
        for (root, entry) in symbols {
            for suffix in symbolVariants {
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

    /// The `count` known names closest to `icon` by edit distance, ignoring case (one that contains the other counts as 2 at most) (ties in
    /// alphabetical order): what a warning offers for a name the catalog does not know.
    public static func closest(to icon: String, count: Int = 3) -> [String] {
        let wanted = icon.lowercased()
        let names = table.keys + ["figure.run"]
        let ranked = names.map { name in
            let known = name.lowercased(), distance = Suggester.distance(wanted, known, containsBonus: false)
            return (name, wanted.contains(known) || known.contains(wanted) ? min(distance, 2) : distance)
        }
        return ranked.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(count).map(\.0)
    }
}
