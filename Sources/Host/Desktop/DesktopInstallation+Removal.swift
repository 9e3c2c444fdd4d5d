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
        var files = [record.path] + (record.appFiles ?? [])
        files.append(defaultURL(paths: paths).deletingLastPathComponent().appendingPathComponent(earlierFileName).path)
        if let service = record.serviceFile, !exists(runnerURL(paths: paths).path) { files.append(service) }
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
                throw HostError(.io, "Cannot remove \(file) (\(error.localizedDescription)); check that its directory is writable, then run the command again.", cause: error)
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
    public static func problems(paths: HostPaths, state: HostState) -> [Problem] {
        var problems: [Problem] = []
        let service = serviceURL(paths: paths).path, runner = runnerURL(paths: paths).path
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
        if exists(runner), !exists(service) {
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
