import ArgumentParser
import Foundation
import StandFitHost
import HostModel
import HostSurfaces

/// `export desktop`: the quick actions as a freedesktop `.desktop` file.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the quick actions for other surfaces.",
        subcommands: [Desktop.self, KRunner.self]
    )

    /// `export krunner`: KRunner's plugin file, so that KDE's search runs quick actions.
    struct KRunner: ParsableCommand {
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

        struct Document: Encodable {
            var status = "ok"
            var path: String?
            var service: String?
            var text: String
        }

        func run() throws {
            let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
            let text = try DesktopInstallation.runnerText(session: session)
            var document = Document(text: text)
            if install {
                let (runner, service) = try DesktopInstallation.installRunner(text, paths: session.paths, server: Executable.url.path)
                (document.path, document.service) = (runner.path, service.path)
            }
            if global.json {
                Output.printJSON(document)
            } else if let path = document.path, let service = document.service {
                Console.current.print("Wrote \(path) and \(service).")
            } else {
                Console.current.write(text)
            }
        }
    }

    struct Desktop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "desktop",
            abstract: "Write a .desktop file whose Actions= are the visible quick actions.",
            discussion: """
                Without --output or --install the file is printed. --install writes \
                $XDG_DATA_HOME/applications/org.standfit.Host.desktop, which desktops launch \
                through D-Bus (DBusActivatable), and the service file \
                $XDG_DATA_HOME/dbus-1/services/org.standfit.Host.service that starts the warm \
                server for them; it keeps the file current with the options it was installed \
                with (--manifest, --define, --locale): every change of the dynamic items \
                rewrites it.
                """
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Option(help: ArgumentHelp("Write the file here.", valueName: "path"))
        var output: String?

        @Flag(help: "Install into $XDG_DATA_HOME/applications/ with its D-Bus service, and keep it current.")
        var install = false

        func validate() throws {
            if install && output != nil {
                throw ValidationError("Give either --output PATH or --install, not both.")
            }
        }

        struct Document: Encodable {
            var status = "ok"
            var path: String?
            /// The D-Bus service file, with --install.
            var service: String?
            var actions: [String]
            var text: String
        }

        func run() throws {
            let executable = Executable.command.path
            let (entry, path, service) = try { () throws(HostError) -> (DesktopEntry, String?, String?) in
                let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
                let record = DesktopInstallation.record(for: session, executable: executable, server: Executable.url.path)
                if install {
                    try DesktopInstallation.install(session: session, executable: executable, server: Executable.url.path)
                    return (try DesktopInstallation.entry(session: session, executable: executable, arguments: record.arguments,
                                                          dbusActivatable: true),
                            record.path, record.serviceFile)
                }
                let entry = try DesktopInstallation.entry(session: session, executable: executable, arguments: record.arguments)
                if let output {
                    try DesktopInstallation.write(entry, to: URL(fileURLWithPath: output))
                }
                return (entry, output, nil)
            }()
            if global.json {
                Output.printJSON(Document(path: path, service: service, actions: entry.actions.map(\.id), text: entry.text))
            } else if let path {
                let count = "\(entry.actions.count) action\(entry.actions.count == 1 ? "" : "s")"
                Console.current.print(service.map { "Wrote \(path) with \(count), and \($0)." } ?? "Wrote \(path) with \(count).")
            } else {
                Console.current.write(entry.text)
            }
        }
    }
}
