import ArgumentParser
import Foundation
import StandFitHost
import HostModel
import HostStorage
import HostIntents

/// `donations list|clear`: the local log of handled runs that `suggest` learns from.
struct DonationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "donations",
        abstract: "Show or clear the log of handled runs that suggestions learn from.",
        discussion: "Every handled run is recorded in $XDG_DATA_HOME/standfit/state.sqlite, on this machine only.",
        subcommands: [List.self, Clear.self],
        defaultSubcommand: List.self
    )

    /// The host's state, where the donations are; no manifest or plugin is needed.
    static func state() throws(HostError) -> HostState {
        let directory = HostRequest.current.paths.dataDirectory
        if let warm = Executable.warm { return try warm.state(in: directory) }
        return try HostState(directory: directory)
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the recorded runs, oldest first.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Option(help: ArgumentHelp("Only the runs of this type.", valueName: "type"))
        var type: String?

        func run() throws {
            let donations = try DonationsCommand.state().donations(type: type)
            if global.json {
                Output.printJSON(Document(donations: donations))
                return
            }
            guard !donations.isEmpty else {
                Console.current.print(type.map { "No runs of \($0) are recorded." } ?? "No runs are recorded yet; every handled run is.")
                return
            }
            let formatter = ISO8601DateFormatter()
            for donation in donations {
                let values = donation.parameters.keys.sorted().map { "\($0)=\(donation.parameters[$0]!)" }
                Output.show(([formatter.string(from: donation.date), donation.type] + values).joined(separator: "  "))
            }
        }

        struct Document: Encodable {
            var donations: [Donation]
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Forget the recorded runs, or only those of one type.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Argument(help: ArgumentHelp("Forget only the runs of this type.", valueName: "type"))
        var type: String?

        func run() throws {
            let removed = try DonationsCommand.state().clearDonations(type: type)
            let what = type.map { " of \($0)" } ?? ""
            Output.report(global, Summary(removed: removed, message: "Forgot \(removed) run\(removed == 1 ? "" : "s")\(what)."),
                          message: \.message)
        }

        struct Summary: Encodable {
            var removed: Int
            var message: String
        }
    }
}

/// `suggest`: what to run next, from the donations, with why.
struct SuggestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Suggest actions from past runs, ranked by frequency, recency and time of day.",
        discussion: """
            score = frequency × (1 + time of day) + recency, where frequency = log2(1 + runs, each \
            halved per 14 days of age), recency halves every 48 hours since the last run, and time \
            of day falls from 1 at the usual time to 0 two hours from it. The menu offers the best \
            suggestion that ran at least twice and usually runs within an hour of now, when it has room.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions

    @Option(help: "At most this many suggestions.")
    var limit = 5

    func run() throws {
        let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
        let ranked = try session.suggestions().prefix(limit)
        let entries = ranked.map { suggestion in
            Entry(title: suggestion.title(for: session.plugins.registry.handler(for: suggestion.type), language: session.language),
                  suggestion: suggestion)
        }
        if global.json {
            Output.printJSON(Document(suggestions: entries))
            return
        }
        guard !entries.isEmpty else {
            Console.current.print("Nothing to suggest yet: suggestions come from the runs you make (see 'standfit-host donations').")
            return
        }
        for (index, entry) in entries.enumerated() {
            let values = entry.suggestion.parameters.keys.sorted().map { "\($0)=\(entry.suggestion.parameters[$0]!)" }
            Output.show("\(index + 1). \(entry.title)  (\(([entry.suggestion.type] + values).joined(separator: " ")))  score \(String(format: "%.2f", entry.suggestion.score))")
            Output.show("   \(entry.suggestion.reasons)")
        }
    }

    struct Entry: Encodable {
        var title: String
        var suggestion: Suggestions.Suggestion

        enum CodingKeys: String, CodingKey { case title, type, parameters, score, frequency, recency, timeOfDay, runs, lastRun, usualTime, reasons }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encode(suggestion.type, forKey: .type)
            try container.encode(suggestion.parameters, forKey: .parameters)
            try container.encode((suggestion.score * 100).rounded() / 100, forKey: .score)
            try container.encode((suggestion.frequency * 100).rounded() / 100, forKey: .frequency)
            try container.encode((suggestion.recency * 100).rounded() / 100, forKey: .recency)
            try container.encode((suggestion.timeOfDay * 100).rounded() / 100, forKey: .timeOfDay)
            try container.encode(suggestion.runs, forKey: .runs)
            try container.encode(ISO8601DateFormatter().string(from: suggestion.lastRun), forKey: .lastRun)
            try container.encode(suggestion.usualTime, forKey: .usualTime)
            try container.encode(suggestion.reasons, forKey: .reasons)
        }
    }

    struct Document: Encodable {
        var suggestions: [Entry]
    }
}
