import Foundation
import HostModel
import HostStorage
import HostSurfaces
import HostMenu

/// `export desktop --install`: the application's `.desktop` file in `$XDG_DATA_HOME/applications/`,
/// which puts the quick actions on the desktop's app-icon menu, the D-Bus service file that
/// lets the desktop start the warm server to run them, and keeping the file current.
///
/// Installing records the file, the executables and the options it was made with (manifest,
/// defines, language, trust) in the host's state; from then on every change of the stored
/// dynamic items (a handled run, `refresh`, `dynamic set|clear`) rewrites the file from the menu
/// those options give, whatever options the command that made the change had.
public enum DesktopInstallation {
    static let settingKey = "desktop.export"
    /// The application id: the desktop file's name, the bus name the warm server owns, and the
    /// name KDE and GNOME derive the object path from. Reverse-DNS without `-` (KDE's
    /// object-path mapping does not turn `-` back).
    public static let applicationID = "org.standfit.Host"
    /// The object path `org.freedesktop.Application` is served at: the id with `.` as `/`.
    public static let objectPath = "/org/standfit/Host"
    /// The object path `org.kde.krunner1` is served at (the KRunner plugin file names it).
    public static let runnerPath = "/org/standfit/Host/Runner"
    /// The object path `org.gnome.Shell.SearchProvider2` is served at (the search provider file names it).
    public static let searchProviderPath = "/org/standfit/Host/SearchProvider"
    /// The search provider file's name, in `gnome-shell/search-providers/` of a system data directory.
    public static let searchProviderFileName = "\(applicationID).search-provider.ini"
    /// The desktop file id: a `DBusActivatable` entry must be named after the application id.
    public static let fileName = "\(applicationID).desktop"
    /// What earlier versions installed, removed when the file is installed again.
    static let earlierFileName = "standfit-host.desktop"
    public static let applicationName = "StandFit"

    /// What an installation was made with.
    public struct Record: Codable, Equatable, Sendable {
        /// The installed desktop file.
        public var path: String
        /// The command its Exec lines run (the thin client).
        public var executable: String
        /// The D-Bus service file, and the full host its Exec line starts as the server.
        public var serviceFile: String?
        public var server: String?
        /// The entries of the apps that have one of their own, beside the host's (nil in a
        /// record of a version that wrote the host's alone).
        public var appFiles: [String]?
        /// The options the entry's menu was made with: the manifest (absolute), its defines,
        /// the language, and whether only trusted plugins load.
        public var manifest: String?
        public var defines: [String: String]
        public var locale: String?
        public var requireTrusted: Bool
        /// Without `locale`, the language the installing command ran in: what every rewrite and
        /// every request from the desktop is said in, whatever language the command that
        /// changed the items later ran in (nil in a record of an earlier version).
        public var language: String?

        /// The same options as command-line arguments, for the Exec lines.
        public var arguments: [String] {
            var arguments: [String] = []
            if let manifest { arguments += ["--manifest", manifest] }
            for (name, value) in defines.sorted(by: { $0.key < $1.key }) { arguments += ["--define", "\(name)=\(value)"] }
            if let locale { arguments += ["--locale", locale] }
            if requireTrusted { arguments.append("--require-trusted") }
            return arguments
        }

        /// `options` with these options in place of the command's own.
        public func applied(to options: HostOptions) -> HostOptions {
            var options = options
            options.manifestPath = manifest
            options.defines = defines
            options.locale = locale ?? language
            options.requireTrusted = requireTrusted
            return options
        }

        /// Whether a session made with `options` shows the menu this installation shows.
        func matches(_ options: HostOptions) -> Bool {
            let base = { (tag: String?) in tag.map(LanguagePreference.base(of:)) }
            let languageMatches = language == nil && locale == nil ? options.locale == nil
                : base(options.locale ?? options.languagePreference.language(fallback: nil)) == base(locale ?? language)
            return options.manifestPath.map { options.request.url(forPath: $0).path } == manifest && options.defines == defines
                && languageMatches && options.requireTrusted == requireTrusted
        }
    }

    /// `$XDG_DATA_HOME/applications/org.standfit.Host.desktop`.
    public static func defaultURL(paths: HostPaths) -> URL {
        paths.dataDirectory.deletingLastPathComponent()
            .appendingPathComponent("applications", isDirectory: true)
            .appendingPathComponent(fileName)
    }

    /// `$XDG_DATA_HOME/dbus-1/services/org.standfit.Host.service`, where the session bus looks
    /// for what starts a name nobody owns yet.
    public static func serviceURL(paths: HostPaths) -> URL {
        paths.dataDirectory.deletingLastPathComponent()
            .appendingPathComponent("dbus-1/services", isDirectory: true)
            .appendingPathComponent("\(applicationID).service")
    }

    /// `$XDG_DATA_HOME/krunner/dbusplugins/org.standfit.Host.desktop`, where KRunner finds D-Bus runners.
    public static func runnerURL(paths: HostPaths) -> URL {
        paths.dataDirectory.deletingLastPathComponent()
            .appendingPathComponent("krunner/dbusplugins", isDirectory: true)
            .appendingPathComponent(fileName)
    }

    /// KRunner's plugin file for the server's runner, with the session's application icon:
    /// KRunner asks `org.kde.krunner1` at
    /// `runnerPath` on the application id (the bus starts the server when needed), `Config`
    /// included (API DBus2).
    public static func runnerText(session: HostSession) throws(HostError) -> String {
        runnerText(icon: try entries(session: session, executable: "", localized: false)[0].entry.icon)
    }

    static func runnerText(icon: String?) -> String {
        var lines = [
            "[Desktop Entry]", "Type=Service", "Name=\(applicationName)",
            "Comment=Quick actions: say what to do, such as \"log 20 squats\"",
        ]
        if let icon { lines.append("Icon=\(icon)") }
        lines += [
            "X-KDE-ServiceTypes=Plasma/Runner", "X-KDE-PluginInfo-Name=\(applicationID)",
            "X-KDE-PluginInfo-EnabledByDefault=true", "X-Plasma-API-Minimum-Version=2.0", "X-Plasma-API=DBus2",
            "X-Plasma-DBusRunner-Service=\(applicationID)", "X-Plasma-DBusRunner-Path=\(runnerPath)",
            "X-Plasma-Request-Actions-Once=true",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// GNOME Shell's search provider file: GNOME asks `org.gnome.Shell.SearchProvider2` at
    /// `searchProviderPath` on the application id (the bus starts the server when needed), and
    /// shows the results under the app of `DesktopId` (the installed desktop file).
    public static let searchProviderText = """
        [Shell Search Provider]
        DesktopId=\(fileName)
        BusName=\(applicationID)
        ObjectPath=\(searchProviderPath)
        Version=2

        """

    /// Installs KRunner's plugin file `text` (`runnerText`) and the D-Bus service file that
    /// starts `server` for it.
    public static func installRunner(_ text: String, paths: HostPaths, server: String) throws(HostError) -> (runner: URL, service: URL) {
        let runner = runnerURL(paths: paths), service = serviceURL(paths: paths)
        try write(serviceText(server: server), to: service, what: "D-Bus service file")
        try write(text, to: runner, what: "KRunner plugin file")
        return (runner, service)
    }

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
                                            actionIDs: actions.map(\.id), iconFile: iconFile)
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
            return EntryFile(app: app, fileName: app.map { appFileName(of: $0) } ?? fileName, entry: entry)
        }
    }

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

    /// A manifest item's icon as an image file beside its manifest
    /// (`UIApplicationShortcutItemIconFile`: the name, or the name with `.png`, `@2x.png`,
    /// `@3x.png` or `.svg`, as an app bundle holds it); nil for an icon the theme names.
    static func iconFile(of item: ShortcutItem) -> String? {
        guard let icon = item.icon, !icon.isEmpty, item.source == .static, item.origin.hasPrefix("/"),
              IconCatalog.themeName(for: icon) == nil, !icon.contains("/") || icon.hasPrefix("/") else { return nil }
        let directory = URL(fileURLWithPath: item.origin).deletingLastPathComponent()
        let candidates = icon.hasPrefix("/") ? [icon]
            : ["", ".png", "@2x.png", "@3x.png", ".svg"].map { directory.appendingPathComponent(icon + $0).path }
        var isDirectory: ObjCBool = false
        return candidates.first { FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue }
    }

    /// Writes `text` to `url`, replacing any file there in one rename, so a desktop never reads
    /// half a file.
    public static func write(_ text: String, to url: URL, what: String) throws(HostError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        } catch {
            throw HostError(.io, "Cannot write the \(what) \(url.path) (\(error.localizedDescription)); check that its directory is writable.", cause: error)
        }
    }

    /// Writes the entry to `url`.
    public static func write(_ entry: DesktopEntry, to url: URL) throws(HostError) {
        try write(entry.text, to: url, what: "desktop file")
    }

    /// The D-Bus service file: the bus starts `server serve --dbus-activated` when something
    /// asks for the application id and no server owns it.
    public static func serviceText(server: String) -> String {
        "[D-BUS Service]\nName=\(applicationID)\nExec=\(serviceExecWord(server)) serve --dbus-activated\n"
    }

    /// A word of a service file's Exec line, which the bus splits as a shell would: quoted when
    /// it holds anything but plain path characters.
    ///
    /// Rationale: dbus-daemon parses Exec with its own shell-like splitter (quotes and
    /// backslashes, no expansion); single quotes keep every other character as it is.
    static func serviceExecWord(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+,:@=".unicodeScalars.contains(scalar))
        }
        if plain && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// What installing for `session` records: its options, the installed places, and the
    /// executables.
    public static func record(for session: HostSession, executable: String, server: String) -> Record {
        let options = session.options
        return Record(path: defaultURL(paths: session.paths).path, executable: executable,
                      serviceFile: serviceURL(paths: session.paths).path, server: server,
                      manifest: options.manifestPath.map { options.request.url(forPath: $0).path },
                      defines: options.defines, locale: options.locale, requireTrusted: options.requireTrusted,
                      language: options.locale == nil ? session.language : nil)
    }

    /// Installs the desktop files (the host's D-Bus activatable, each other app's beside it) and
    /// the service file that starts `server`, and remembers them with the session's options:
    /// the record and the files written.
    @discardableResult
    public static func install(session: HostSession, executable: String, server: String) throws(HostError) -> (record: Record, files: [EntryFile]) {
        var record = record(for: session, executable: executable, server: server)
        // The providers' items in the entry's language: stored now, they are kept current in it
        // (every refresh asks again in each language stored). Other languages' dynamic items are
        // named where they are stored already; storing them here would ask every provider once
        // more per language on every refresh from now on, and keep a warm worker per language.
        _ = session.storeProvidedItems(of: nil)
        try write(serviceText(server: server), to: serviceURL(paths: session.paths), what: "D-Bus service file")
        let earlier = try? installation(session: session)
        let files = try entries(session: session, executable: executable, arguments: record.arguments, installed: true)
        record.appFiles = try write(files, host: record.path, replacing: earlier?.appFiles ?? [])
        // The file an earlier installation wrote elsewhere, or under the name earlier versions used.
        let earlierName = defaultURL(paths: session.paths).deletingLastPathComponent().appendingPathComponent(earlierFileName).path
        for old in [earlier?.path, earlierName].compactMap({ $0 }) where old != record.path {
            try? FileManager.default.removeItem(atPath: old)
        }
        try remember(record, in: session.state)
        return (record, files)
    }

    /// Writes `files`: the host's entry at `host`, each app's beside it; removes the app
    /// entries of `replacing` that are no longer written (an app without items, or gone).
    /// The app entries' paths.
    private static func write(_ files: [EntryFile], host: String, replacing earlier: [String]) throws(HostError) -> [String] {
        let directory = URL(fileURLWithPath: host).deletingLastPathComponent()
        var written: [String] = []
        for file in files {
            let url = file.app == nil ? URL(fileURLWithPath: host) : directory.appendingPathComponent(file.fileName)
            try write(file.entry, to: url)
            if file.app != nil { written.append(url.path) }
        }
        for old in earlier where !written.contains(old) {
            try? FileManager.default.removeItem(atPath: old)
        }
        return written
    }

    private static func remember(_ record: Record, in state: HostState) throws(HostError) {
        let text: String
        do {
            text = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        } catch {
            throw HostError(.io, "Cannot record the desktop installation: \(error)", cause: error)
        }
        try state.setSetting(settingKey, text)
    }

    /// What the installed file was made with, when one is installed. A record of an earlier
    /// version (path and executable only) reads as made with the default options.
    public static func installation(session: HostSession) throws(HostError) -> Record? {
        try installation(state: session.state)
    }

    static func installation(state: HostState) throws(HostError) -> Record? {
        guard let text = try state.setting(settingKey) else { return nil }
        if let record = try? JSONDecoder().decode(Record.self, from: Data(text.utf8)) { return record }
        guard case .object(let values)? = JSONValue(jsonText: text),
              case .string(let path)? = values["path"], case .string(let executable)? = values["executable"]
        else { return nil }
        return Record(path: path, executable: executable, defines: [:], requireTrusted: false)
    }

    /// Whether a desktop file is installed; an unreadable state says so under --verbose.
    static func isInstalled(session: HostSession) -> Bool {
        do {
            return try installation(session: session) != nil
        } catch {
            session.logger.warning("\(error.message)")
            return false
        }
    }

    /// `options` with the installed file's options in place of their own, when a file is
    /// installed: what a request of the desktop's runs with. Reads the host's state alone, so
    /// that the request's session is made once, with the right options.
    public static func installedOptions(_ options: HostOptions) throws(HostError) -> HostOptions {
        guard let record = try installation(state: options.state(of: options.request.paths)) else { return options }
        return record.applied(to: options)
    }

    /// A session with the installation's options: `session` itself when it has them.
    public static func session(for record: Record, from session: HostSession) throws(HostError) -> HostSession {
        if record.matches(session.options) { return session }
        return try HostSession(options: record.applied(to: session.options), logger: session.logger)
    }

    /// Rewrites the installed file, if one is installed, from the menu its options give.
    static func update(session: HostSession) throws(HostError) {
        guard var record = try installation(session: session) else { return }
        let installed = try self.session(for: record, from: session)
        let appFiles = try write(entries(session: installed, executable: record.executable, arguments: record.arguments,
                                         installed: record.serviceFile != nil),
                                 host: record.path, replacing: record.appFiles ?? [])
        if appFiles != record.appFiles ?? [] {
            record.appFiles = appFiles
            try remember(record, in: session.state)
        }
    }
}
