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
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the quick actions for other surfaces.",
        subcommands: [Desktop.self, KRunner.self, SearchProvider.self]
    )

    /// `export search-provider`: GNOME Shell's search provider file, so that the overview's
    /// search runs quick actions.
    struct SearchProvider: GlobalCommand {
        static let configuration = CommandConfiguration(
            commandName: "search-provider",
            abstract: "Write GNOME Shell's search provider file, so that the overview's search runs quick actions.",
            discussion: """
                GNOME Shell reads search providers from gnome-shell/search-providers/ of the \
                system data directories only ($XDG_DATA_DIRS, not $XDG_DATA_HOME), so a per-user \
                install writes it there as root: 'standfit-host export search-provider --output \
                /usr/local/share/gnome-shell/search-providers/\(DesktopInstallation.searchProviderFileName)' \
                with sudo (the package installs it under /usr/share). GNOME then asks the server \
                (org.gnome.Shell.SearchProvider2, started by the bus) what a search such as \
                "log 20 squats" matches, and shows the results under the app that \
                'export desktop --install' installed.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Write the file here.", valueName: "path"))
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
        static let configuration = CommandConfiguration(
            commandName: "krunner",
            abstract: "Write KRunner's plugin file, so that KDE's search (Alt+Space) runs quick actions.",
            discussion: """
                Without --install the file is printed. --install writes \
                $XDG_DATA_HOME/krunner/dbusplugins/org.standfit.Host.desktop and the D-Bus \
                service file that starts the warm server; KRunner then asks the server \
                (org.kde.krunner1) what a query such as "log 20 squats" matches.
                """
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Flag(help: "Install into $XDG_DATA_HOME/krunner/dbusplugins/ with its D-Bus service.")
        var install = false

        @Flag(help: "Remove what --install wrote (the D-Bus service stays while the desktop entries need it).")
        var uninstall = false

        func validate() throws {
            if install && uninstall { throw ValidationError("Give either --install or --uninstall, not both.") }
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
        static let configuration = CommandConfiguration(
            commandName: "desktop",
            abstract: "Write .desktop files whose Actions= are the visible quick actions, one per app.",
            discussion: """
                The host's entry (org.standfit.Host) has the quick actions of the app the host \
                bundles (StandFit); every other app with quick actions (a plugin, your routines) \
                has an entry of its own, org.standfit.Host.<app id>.desktop. Without --output or \
                --install the host's entry is printed (with --app, that app's). --install writes \
                them all into $XDG_DATA_HOME/applications/ (the host's is launched through D-Bus: \
                DBusActivatable) and the service file \
                $XDG_DATA_HOME/dbus-1/services/org.standfit.Host.service that starts the warm \
                server for them; it keeps them current with the options it was installed with \
                (--manifest, --define, --locale): every change of the dynamic items rewrites them, \
                and removes the entry of an app that no longer has items.
                """
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Option(help: ArgumentHelp("Print or write this app's own entry instead of the host's (a plugin's id or name, or 'user').",
                                   valueName: "id"))
        var app: String?

        @Option(help: ArgumentHelp("Write the file here.", valueName: "path"))
        var output: String?

        @Flag(help: "Install into $XDG_DATA_HOME/applications/ with its D-Bus service, and keep it current.")
        var install = false

        @Flag(help: "Remove what --install wrote: the entries, the D-Bus service (unless KRunner's file needs it), the record.")
        var uninstall = false

        func validate() throws {
            if uninstall && (install || output != nil || app != nil) {
                throw ValidationError("--uninstall removes every entry --install wrote; give it alone.")
            }
            if install && output != nil {
                throw ValidationError("Give either --output PATH or --install, not both.")
            }
            if install && app != nil {
                throw ValidationError("--install writes every app's entry; give --app only to print or write one app's (--output).")
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
