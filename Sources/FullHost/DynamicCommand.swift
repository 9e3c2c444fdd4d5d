import ArgumentParser
import Foundation
import HostModel
import HostServer
import HostStorage
import StandFitHost

/// `dynamic set|clear`: the script-owned dynamic list, iOS's `shortcutItems` assignment.
struct DynamicCommand: HostCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynamic",
        abstract: "Set or clear the dynamic quick actions owned by scripts.",
        subcommands: [Set.self, Clear.self]
    )

    struct Set: ManifestCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Replace the script-owned dynamic items with a JSON array (the keys of 'list --json').",
            discussion: """
                Each item needs a type and a non-blank title; subtitle, icon, userInfo and \
                validUntil (an ISO 8601 time after which it is not shown) are optional. The list \
                is taken whole or not at all.
                """
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Argument(help: ArgumentHelp("A JSON file, or - for standard input.", valueName: "file"))
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
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Remove every script-owned dynamic item."
        )

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
