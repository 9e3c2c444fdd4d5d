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

    /// SF Symbols by root name; each also answers to the variants in `symbolVariants`.
    package static let symbols: [String: Entry] = [
        "plus": Entry(themeName: "list-add", glyph: "➕"),
        "minus": Entry(themeName: "list-remove", glyph: "➖"),
        "xmark": Entry(themeName: "window-close", glyph: "❌"),
        "checkmark": Entry(themeName: "emblem-default", glyph: "✅"),
        "checklist": Entry(themeName: "view-list", glyph: "📋"),
        "list.bullet": Entry(themeName: "view-list", glyph: "📋"),
        "list.number": Entry(themeName: "view-list", glyph: "🔢"),
        "flame": Entry(themeName: "emblem-important", glyph: "🔥"),
        "bolt": Entry(themeName: "battery-full-charging", glyph: "⚡"),
        "bolt.heart": Entry(themeName: "emote-love", glyph: "💓"),
        "heart": Entry(themeName: "emote-love", glyph: "💖"),
        "star": Entry(themeName: "emblem-favorite", glyph: "⭐"),
        "sparkles": Entry(themeName: "emblem-favorite", glyph: "✨"),
        "trophy": Entry(themeName: "emblem-favorite", glyph: "🏆"),
        "medal": Entry(themeName: "emblem-favorite", glyph: "🏅"),
        "rosette": Entry(themeName: "emblem-favorite", glyph: "🏵"),
        "crown": Entry(themeName: "emblem-favorite", glyph: "👑"),
        "target": Entry(themeName: "emblem-important", glyph: "🎯"),
        "flag": Entry(themeName: "emblem-important", glyph: "🚩"),
        "chart.bar": Entry(themeName: "x-office-spreadsheet", glyph: "📊"),
        "chart.line.uptrend.xyaxis": Entry(themeName: "x-office-spreadsheet", glyph: "📈"),
        "chart.pie": Entry(themeName: "x-office-spreadsheet", glyph: "📊"),
        "arrow.uturn.backward": Entry(themeName: "edit-undo", glyph: "🔙"),
        "arrow.uturn.forward": Entry(themeName: "edit-redo", glyph: "🔜"),
        "arrow.clockwise": Entry(themeName: "view-refresh", glyph: "🔄"),
        "arrow.counterclockwise": Entry(themeName: "view-refresh", glyph: "🔄"),
        "arrow.up": Entry(themeName: "go-up", glyph: "⬆"),
        "arrow.down": Entry(themeName: "go-down", glyph: "⬇"),
        "arrow.left": Entry(themeName: "go-previous", glyph: "⬅"),
        "arrow.right": Entry(themeName: "go-next", glyph: "➡"),
        "square.and.arrow.up": Entry(themeName: "document-send", glyph: "📤"),
        "square.and.arrow.down": Entry(themeName: "document-save", glyph: "📥"),
        "square.and.pencil": Entry(themeName: "document-new", glyph: "📝"),
        "pencil": Entry(themeName: "document-edit", glyph: "✏"),
        "doc": Entry(themeName: "text-x-generic", glyph: "📄"),
        "doc.text": Entry(themeName: "text-x-generic", glyph: "📄"),
        "folder": Entry(themeName: "folder", glyph: "📁"),
        "tray": Entry(themeName: "mail-folder-inbox", glyph: "📥"),
        "archivebox": Entry(themeName: "folder", glyph: "🗃"),
        "trash": Entry(themeName: "edit-delete", glyph: "🗑"),
        "paperclip": Entry(themeName: "mail-attachment", glyph: "📎"),
        "link": Entry(themeName: "insert-link", glyph: "🔗"),
        "bookmark": Entry(themeName: "user-bookmarks", glyph: "🔖"),
        "book": Entry(themeName: "accessories-dictionary", glyph: "📖"),
        "tag": Entry(themeName: "bookmark-new", glyph: "🏷"),
        "hand.wave": Entry(themeName: "face-smile", glyph: "👋"),
        "hand.thumbsup": Entry(themeName: "face-smile", glyph: "👍"),
        "hand.thumbsdown": Entry(themeName: "face-sad", glyph: "👎"),
        "face.smiling": Entry(themeName: "face-smile", glyph: "🙂"),
        "face.dashed": Entry(themeName: "face-plain", glyph: "😶"),
        "person": Entry(themeName: "user-info", glyph: "👤"),
        "person.2": Entry(themeName: "system-users", glyph: "👥"),
        "person.crop.circle": Entry(themeName: "avatar-default", glyph: "👤"),
        "eye": Entry(themeName: "view-reveal", glyph: "👁"),
        "brain": Entry(themeName: "emblem-system", glyph: "🧠"),
        "lungs": Entry(themeName: "emblem-system", glyph: "🫁"),
        "cross": Entry(themeName: "emblem-important", glyph: "➕"),
        "pills": Entry(themeName: "emblem-important", glyph: "💊"),
        "bandage": Entry(themeName: "emblem-important", glyph: "🩹"),
        "stethoscope": Entry(themeName: "emblem-important", glyph: "🩺"),
        "bed.double": Entry(themeName: "weather-clear-night", glyph: "🛏"),
        "moon": Entry(themeName: "weather-clear-night", glyph: "🌙"),
        "moon.zzz": Entry(themeName: "weather-clear-night", glyph: "💤"),
        "sun.max": Entry(themeName: "weather-clear", glyph: "☀"),
        "sunrise": Entry(themeName: "weather-few-clouds", glyph: "🌅"),
        "cloud": Entry(themeName: "weather-overcast", glyph: "☁"),
        "cloud.rain": Entry(themeName: "weather-showers", glyph: "🌧"),
        "snowflake": Entry(themeName: "weather-snow", glyph: "❄"),
        "thermometer": Entry(themeName: "weather-clear", glyph: "🌡"),
        "drop": Entry(themeName: "weather-showers", glyph: "💧"),
        "leaf": Entry(themeName: "emblem-favorite", glyph: "🍃"),
        "fork.knife": Entry(themeName: "emblem-favorite", glyph: "🍴"),
        "cup.and.saucer": Entry(themeName: "emblem-favorite", glyph: "☕"),
        "mug": Entry(themeName: "emblem-favorite", glyph: "☕"),
        "wineglass": Entry(themeName: "emblem-favorite", glyph: "🍷"),
        "carrot": Entry(themeName: "emblem-favorite", glyph: "🥕"),
        "scalemass": Entry(themeName: "accessories-calculator", glyph: "⚖"),
        "ruler": Entry(themeName: "accessories-calculator", glyph: "📏"),
        "dumbbell": Entry(themeName: "emoji-activities", glyph: "🏋"),
        "sportscourt": Entry(themeName: "emoji-activities", glyph: "🏟"),
        "bicycle": Entry(themeName: "emoji-activities", glyph: "🚲"),
        "shoeprints.fill": Entry(themeName: "emoji-activities", glyph: "👣"),
        "timer": Entry(themeName: "appointment-soon", glyph: "⏲"),
        "stopwatch": Entry(themeName: "appointment-soon", glyph: "⏱"),
        "hourglass": Entry(themeName: "appointment-soon", glyph: "⏳"),
        "alarm": Entry(themeName: "appointment-soon", glyph: "⏰"),
        "clock": Entry(themeName: "appointment-soon", glyph: "🕒"),
        "calendar": Entry(themeName: "x-office-calendar", glyph: "📅"),
        "calendar.badge.plus": Entry(themeName: "appointment-new", glyph: "📅"),
        "bell": Entry(themeName: "preferences-system-notifications", glyph: "🔔"),
        "bell.slash": Entry(themeName: "notifications-disabled", glyph: "🔕"),
        "magnifyingglass": Entry(themeName: "edit-find", glyph: "🔍"),
        "globe": Entry(themeName: "applications-internet", glyph: "🌐"),
        "map": Entry(themeName: "go-jump", glyph: "🗺"),
        "location": Entry(themeName: "go-jump", glyph: "🧭"),
        "mappin": Entry(themeName: "bookmark-new", glyph: "📍"),
        "house": Entry(themeName: "go-home", glyph: "🏠"),
        "car": Entry(themeName: "emblem-default", glyph: "🚗"),
        "airplane": Entry(themeName: "airplane-mode", glyph: "✈"),
        "envelope": Entry(themeName: "mail-unread", glyph: "✉"),
        "paperplane": Entry(themeName: "mail-send", glyph: "📨"),
        "bubble.left": Entry(themeName: "mail-message-new", glyph: "💬"),
        "message": Entry(themeName: "mail-message-new", glyph: "💬"),
        "phone": Entry(themeName: "call-start", glyph: "📞"),
        "video": Entry(themeName: "camera-video", glyph: "🎥"),
        "camera": Entry(themeName: "camera-photo", glyph: "📷"),
        "photo": Entry(themeName: "image-x-generic", glyph: "🖼"),
        "mic": Entry(themeName: "audio-input-microphone", glyph: "🎤"),
        "music.note": Entry(themeName: "audio-x-generic", glyph: "🎵"),
        "speaker.wave.2": Entry(themeName: "audio-volume-high", glyph: "🔊"),
        "speaker.slash": Entry(themeName: "audio-volume-muted", glyph: "🔇"),
        "headphones": Entry(themeName: "audio-headphones", glyph: "🎧"),
        "play": Entry(themeName: "media-playback-start", glyph: "▶"),
        "pause": Entry(themeName: "media-playback-pause", glyph: "⏸"),
        "stop": Entry(themeName: "media-playback-stop", glyph: "⏹"),
        "forward": Entry(themeName: "media-seek-forward", glyph: "⏩"),
        "backward": Entry(themeName: "media-seek-backward", glyph: "⏪"),
        "shuffle": Entry(themeName: "media-playlist-shuffle", glyph: "🔀"),
        "repeat": Entry(themeName: "media-playlist-repeat", glyph: "🔁"),
        "gift": Entry(themeName: "emblem-favorite", glyph: "🎁"),
        "cart": Entry(themeName: "emblem-default", glyph: "🛒"),
        "creditcard": Entry(themeName: "accessories-calculator", glyph: "💳"),
        "dollarsign": Entry(themeName: "accessories-calculator", glyph: "💲"),
        "eurosign": Entry(themeName: "accessories-calculator", glyph: "💶"),
        "lock": Entry(themeName: "system-lock-screen", glyph: "🔒"),
        "lock.open": Entry(themeName: "changes-allow", glyph: "🔓"),
        "key": Entry(themeName: "dialog-password", glyph: "🔑"),
        "gear": Entry(themeName: "preferences-system", glyph: "⚙"),
        "gearshape": Entry(themeName: "preferences-system", glyph: "⚙"),
        "slider.horizontal.3": Entry(themeName: "preferences-system", glyph: "🎚"),
        "wrench": Entry(themeName: "preferences-other", glyph: "🔧"),
        "hammer": Entry(themeName: "preferences-other", glyph: "🔨"),
        "power": Entry(themeName: "system-shutdown", glyph: "⏻"),
        "wifi": Entry(themeName: "network-wireless", glyph: "📶"),
        "battery.100": Entry(themeName: "battery-full", glyph: "🔋"),
        "lightbulb": Entry(themeName: "dialog-information", glyph: "💡"),
        "info": Entry(themeName: "dialog-information", glyph: "ℹ"),
        "questionmark": Entry(themeName: "help-browser", glyph: "❓"),
        "exclamationmark.triangle": Entry(themeName: "dialog-warning", glyph: "⚠"),
        "printer": Entry(themeName: "printer", glyph: "🖨"),
        "desktopcomputer": Entry(themeName: "computer", glyph: "🖥"),
        "laptopcomputer": Entry(themeName: "computer", glyph: "💻"),
        "iphone": Entry(themeName: "phone", glyph: "📱"),
        "keyboard": Entry(themeName: "input-keyboard", glyph: "⌨"),
        "terminal": Entry(themeName: "utilities-terminal", glyph: "💻"),
        "gamecontroller": Entry(themeName: "input-gaming", glyph: "🎮"),
        "paintbrush": Entry(themeName: "applications-graphics", glyph: "🖌"),
        "scissors": Entry(themeName: "edit-cut", glyph: "✂"),
        "doc.on.doc": Entry(themeName: "edit-copy", glyph: "📋"),
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
