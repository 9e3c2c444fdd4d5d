import Foundation
import HostModel

/// The quick actions as a `.desktop` file: the Linux desktop's app-icon menu.
extension DesktopEntry {
    /// The icon of an entry whose first item has no icon the catalog knows.
    public static let fallbackIcon = OwnIcons.themeFallback

    /// The entry for `items`: opening it runs `executable menu OPTIONS` in a terminal, and each
    /// item is an action running `executable run OPTIONS [--user-info JSON] -- TYPE`, where
    /// `options` are the command-line options the entry was made with (`--manifest PATH`, …).
    /// A `dbusActivatable` entry (installed with the service that lets the bus start the
    /// server) needs no terminal: its fallback Exec lines are `menu --notify` and `run
    /// --notify`, so the picker and the outcome come as notifications there too.
    ///
    /// An action is named by the item's title, plus ` — ` and the subtitle when there is one;
    /// its id comes from the type (`actionID(for:taken:)`), unique within the file.
    ///
    /// Rationale: the entry's icon is the first item's, the app's primary action (for StandFit,
    /// logging exercise), so the launcher shows what the app is for; `fallbackIcon` otherwise.
    ///
    /// `iconFile` gives an item's icon as an image file (an absolute path), where it has one;
    /// otherwise its icon's theme name is used.
    ///   - notify: the Exec lines run with `--notify` and no terminal (an installed entry); by
    ///     default when the entry is D-Bus activatable.
    ///   - menuArguments: more arguments for the entry's own `menu` command (`--app ID`).
    ///   - actionIDs: each item's action id (by default `actionIDs(for: items)`).
    public static func export(items: [ShortcutItem], executable: String, applicationName: String,
                              options: [String] = [], dbusActivatable: Bool = false, notify: Bool? = nil,
                              menuArguments: [String] = [], actionIDs ids: [String]? = nil,
                              iconFile: (ShortcutItem) -> String? = { _ in nil }, icons: OwnIcons = .none,
                              appIcon: String? = nil) -> DesktopEntry {
        let notify = notify ?? dbusActivatable
        let actions = zip(ids ?? actionIDs(for: items), items).map { id, item in
            // `--` ends the options, so no type (not even one starting with "-") reads as one.
            var exec = [executable, "run"] + (notify ? ["--notify"] : []) + options
            if !item.userInfo.isEmpty { exec += ["--user-info", userInfoArgument(item.userInfo)] }
            exec += ["--", item.type]
            return Action(id: id, name: DesktopNotification.name(of: item), icon: iconFile(item) ?? icons.themeName(for: item.icon),
                          exec: exec)
        }
        return DesktopEntry(
            name: applicationName,
            icon: appIcon ?? items.first.flatMap(iconFile) ?? icons.themeName(for: items.first?.icon) ?? fallbackIcon,
            exec: [executable, "menu"] + (notify ? ["--notify"] : []) + options + menuArguments,
            terminal: !notify,
            categories: ["Utility"],
            actions: actions,
            dbusActivatable: dbusActivatable)
    }

    /// The installed host entry's own action beside the quick actions: `listen --notify`, a
    /// sentence spoken and run (`DesktopInstallation.entries`). Reserved: no item's id is this.
    public static let listenActionID = "listen"

    /// The action identifiers of `items` in an exported entry, in order: each derived from the
    /// item's type (`actionID(for:taken:)`), unique within the file and never
    /// `listenActionID`. They are the keys the desktop passes to
    /// `org.freedesktop.Application.ActivateAction`.
    public static func actionIDs(for items: [ShortcutItem]) -> [String] {
        var taken: Set<String> = [listenActionID]
        return items.map { item in
            let id = actionID(for: item.type, taken: taken)
            taken.insert(id)
            return id
        }
    }

    /// `userInfo` as the canonical JSON text, with DEL written `\u007f`.
    ///
    /// Rationale: JSON leaves DEL raw inside strings, and an Exec line cannot carry it (see
    /// `execLine`); as a JSON escape it costs nothing and the value still decodes the same.
    static func userInfoArgument(_ userInfo: [String: JSONValue]) -> String {
        let text = JSONValue.object(userInfo).jsonText
        guard text.unicodeScalars.contains("\u{7F}") else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\u{7F}" {
                result.append(contentsOf: "\\u007f".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}

extension DesktopEntry {
    /// A manifest item's icon as an image file beside its manifest
    /// (`UIApplicationShortcutItemIconFile`: the name, or the name with `.png`, `@2x.png`,
    /// `@3x.png` or `.svg`, as an app bundle holds it); nil for an icon the theme names.
    public static func iconFile(of item: ShortcutItem) -> String? {
        guard let icon = item.icon, !icon.isEmpty, item.source == .static, item.origin.hasPrefix("/"),
              IconCatalog.themeName(for: icon) == nil, !icon.contains("/") || icon.hasPrefix("/") else { return nil }
        let directory = URL(fileURLWithPath: item.origin).deletingLastPathComponent()
        let candidates = icon.hasPrefix("/") ? [icon]
            : ["", ".png", "@2x.png", "@3x.png", ".svg"].map { directory.appendingPathComponent(icon + $0).path }
        var isDirectory: ObjCBool = false
        return candidates.first { FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue }
    }
}
