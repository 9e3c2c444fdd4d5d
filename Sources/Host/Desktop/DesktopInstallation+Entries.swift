import Foundation
import StandFitHost
import HostModel
import HostStorage
import HostSurfaces
import HostMenu

/// The desktop entries: the host's and each other app's, their actions (keys unique across
/// them), names in every language, Comment= and Keywords=.
extension DesktopInstallation {
    /// The session's visible items, every app's, with the keys their desktop actions have:
    /// what `ActivateAction` is asked to run, by key; with `app`, that app's alone (with the
    /// keys they have among every app's).
    public static func actions(session: HostSession, limit: Int? = nil, app: String? = nil) throws(HostError) -> [(key: String, item: ShortcutItem)] {
        let menu = try session.menu(limit: limit)
        return actions(of: menu, app: try app.map { name throws(HostError) in [try HostSession.app(named: name, in: menu)] })
    }

    /// `menu`'s visible items with their desktop action keys (made unique among all of them),
    /// of `apps` alone when given.
    public static func actions(of menu: Menu, app apps: [MenuApp]?) -> [(key: String, item: ShortcutItem)] {
        let visible = menu.visible
        let keyed = zip(DesktopEntry.actionIDs(for: visible.map(\.item)), visible)
        return keyed.filter { apps?.contains($0.1.app) ?? true }.map { (key: $0.0, item: $0.1.item) }
    }

    /// One desktop file: the host's entry or an app's own.
    public struct EntryFile: Sendable {
        /// The app whose own entry it is; nil for the host's (`org.standfit.Host`).
        public var app: MenuApp?
        /// Its name in `applications/`.
        public var fileName: String
        public var entry: DesktopEntry
    }

    /// The desktop entries for the session's menus, a menu per app as a dock shows apps: first
    /// the host's (`org.standfit.Host`), with the quick actions of the apps the host bundles
    /// (StandFit's); then one for each other app that has items (a plugin, the routines), named
    /// after it, its `menu` opening that app's menu alone. Their Exec lines carry `arguments`;
    /// `installed` entries need no terminal (`run --notify`, `menu --notify`) and the host's is
    /// D-Bus activatable. Action ids are unique across all the entries, so `ActivateAction`
    /// finds any. Each action's name comes in every other language the host, the manifest (its
    /// `.lproj` directories) and the stored dynamic items have (`Name[nl]=`), where it differs.
    public static func entries(session: HostSession, executable: String, arguments: [String] = [],
                               installed: Bool = false, limit: Int? = nil, localized: Bool = true) throws(HostError) -> [EntryFile] {
        let visible = try session.menu(limit: limit).visible
        let bundled = Set(session.plugins.plugins.filter(\.isBundled).map(\.id))
        var groups: [(app: MenuApp?, actions: [(id: String, item: ShortcutItem)])] = [(nil, [])]
        for (id, shown) in zip(DesktopEntry.actionIDs(for: visible.map(\.item)), visible) {
            let app: MenuApp? = bundled.contains(shown.app.id) ? nil : shown.app
            if let index = groups.firstIndex(where: { $0.app == app }) {
                groups[index].actions.append((id, shown.item))
            } else {
                groups.append((app, [(id, shown.item)]))
            }
        }
        let translations = localized ? translatedNames(of: session, limit: limit) : []
        return groups.map { app, actions in
            var entry = DesktopEntry.export(items: actions.map(\.item), executable: executable,
                                            applicationName: app?.name ?? applicationName, options: arguments,
                                            dbusActivatable: installed && app == nil, notify: installed,
                                            menuArguments: app.map { ["--app", $0.id] } ?? [],
                                            actionIDs: actions.map(\.id), iconFile: DesktopEntry.iconFile(of:), icons: session.icons,
                                            appIcon: app == nil && session.icons.installed ? OwnIcons.appIcon : nil)
            for (language, names) in translations {
                for (index, action) in actions.enumerated() {
                    if let name = names[identity(of: action.item)], name != entry.actions[index].name {
                        entry.actions[index].localizedNames[language] = name
                    }
                }
            }
            // What launchers' search finds the app by: its actions, in every language named.
            let described = { (language: String, names: [String]) -> (String?, [String]) in
                let text = HostText(language: language)
                // The titles, without what a subtitle says of now ("View Streak", not "— 1 day").
                let names = names.map { $0.components(separatedBy: " — ")[0] }
                return (names.isEmpty ? nil : text("desktop.comment", ["actions": text.list(names)]),
                        keywords(names + [text("desktop.keyword")]))
            }
            (entry.comment, entry.keywords) = described(session.language, entry.actions.map(\.name))
            for language in Set(entry.actions.flatMap(\.localizedNames.keys)).union(HostText.languages)
                where LanguagePreference.base(of: language) != LanguagePreference.base(of: session.language) {
                let names = entry.actions.map { $0.localizedNames[language] ?? $0.name }
                (entry.localizedComments[language], entry.localizedKeywords[language]) = described(language, names)
            }
            if installed && app == nil { entry.actions.append(listenAction(session: session, executable: executable, arguments: arguments)) }
            return EntryFile(app: app, fileName: app.map { appFileName(of: $0) } ?? fileName, entry: entry)
        }
    }

    /// The installed host entry's Listen action, after the quick actions: a sentence spoken and
    /// run (`listen --notify`: the question and the outcome as notifications), the desktop's
    /// way to what a global shortcut runs. Through the bus, `ActivateAction` runs it in the
    /// server. Named in every language the host speaks; not one of the menu's quick actions, so
    /// neither the picker nor the Comment= and Keywords= list it.
    ///
    /// Rationale: always there, whether or not the recogniser and a model are installed (the
    /// package only suggests them): pressed without them it says in a notification what to
    /// install, where a missing action would leave speech undiscoverable and the file would
    /// depend on what else the machine has.
    static func listenAction(session: HostSession, executable: String, arguments: [String]) -> DesktopEntry.Action {
        var names: [String: String] = [:]
        for language in HostText.languages where LanguagePreference.base(of: language) != LanguagePreference.base(of: session.language) {
            names[language] = HostText(language: language)("listen.action")
        }
        return DesktopEntry.Action(id: DesktopEntry.listenActionID, name: HostText(language: session.language)("listen.action"),
                                   localizedNames: names, icon: listenIcon, exec: [executable, "listen", "--notify"] + arguments)
    }

    /// The Icon Naming Specification's microphone, which every icon theme has.
    public static let listenIcon = "audio-input-microphone"

    /// The words of `names` a search may be typed as: each word of three letters or more, once,
    /// in the order they come, at most 16.
    static func keywords(_ names: [String]) -> [String] {
        var seen = Set<String>()
        let words = names.flatMap { $0.split { !$0.isLetter && $0 != "-" }.map(String.init) }
        return Array(words.filter { $0.count >= 3 && seen.insert($0.lowercased()).inserted }.prefix(16))
    }

    /// An item is the same in another language when its type and userInfo are: its action id
    /// depends on the menu's order, which another language's stored items need not share.
    private static func identity(of item: ShortcutItem) -> String {
        "\(item.type)\u{0}\(JSONValue.object(item.userInfo).jsonText)"
    }

    /// The visible items' names in every other language (`otherLanguageSessions`), by identity.
    private static func translatedNames(of session: HostSession, limit: Int?) -> [(String, [String: String])] {
        otherLanguageSessions(of: session).compactMap { language, other in
            guard let items = try? other.menu(limit: limit).visible.map(\.item) else { return nil }
            return (language, Dictionary(items.map { (identity(of: $0), DesktopNotification.name(of: $0)) },
                                         uniquingKeysWith: { first, _ in first }))
        }
    }

    /// An app's own desktop file: `org.standfit.Host.<app id>.desktop` (`org.standfit.Host.user`
    /// for the routines), a character outside `[A-Za-z0-9._-]` written `_`.
    public static func appFileName(of app: MenuApp) -> String {
        let id = String(app.id.unicodeScalars.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        })
        return "\(applicationID).\(id).desktop"
    }

    /// The languages the host speaks itself; a desktop file names its actions in each.
    static var hostLanguages: [String] { HostText.languages }

    /// The languages other than the session's that the host, the manifest's `.lproj`
    /// directories and the stored dynamic items have, each with a session in it (the session's
    /// other options kept).
    static func otherLanguageSessions(of session: HostSession) -> [(String, HostSession)] {
        var languages = hostLanguages
        if let manifest = session.manifest.path {
            let directory = URL(fileURLWithPath: manifest).deletingLastPathComponent()
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            languages += names.filter { $0.hasSuffix(".lproj") && $0 != "Base.lproj" }
                .map { String($0.dropLast(".lproj".count)).replacingOccurrences(of: "-", with: "_") }
        }
        for plugin in session.plugins.plugins {
            languages += (try? session.state.languages(of: plugin.id)) ?? []
        }
        let base = { (tag: String) in tag.lowercased().prefix { $0 != "_" && $0 != "-" } }
        var seen: Set<String> = [session.language.lowercased()]
        return languages.compactMap { language in
            guard DesktopEntry.isValidLocale(language), base(language) != base(session.language),
                  seen.insert(language.lowercased()).inserted else { return nil }
            var options = session.options
            options.locale = language
            // Its plugin refusals and routine problems were the session's own to say, once.
            var quiet = session.logger
            quiet.logLevel = .error
            return (try? HostSession(options: options, logger: quiet)).map { (language, $0) }
        }
    }
}
