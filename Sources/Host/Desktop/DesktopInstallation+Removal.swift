import Foundation
import HostModel
import HostStorage

/// Taking the desktop integrations away again (`export desktop --uninstall`, `export krunner
/// --uninstall`), and what `doctor` finds wrong with them: a half-installed integration (one
/// file without the other) or a stale one (a file that starts a program that is gone).
extension DesktopInstallation {
    /// Removes what `export desktop --install` wrote: the host's entry, every app's entry, the
    /// D-Bus service file (unless KRunner's plugin file still needs it) and the record of the
    /// installation. Answers the files removed, in order; none when nothing was installed.
    public static func uninstall(paths: HostPaths, state: HostState) throws(HostError) -> [String] {
        guard let record = try installation(state: state) else { return [] }
        var files = [record.path] + (record.appFiles ?? []) + (record.iconFiles ?? [])
        files.append(defaultURL(paths: paths).deletingLastPathComponent().appendingPathComponent(earlierFileName).path)
        // The service file only where this host wrote it (never the package's).
        if let service = record.serviceFile, service == serviceURL(paths: paths).path, !exists(runnerURL(paths: paths).path) {
            files.append(service)
        }
        let removed = try remove(files)
        try state.setSetting(settingKey, nil)
        return removed
    }

    /// Removes what `export krunner --install` wrote: KRunner's plugin file, and the D-Bus
    /// service file unless the desktop entries still need it. Answers the files removed.
    public static func uninstallRunner(paths: HostPaths, state: HostState) throws(HostError) -> [String] {
        var files = [runnerURL(paths: paths).path]
        if try installation(state: state) == nil { files.append(serviceURL(paths: paths).path) }
        return try remove(files)
    }

    /// Removes each of `files` that exists; answers those it removed.
    private static func remove(_ files: [String]) throws(HostError) -> [String] {
        var removed: [String] = []
        for file in files where exists(file) && !removed.contains(file) {
            do {
                try FileManager.default.removeItem(atPath: file)
            } catch {
                throw HostError(.io, key: "error.remove", ["path": file, "why": error.localizedDescription], cause: error)
            }
            removed.append(file)
        }
        return removed
    }

    /// Whether something (a file, or a dangling link) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// What is wrong with an installed integration; each says which file and which command
    /// fixes it.
    public enum Problem: Equatable, Sendable {
        /// The desktop entries are installed, their D-Bus service file is not: every action does nothing.
        case serviceMissing(entry: String, service: String)
        /// The installation is recorded, but its entry is gone (removed by hand).
        case entryMissing(entry: String)
        /// The service file starts a program that no longer exists (a removed build or prefix).
        case serviceStale(service: String, program: String)
        /// The desktop entry's actions run a command that no longer exists.
        case entryStale(entry: String, program: String)
        /// KRunner's plugin file is installed without the service file that starts its runner.
        case runnerWithoutService(runner: String, service: String)
    }

    /// The problems of the integrations installed for `paths` (the record in `state`, and the
    /// files in `$XDG_DATA_HOME`).
    public static func problems(paths: HostPaths, state: HostState, environment: [String: String]) -> [Problem] {
        var problems: [Problem] = []
        let service = serviceURL(paths: paths).path, runner = runnerURL(paths: paths).path
        let packaged = !systemServices(environment: environment).isEmpty
        let record = try? installation(state: state)
        if let record {
            if !exists(record.path) {
                problems.append(.entryMissing(entry: record.path))
            } else if let recorded = record.serviceFile, !exists(recorded) {
                problems.append(.serviceMissing(entry: record.path, service: recorded))
            }
            if exists(record.path), !isProgram(record.executable) {
                problems.append(.entryStale(entry: record.path, program: record.executable))
            }
        }
        if exists(runner), !exists(service), !packaged {
            problems.append(.runnerWithoutService(runner: runner, service: service))
        }
        if let program = serviceProgram(service), !isProgram(program) {
            problems.append(.serviceStale(service: service, program: program))
        }
        return problems
    }

    /// Whether `path` is a program that can be run.
    static func isProgram(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// The program a D-Bus service file's `Exec` line starts: its first word, unquoted as the
    /// bus unquotes it (`serviceExecWord`); nil when there is no such file or line.
    static func serviceProgram(_ service: String) -> String? {
        guard let text = try? String(contentsOfFile: service, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Exec=") }) else { return nil }
        var rest = line.dropFirst("Exec=".count)[...]
        var word = ""
        while let character = rest.first, character != " " {
            rest = rest.dropFirst()
            if character == "'" {
                while let quoted = rest.first {
                    rest = rest.dropFirst()
                    if quoted == "'" { break }
                    word.append(quoted)
                }
            } else if character == "\\", let escaped = rest.first {
                rest = rest.dropFirst()
                word.append(escaped)
            } else {
                word.append(character)
            }
        }
        return word.isEmpty ? nil : word
    }
}

/// Installing the host's own icon set (`OwnIcons`) for a desktop installation made from a build
/// tree or a prefix the desktop does not search.
extension DesktopInstallation {
    /// The icon set that comes with the host at `executable`: `Resources/icons/hicolor` of the
    /// source tree it was built in, or `share/icons/hicolor` of the prefix it was installed
    /// into, found by walking up from it; nil when there is none.
    static func iconSource(executable: String) -> URL? {
        var directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            for candidate in ["Resources/icons/hicolor", "share/icons/hicolor"] {
                let source = directory.appendingPathComponent(candidate, isDirectory: true)
                if FileManager.default.fileExists(atPath: source.appendingPathComponent("scalable/apps/\(OwnIcons.appIcon).svg").path) {
                    return source
                }
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        return nil
    }

    /// Copies the icon set from `source` into `$XDG_DATA_HOME/icons/hicolor` (each file in one
    /// rename); answers the files written, for `--uninstall` to remove.
    static func installIcons(from source: URL, paths: HostPaths) throws(HostError) -> [String] {
        let target = paths.dataDirectory.deletingLastPathComponent().appendingPathComponent("icons/hicolor", isDirectory: true)
        var written: [String] = []
        for folder in ["scalable/apps", "symbolic/apps"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: source.appendingPathComponent(folder).path)) ?? []
            for name in names.sorted() where name.hasPrefix(OwnIcons.appIcon) && name.hasSuffix(".svg") {
                let from = source.appendingPathComponent(folder).appendingPathComponent(name)
                let to = target.appendingPathComponent(folder).appendingPathComponent(name)
                guard let text = try? String(contentsOf: from, encoding: .utf8) else {
                    throw HostError(.io, key: "error.icon", ["path": from.path])
                }
                try write(text, to: to, what: HostText.Phrase("file.icon"))
                written.append(to.path)
            }
        }
        return written
    }
}
