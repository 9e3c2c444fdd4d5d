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
        subcommands: [Desktop.self]
    )

    struct Desktop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "desktop",
            abstract: "Write a .desktop file whose Actions= are the visible quick actions.",
            discussion: """
                Without --output or --install the file is printed. --install writes \
                $XDG_DATA_HOME/applications/standfit-host.desktop and keeps it current: every \
                change of the dynamic items rewrites it.
                """
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Option(help: ArgumentHelp("Write the file here.", valueName: "path"))
        var output: String?

        @Flag(help: "Install into $XDG_DATA_HOME/applications/ and keep it current.")
        var install = false

        func validate() throws {
            if install && output != nil {
                throw ValidationError("Give either --output PATH or --install, not both.")
            }
        }

        struct Document: Encodable {
            var status = "ok"
            var path: String?
            var actions: [String]
            var text: String
        }

        func run() throws {
            let executable = Executable.command.path
            let (entry, path) = try { () throws(HostError) -> (DesktopEntry, String?) in
                let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
                if install {
                    let url = try DesktopInstallation.install(session: session, executable: executable)
                    return (try DesktopInstallation.entry(session: session, executable: executable), url.path)
                }
                let entry = try DesktopInstallation.entry(session: session, executable: executable)
                if let output {
                    try DesktopInstallation.write(entry, to: URL(fileURLWithPath: output))
                }
                return (entry, output)
            }()
            if global.json {
                Output.printJSON(Document(path: path, actions: entry.actions.map(\.id), text: entry.text))
            } else if let path {
                Console.current.print("Wrote \(path) with \(entry.actions.count) action\(entry.actions.count == 1 ? "" : "s").")
            } else {
                Console.current.write(entry.text)
            }
        }
    }
}
