import Foundation
import StandFitHost
import HostModel
import HostStorage
import HostSurfaces
import HostMenu

/// The files a desktop installation writes: where each goes, the D-Bus service file, KRunner's
/// plugin file and GNOME Shell's search provider file.
extension DesktopInstallation {
    /// `$XDG_DATA_HOME/applications/org.standfit.Host.desktop`.
    public static func defaultURL(paths: HostPaths) -> URL {
        paths.dataDirectory.deletingLastPathComponent()
            .appendingPathComponent("applications", isDirectory: true)
            .appendingPathComponent(fileName)
    }

    /// Whether the desktop sees an application entry of the host: the user's
    /// (`defaultURL`) or one in `$XDG_DATA_DIRS` (a package's, in /usr/share/applications).
    public static func entryIsInstalled(paths: HostPaths, environment: [String: String]) -> Bool {
        let directories = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map { URL(fileURLWithPath: String($0), isDirectory: true).appendingPathComponent("applications/\(fileName)") }
        return ([defaultURL(paths: paths)] + directories).contains { FileManager.default.fileExists(atPath: $0.path) }
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
            "[Desktop Entry]", "Type=Service", "Name=\(applicationName)", "Comment=\(HostText(language: "en")("runner.comment"))",
        ]
        // KRunner's settings show the comment in the desktop's language (Comment[nl]).
        lines += HostText.languages.dropFirst().map { "Comment[\($0)]=\(HostText(language: $0)("runner.comment"))" }
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
    /// starts `server` for it (none of its own where the package's starts that same server).
    public static func installRunner(_ text: String, paths: HostPaths, server: String,
                                     environment: [String: String]) throws(HostError) -> (runner: URL, service: URL) {
        let runner = runnerURL(paths: paths)
        let service = try installService(server: server, paths: paths, environment: environment)
        try write(text, to: runner, what: HostText.Phrase("file.runner"))
        return (runner, service)
    }

    /// The service file the package installed in a system data directory
    /// (`$XDG_DATA_DIRS/dbus-1/services/`) that starts `server` itself, when there is one: its
    /// `SystemdService=` hands the start to the user's systemd, so the bus, the command line and
    /// systemd reach one server.
    static func systemService(for server: String, environment: [String: String]) -> URL? {
        let real = RealPath.of(server)
        return systemServices(environment: environment).first { service in
            serviceProgram(service.path).map(RealPath.of) == real
        }
    }

    /// The service files for the application id in the system data directories.
    static func systemServices(environment: [String: String]) -> [URL] {
        XDGDirectories.systemData(environment: environment).map { $0.appendingPathComponent("dbus-1/services/\(applicationID).service") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The service file that starts `server` for the desktop: the package's when it starts that
    /// same server (a per-user one of an earlier install is removed, since it would shadow it),
    /// else one written under `$XDG_DATA_HOME`.
    static func installService(server: String, paths: HostPaths, environment: [String: String]) throws(HostError) -> URL {
        let own = serviceURL(paths: paths)
        if let system = systemService(for: server, environment: environment) {
            try? FileManager.default.removeItem(at: own)
            return system
        }
        try write(serviceText(server: server), to: own, what: HostText.Phrase("file.service"))
        return own
    }

    /// Writes `text` to `url`, replacing any file there in one rename, so a desktop never reads
    /// half a file.
    public static func write(_ text: String, to url: URL, what: HostText.Phrase) throws(HostError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        } catch {
            throw HostError(.io, key: "error.writeFile", ["path": url.path, "why": error.localizedDescription], parts: ["what": what], cause: error)
        }
    }

    /// Writes the entry to `url`.
    public static func write(_ entry: DesktopEntry, to url: URL) throws(HostError) {
        try write(entry.text, to: url, what: HostText.Phrase("file.desktop"))
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
        if CommandWord.isPlain(word) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
