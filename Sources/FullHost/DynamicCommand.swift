import ArgumentParser
import Foundation
import HostModel
import HostServer
import HostStorage
import StandFitHost

/// `dynamic set|clear`: the script-owned dynamic list, iOS's `shortcutItems` assignment.
struct DynamicCommand: HostCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "dynamic",
        abstract: Usage.words("help.dynamic"),
        subcommands: [Set.self, Clear.self]
    ) }

    struct Set: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "set",
            abstract: Usage.words("help.dynamic.set"),
            discussion: Usage.words("help.dynamic.set.discussion")
        ) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Argument(help: Usage.help("help.dynamic.set.file", valueName: "file"))
        var file: String

        func run() throws {
            let items = try { () throws(HostError) in
                let origin = file == "-" ? HostText.Phrase("items.stdin") : HostText.Phrase("items.file", ["path": file])
                let data: Data
                do {
                    data = file == "-" ? LineInput.readToEnd() : try UserFile.read(URL(fileURLWithPath: file), limit: UserFile.documentLimit)
                } catch {
                    throw HostError(.io, key: "error.items.read", parts: ["origin": origin, "why": UserFile.why(error)])
                }
                return try ScriptItems.parse(data, origin: origin)
            }()
            try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger).setScriptItems(items)
            Output.report(global, Summary(items: items.count, message: HostText(language: HostRequest.current.language(locale: manifestOptions.locale))(items.count == 1 ? "dynamic.stored.one" : "dynamic.stored.many", ["count": "\(items.count)"])), message: \.message)
        }
    }

    struct Clear: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "clear",
            abstract: Usage.words("help.dynamic.clear")
        ) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger).clearScriptItems()
            Output.report(global, Summary(items: 0, message: HostText(language: HostRequest.current.language(locale: manifestOptions.locale))("dynamic.cleared")), message: \.message)
        }
    }

    struct Summary: Encodable {
        var status = "ok"
        var items: Int
        var message: String
    }
}
