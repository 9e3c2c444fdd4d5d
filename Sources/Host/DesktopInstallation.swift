import Foundation
import HostModel
import HostSurfaces

/// `export desktop --install`: the `.desktop` file in `$XDG_DATA_HOME/applications/` that puts
/// the quick actions on the desktop's app-icon menu, and keeping it current.
///
/// Installing records the file and the executable in the host's state; from then on every
/// change of the stored dynamic items (a handled run, `refresh`, `dynamic set|clear`) rewrites
/// the file from the menu of the session that made the change.
public enum DesktopInstallation {
    static let settingKey = "desktop.export"
    /// The desktop file id: the name desktop environments know the entry by.
    public static let fileName = "standfit-host.desktop"
    public static let applicationName = "StandFit"

    /// `$XDG_DATA_HOME/applications/standfit-host.desktop`.
    public static func defaultURL(paths: HostPaths) -> URL {
        paths.dataDirectory.deletingLastPathComponent()
            .appendingPathComponent("applications", isDirectory: true)
            .appendingPathComponent(fileName)
    }

    /// The desktop entry for the session's visible menu.
    public static func entry(session: HostSession, executable: String, limit: Int? = nil) throws(HostError) -> DesktopEntry {
        let items = try session.menu(limit: limit).visible.map(\.item)
        return DesktopEntry.export(items: items, executable: executable, applicationName: applicationName)
    }

    /// Writes the entry to `url`, replacing any file there in one rename, so a desktop never
    /// reads half a file.
    public static func write(_ entry: DesktopEntry, to url: URL) throws(HostError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(entry.text.utf8).write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        } catch {
            throw HostError(.io, "Cannot write the desktop file \(url.path) (\(error.localizedDescription)); check that its directory is writable.", cause: error)
        }
    }

    /// Writes the file to its installed place and remembers it.
    @discardableResult
    public static func install(session: HostSession, executable: String) throws(HostError) -> URL {
        let url = defaultURL(paths: session.paths)
        try write(entry(session: session, executable: executable), to: url)
        let text = JSONValue.object(["path": .string(url.path), "executable": .string(executable)]).jsonText
        try session.state.setSetting(settingKey, text)
        return url
    }

    /// Where the file is installed and the executable it runs, when one is installed.
    static func installation(session: HostSession) throws(HostError) -> (url: URL, executable: String)? {
        guard let text = try session.state.setting(settingKey),
              case .object(let values)? = JSONValue(jsonText: text),
              case .string(let path)? = values["path"], case .string(let executable)? = values["executable"]
        else { return nil }
        return (URL(fileURLWithPath: path), executable)
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

    /// Rewrites the installed file, if one is installed.
    static func update(session: HostSession) throws(HostError) {
        guard let installed = try installation(session: session) else { return }
        try write(entry(session: session, executable: installed.executable), to: installed.url)
    }
}
