import ArgumentParser
import Foundation
import Glibc
import HostModel
import HostServer
import HostStorage
import WarmWire

/// `backup FILE`: everything the user keeps in the host, in one file (`HostBackup`).
struct BackupCommand: GlobalCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write everything the host keeps (its state, every plugin's data, your plugins, manifest and settings) to one file.",
        discussion: """
            The file is an SQLite Archive ('sqlite3 -A FILE' lists it). Every database is copied \
            through SQLite's online backup, whole as of one moment, while the warm server and \
            its plugins go on writing. 'standfit-host restore FILE' puts it back.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The file to write; one already there is replaced once the backup is whole.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The language of what it says (default: the environment's).", valueName: "code"))
    var locale: String?

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

    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put back what 'standfit-host backup' wrote, keeping what it replaces beside it.",
        discussion: """
            Each tree is written and checked beside the current one before anything is replaced; \
            a backup of a newer standfit-host, a damaged one or a file that is not a backup \
            changes nothing (exit 5). The warm server is stopped first.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The backup file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The language of what it says (default: the environment's).", valueName: "code"))
    var locale: String?

    struct Document: Encodable {
        var status = "ok"
        var path: String
        var files: Int
        var databases: Int
        var made: String
        var kept: [String]
        var message: String
    }

    func run() throws {
        let request = HostRequest.current
        let text = HostText(language: request.language(locale: locale))
        let url = request.url(forPath: file)
        // Checked before the server is stopped: a file that is no backup stops nothing.
        let archive = try HostBackup.open(url)
        try? archive.close()
        try Self.stopServer(request: request)
        let restored = try HostBackup.restore(url, over: request.paths, now: try request.now())
        var message = text("restore.done", ["files": "\(restored.backup.files)", "databases": "\(restored.backup.databases)",
                                            "path": restored.backup.path, "made": ISO8601DateFormatter().string(from: restored.backup.made)])
        if !restored.kept.isEmpty { message += "\n" + text("restore.kept", ["kept": restored.kept.joined(separator: ", ")]) }
        Output.report(global, Document(path: restored.backup.path, files: restored.backup.files, databases: restored.backup.databases,
                                       made: ISO8601DateFormatter().string(from: restored.backup.made), kept: restored.kept, message: message),
                      message: \.message)
    }

    /// Stops the warm server of this build (SIGTERM: it finishes what runs, then exits, and its
    /// plugin workers with it) and waits until it has: it and its workers hold the databases open.
    static func stopServer(request: HostRequest) throws {
        let place = try ServerCommand.place(request: request)
        guard let pid = WarmServer.holder(of: place) else { return }
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + WarmServer.stopGrace + .seconds(5)
        while WarmServer.holder(of: place) != nil, ContinuousClock.now < deadline { usleep(20_000) }
        guard WarmServer.holder(of: place) == nil else {
            throw HostError(.io, key: "restore.serverRunning", ["pid": "\(pid)"])
        }
    }
}
