import Foundation
import StandFitHost
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
        /// The host's own icons it installed under `$XDG_DATA_HOME/icons` (none when the
        /// package or `Scripts/install` put them where the desktop looks already).
        public var iconFiles: [String]?
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
        var session = session
        var record = record(for: session, executable: executable, server: server)
        let earlier = try? installation(session: session)
        // The host's own icons, where the desktop does not find them in a system data directory
        // (a build tree, a prefix off its data directories): copied, and kept as long as the
        // installation. A copy an earlier install made goes once the package provides them, so
        // that it does not shadow theirs.
        let directories = OwnIcons.dataDirectories(dataHome: session.paths.dataDirectory.deletingLastPathComponent(),
                                                   environment: session.request.environment)
        let systemHasIcons = directories.dropFirst().contains { FileManager.default.fileExists(atPath: OwnIcons.marker(in: $0).path) }
        // In the data home but not copied by an installation: `Scripts/install`'s own (its prefix ~/.local).
        let homeMarker = OwnIcons.marker(in: directories[0]).path
        let installedInHome = FileManager.default.fileExists(atPath: homeMarker) && !(earlier?.iconFiles ?? []).contains(homeMarker)
        if systemHasIcons {
            for file in earlier?.iconFiles ?? [] { try? FileManager.default.removeItem(atPath: file) }
        } else if installedInHome {
            record.iconFiles = nil
        } else if let source = iconSource(executable: server) {
            record.iconFiles = try installIcons(from: source, paths: session.paths)
            session.icons = OwnIcons(installed: true)
        } else {
            record.iconFiles = earlier?.iconFiles
        }
        // The providers' items in the entry's language: stored now, they are kept current in it
        // (every refresh asks again in each language stored). Other languages' dynamic items are
        // named where they are stored already; storing them here would ask every provider once
        // more per language on every refresh from now on, and keep a warm worker per language.
        _ = session.storeProvidedItems(of: nil)
        record.serviceFile = try installService(server: server, paths: session.paths, environment: session.request.environment).path
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
            throw HostError(.io, key: "error.desktopRecord", ["why": "\(error)"], cause: error)
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
            session.logger.warning("\(error.message(in: session.language))")
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

    /// The installed file's options as command-line arguments (`Record.arguments`); none when no
    /// file is installed.
    public static func installedArguments(_ options: HostOptions) throws(HostError) -> [String] {
        try installation(state: options.state(of: options.request.paths))?.arguments ?? []
    }

    /// A session with the installation's options: `session` itself when it has them.
    public static func session(for record: Record, from session: HostSession) throws(HostError) -> HostSession {
        if record.matches(session.options) { return session }
        return try HostSession(options: record.applied(to: session.options), logger: session.logger)
    }

    /// Rewrites the installed file, if one is installed, from the menu its options give; never
    /// a half integration: not once its entry was removed, nor while its D-Bus service file is
    /// gone (an entry launched through the bus does nothing without it). `doctor` says so.
    static func update(session: HostSession) throws(HostError) {
        guard var record = try installation(session: session) else { return }
        guard exists(record.path), record.serviceFile.map({ exists($0) }) ?? true else {
            session.logger.debug("The installed desktop entry \(record.path) is not rewritten: it or its D-Bus service file was removed ('standfit-host doctor' says what to run).")
            return
        }
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

extension DesktopUpkeep {
    /// The installed desktop file (`export desktop --install`): rewritten from the menu its
    /// installation's options give, whenever the stored items change.
    public static let installedFile = DesktopUpkeep(
        isInstalled: { DesktopInstallation.isInstalled(session: $0) },
        update: { session throws(HostError) in try DesktopInstallation.update(session: session) })
}
