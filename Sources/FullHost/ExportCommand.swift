import ArgumentParser
import Foundation
import HostDesktop
import HostMenu
import HostModel
import HostServer
import HostSurfaces
import StandFitHost

/// `export desktop`: the quick actions as a freedesktop `.desktop` file.
struct ExportCommand: HostCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "export",
        abstract: Usage.words("help.export"),
        subcommands: [Desktop.self, KRunner.self, SearchProvider.self]
    ) }

    /// `export search-provider`: GNOME Shell's search provider file, so that the overview's
    /// search runs quick actions.
    struct SearchProvider: GlobalCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "search-provider",
            abstract: Usage.words("help.export.search-provider"),
            discussion: Usage.words("help.export.search-provider.discussion", ["file": DesktopInstallation.searchProviderFileName])
        ) }

        @OptionGroup var global: GlobalOptions

        @Option(help: Usage.help("help.export.search-provider.output", valueName: "path"))
        var output: String?

        struct Document: Encodable {
            var status = "ok"
            var path: String?
            var text: String
        }

        func run() throws {
            let text = DesktopInstallation.searchProviderText
            if let output {
                try DesktopInstallation.write(text, to: URL(fileURLWithPath: output), what: HostText.Phrase("file.searchProvider"))
            }
            if global.json {
                Output.printJSON(Document(path: output, text: text))
            } else if let output {
                Console.current.print(HostText(language: HostRequest.current.language())("export.wrote", ["path": output]))
            } else {
                Console.current.write(text)
            }
        }
    }

    /// `export krunner`: KRunner's plugin file, so that KDE's search runs quick actions.
    struct KRunner: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "krunner",
            abstract: Usage.words("help.export.krunner"),
            discussion: Usage.words("help.export.krunner.discussion")
        ) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Flag(help: Usage.help("help.export.krunner.install"))
        var install = false

        @Flag(help: Usage.help("help.export.krunner.uninstall"))
        var uninstall = false

        func validate() throws {
            if install && uninstall { throw ValidationError(Usage.words("usage.export.krunner.installOrUninstall")) }
        }

        struct Document: Encodable {
            var status = "ok"
            var path: String?
            var service: String?
            var text: String
        }

        func run() throws {
            if uninstall {
                let options = manifestOptions.hostOptions(global)
                let removed = try DesktopInstallation.uninstallRunner(paths: options.request.paths, state: try options.state(of: options.request.paths))
                Removal.report(removed, nothing: "export.runnerNone", json: global.json, language: options.request.language(locale: manifestOptions.locale))
                return
            }
            let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
            let text = try DesktopInstallation.runnerText(session: session)
            var document = Document(text: text)
            if install {
                let (runner, service) = try DesktopInstallation.installRunner(text, paths: session.paths, server: Executable.url.path,
                                                                               environment: session.request.environment)
                (document.path, document.service) = (runner.path, service.path)
            }
            if global.json {
                Output.printJSON(document)
            } else if let path = document.path, let service = document.service {
                Console.current.print(HostText(language: HostRequest.current.language(locale: manifestOptions.locale))("export.wroteTwo", ["path": path, "service": service]))
            } else {
                Console.current.write(text)
            }
        }
    }

    struct Desktop: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "desktop",
            abstract: Usage.words("help.export.desktop"),
            discussion: Usage.words("help.export.desktop.discussion")
        ) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Option(help: Usage.help("help.export.desktop.app", valueName: "id"))
        var app: String?

        @Option(help: Usage.help("help.export.desktop.output", valueName: "path"))
        var output: String?

        @Flag(help: Usage.help("help.export.desktop.install"))
        var install = false

        @Flag(help: Usage.help("help.export.desktop.uninstall"))
        var uninstall = false

        func validate() throws {
            if uninstall && (install || output != nil || app != nil) {
                throw ValidationError(Usage.words("usage.export.desktop.uninstallAlone"))
            }
            if install && output != nil {
                throw ValidationError(Usage.words("usage.export.desktop.outputOrInstall"))
            }
            if install && app != nil {
                throw ValidationError(Usage.words("usage.export.desktop.installApp"))
            }
        }

        struct Document: Encodable {
            var status = "ok"
            var path: String?
            /// The D-Bus service file, with --install.
            var service: String?
            var actions: [String]
            var text: String
            /// With --install, the other apps' entries: each `app`, `path`, `actions`.
            var apps: [AppEntry]?
        }

        struct AppEntry: Encodable {
            var app: String
            var path: String
            var actions: [String]
        }

        func run() throws {
            if uninstall {
                let options = manifestOptions.hostOptions(global)
                let removed = try DesktopInstallation.uninstall(paths: options.request.paths, state: try options.state(of: options.request.paths))
                Removal.report(removed, nothing: "export.desktopNone", json: global.json, language: options.request.language(locale: manifestOptions.locale))
                return
            }
            let executable = Executable.command.path
            let (files, path, service) = try { () throws(HostError) -> ([DesktopInstallation.EntryFile], String?, String?) in
                let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
                let record = DesktopInstallation.record(for: session, executable: executable, server: Executable.url.path)
                if install {
                    let installed = try DesktopInstallation.install(session: session, executable: executable, server: Executable.url.path)
                    return (installed.files, installed.record.path, installed.record.serviceFile)
                }
                let all = try DesktopInstallation.entries(session: session, executable: executable, arguments: record.arguments)
                var files = all
                if let app {
                    let wanted = try HostSession.app(named: app, in: session.menu())
                    // A bundled app's actions are the host's entry.
                    files = all.filter { $0.app == wanted }
                    if files.isEmpty { files = [all[0]] }
                }
                if let output {
                    try DesktopInstallation.write(files[0].entry, to: URL(fileURLWithPath: output))
                }
                return (Array(files.prefix(1)), output, nil)
            }()
            let entry = files[0].entry
            let directory = path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
            let apps = install ? files.dropFirst().compactMap { file in
                file.app.flatMap { app in directory.map { AppEntry(app: app.id, path: $0.appendingPathComponent(file.fileName).path,
                                                                   actions: file.entry.actions.map(\.id)) } }
            } : nil
            if global.json {
                Output.printJSON(Document(path: path, service: service, actions: entry.actions.map(\.id), text: entry.text, apps: apps))
            } else if let path {
                let text = HostText(language: HostRequest.current.language(locale: manifestOptions.locale))
                let count = { (entry: DesktopEntry) in
                    text(entry.actions.count == 1 ? "export.actions.one" : "export.actions.many", ["count": "\(entry.actions.count)"])
                }
                Console.current.print(service.map { text("export.wroteWithService", ["path": path, "actions": count(entry), "service": $0]) }
                                      ?? text("export.wroteWith", ["path": path, "actions": count(entry)]))
                for (app, file) in zip(apps ?? [], files.dropFirst()) {
                    Console.current.print(text("export.wroteApp", ["path": app.path, "actions": count(file.entry), "app": file.app?.name ?? app.app]))
                }
            } else {
                Console.current.write(entry.text)
            }
        }
    }
}

/// What `--uninstall` says: each file removed, or that there was nothing to remove.
enum Removal {
    struct Document: Encodable {
        var status = "ok"
        var removed: [String]
    }

    /// `nothing` is the key of what is said when nothing was installed.
    static func report(_ removed: [String], nothing: String, json: Bool, language: String) {
        let text = HostText(language: language)
        if json {
            Output.printJSON(Document(removed: removed))
        } else if removed.isEmpty {
            Console.current.print(text(nothing))
        } else {
            removed.forEach { Console.current.print(text("export.removed", ["path": $0])) }
        }
    }
}
