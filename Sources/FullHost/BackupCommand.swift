import ArgumentParser
import Foundation
import Glibc
import HostModel
import HostServer
import HostStorage
import WarmWire

/// `backup FILE`: everything the user keeps in the host, in one file (`HostBackup`).
struct BackupCommand: GlobalCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "backup",
        abstract: Usage.words("help.backup"),
        discussion: Usage.words("help.backup.discussion")
    ) }

    @OptionGroup var global: GlobalOptions

    @Argument(help: Usage.help("help.backup.file", valueName: "file"))
    var file: String

    @Option(help: Usage.help("help.backup.locale", valueName: "code"))
    var locale: String?

    /// Its errors are said in the language of its `--locale` too.
    var explicitLocale: String? { locale }

    struct Document: Encodable {
        var status = "ok"
        var path: String
        var files: Int
        var databases: Int
        var bytes: Int64
        var made: String
        var skippedLinks: [String]
        var message: String
    }

    func run() throws {
        let request = HostRequest.current
        let text = HostText(language: request.language(locale: locale))
        let summary = try HostBackup.write(request.paths, to: request.url(forPath: file), now: try request.now())
        var message = text("backup.done", ["files": "\(summary.files)", "databases": "\(summary.databases)",
                                           "size": Self.size(summary.bytes, language: text.language), "path": summary.path])
        if !summary.skippedLinks.isEmpty {
            message += "\n" + text("backup.links", ["links": summary.skippedLinks.joined(separator: ", ")])
        }
        Output.report(global, Document(path: summary.path, files: summary.files, databases: summary.databases, bytes: summary.bytes,
                                       made: ISO8601DateFormatter().string(from: summary.made), skippedLinks: summary.skippedLinks,
                                       message: message), message: \.message)
    }

    /// `bytes` as people read a file's size: "840 kB", "2.4 MB" ("2,4 MB" in Dutch).
    ///
    /// Rationale: Foundation's ByteCountFormatter follows the process's locale, and a warm
    /// server answers each request in that request's language.
    static func size(_ bytes: Int64, language: String) -> String {
        if bytes < 1_000_000 { return "\(max(1, (bytes + 999) / 1000)) kB" }
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10)\(language == "nl" ? "," : ".")\(tenths % 10) MB"
    }
}

/// `restore FILE`: puts a backup back (`HostBackup.restore`), after stopping the warm server,
/// which holds the databases open. What it replaced is kept beside it.
struct RestoreCommand: GlobalCommand {
    static let traits: CommandTraits = [.runsCold]

    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "restore",
        abstract: Usage.words("help.restore"),
        discussion: Usage.words("help.restore.discussion")
    ) }

    @OptionGroup var global: GlobalOptions

    @Argument(help: Usage.help("help.restore.file", valueName: "file"))
    var file: String

    @Option(help: Usage.help("help.restore.locale", valueName: "code"))
    var locale: String?

    /// Its errors are said in the language of its `--locale` too.
    var explicitLocale: String? { locale }

    struct Document: Encodable {
        var status = "ok"
        var path: String
        var files: Int
        var databases: Int
        var made: String
        var kept: [String]
        var leftAlone: [String]
        var trustDropped: Int
        var message: String
    }

    func run() throws {
        let request = HostRequest.current
        let text = HostText(language: request.language(locale: locale))
        let url = request.url(forPath: file)
        // Written and checked beside the live trees while the server still serves: a file that
        // is no backup, or a bad one, stops nothing.
        let staged = try HostBackup.stage(url, over: request.paths, now: try request.now())
        let restored: HostBackup.Restored
        do {
            let lock = try Self.stopServer(request: request)
            defer { if let lock { close(lock) } }
            restored = try HostBackup.swap(staged, now: try request.now())
        } catch {
            staged.discard()
            throw error
        }
        var lines = [text("restore.done", ["files": "\(restored.backup.files)", "databases": "\(restored.backup.databases)",
                                           "path": restored.backup.path, "made": ISO8601DateFormatter().string(from: restored.backup.made)])]
        if !restored.kept.isEmpty { lines.append(text("restore.kept", ["kept": restored.kept.joined(separator: ", ")])) }
        if !restored.leftAlone.isEmpty { lines.append(text("restore.leftAlone", ["trees": restored.leftAlone.joined(separator: ", ")])) }
        if restored.trustDropped > 0 {
            lines.append(text(restored.trustDropped == 1 ? "restore.trustDropped.one" : "restore.trustDropped.many", ["count": "\(restored.trustDropped)"]))
        }
        Output.report(global, Document(path: restored.backup.path, files: restored.backup.files, databases: restored.backup.databases,
                                       made: ISO8601DateFormatter().string(from: restored.backup.made), kept: restored.kept,
                                       leftAlone: restored.leftAlone, trustDropped: restored.trustDropped, message: lines.joined(separator: "\n")),
                      message: \.message)
    }

    /// Stops the warm server of this build, as 'standfit-host server stop' does (it answers,
    /// cancels what still runs after its grace, and exits, its plugin workers with it), waits
    /// until it has, and holds its build's lock so that no server of this build starts until
    /// the restore is done: the returned descriptor, closed by the caller. Nil when the socket
    /// directory is not this user's alone (no server of this build can run there).
    static func stopServer(request: HostRequest) throws -> Int32? {
        let place = try ServerCommand.place(request: request)
        guard case .privateToUser = WarmPlace.state(of: place.directory) else { return nil }
        let lock = Glibc.open(place.lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw HostError(.io, key: "error.lock.open", ["path": place.lockPath, "why": String(cString: strerror(errno)), "directory": place.directory]) }
        if flock(lock, LOCK_EX | LOCK_NB) == 0 { return lock }
        let pid = WarmServer.holder(of: place)
        // The server's answer is its own words, not restore's: its output goes nowhere.
        let forwarded = ServerCommand.forwarded(["server", "stop"], request: request)
        let null = Glibc.open("/dev/null", O_RDWR | O_CLOEXEC)
        let saved = (dup(1), dup(2))
        if null >= 0 { dup2(null, 1); dup2(null, 2) }
        _ = WarmClient.forward(forwarded, to: place, acceptTimeout: WarmClient.acceptTimeout(environment: request.environment))
        if saved.0 >= 0 { dup2(saved.0, 1); close(saved.0) }
        if saved.1 >= 0 { dup2(saved.1, 2); close(saved.1) }
        if null >= 0 { close(null) }
        let deadline = ContinuousClock.now + WarmServer.stopGrace + .seconds(5)
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard ContinuousClock.now < deadline else {
                close(lock)
                throw HostError(.io, key: "restore.serverRunning", ["pid": pid.map(String.init) ?? "?"])
            }
            usleep(20_000)
        }
        return lock
    }
}
