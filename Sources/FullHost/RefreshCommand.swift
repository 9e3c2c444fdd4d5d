import ArgumentParser
import HostModel
import HostServer
import StandFitHost

/// `refresh`: asks every dynamic provider for its items again and stores them.
struct RefreshCommand: ManifestCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "refresh",
        abstract: Usage.words("help.refresh")
    ) }

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
        let text = HostText(language: session.language)
        if global.json {
            Output.printJSON(Document(status: reports.contains { $0.itemCount == nil } ? "failed" : "ok",
                                      providers: reports.map { Report(plugin: $0.pluginID, items: $0.itemCount, note: $0.note) }))
        } else if reports.isEmpty {
            Console.current.print(text("refresh.none"))
        } else {
            for report in reports {
                let count = report.itemCount.map { text($0 == 1 ? "refresh.items.one" : "refresh.items.many", ["count": "\($0)"]) } ?? text("refresh.failed")
                Output.show("\(report.pluginID): \(count)\(report.note.map { " — \($0)" } ?? "")")
            }
        }
        if reports.contains(where: { $0.itemCount == nil }) {
            throw ExitCode(Output.Status.pluginFailed)
        }
    }
}
