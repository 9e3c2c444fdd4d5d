import ArgumentParser
import Foundation
import StandFitHost
import HostModel
import HostStorage

/// `dynamic set|clear`: the script-owned dynamic list, iOS's `shortcutItems` assignment.
struct DynamicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynamic",
        abstract: "Set or clear the dynamic quick actions owned by scripts.",
        subcommands: [Set.self, Clear.self]
    )

    struct Set: ParsableCommand {
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
                let origin = file == "-" ? "standard input" : file
                let data: Data
                do {
                    data = file == "-" ? LineInput.readToEnd() : try Data(contentsOf: URL(fileURLWithPath: file))
                } catch {
                    throw HostError(.io, "Cannot read \(origin) (\(error.localizedDescription)); give a readable JSON file or - for standard input.")
                }
                return try ScriptItems.parse(data, origin: origin)
            }()
            try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger).setScriptItems(items)
            Output.report(global, Summary(items: items.count, message: "Stored \(items.count) script item\(items.count == 1 ? "" : "s"); see 'standfit-host list'."), message: \.message)
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Remove every script-owned dynamic item."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger).clearScriptItems()
            Output.report(global, Summary(items: 0, message: "Cleared the script items."), message: \.message)
        }
    }

    struct Summary: Encodable {
        var status = "ok"
        var items: Int
        var message: String
    }
}

/// `refresh`: asks every dynamic provider for its items again and stores them.
struct RefreshCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Ask every plugin's dynamic provider for its items and store them for list, menu and export."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var isolation: IsolationOptions

    struct Report: Encodable {
        var plugin: String
        /// How many items it stored; null when it failed.
        var items: Int?
        var note: String?
    }

    /// `--json`: `status` (`ok`, or `failed` when a provider failed) and each provider's report.
    struct Document: Encodable {
        var status: String
        var providers: [Report]
    }

    func run() throws {
        let session = try HostSession(options: manifestOptions.hostOptions(global, isolate: isolation.isolate), logger: global.logger)
        let reports = session.refreshDynamicItems()
        if global.json {
            Output.printJSON(Document(status: reports.contains { $0.itemCount == nil } ? "failed" : "ok",
                                      providers: reports.map { Report(plugin: $0.pluginID, items: $0.itemCount, note: $0.note) }))
        } else if reports.isEmpty {
            Console.current.print("No plugin provides dynamic items.")
        } else {
            for report in reports {
                let count = report.itemCount.map { "\($0) item\($0 == 1 ? "" : "s")" } ?? "failed"
                Output.show("\(report.pluginID): \(count)\(report.note.map { " — \($0)" } ?? "")")
            }
        }
        if reports.contains(where: { $0.itemCount == nil }) {
            throw ExitCode(Output.Status.pluginFailed)
        }
    }
}
