import ArgumentParser
import HostIntents
import HostModel
import HostSchedules
import HostServer
import StandFitHost

/// `suggest`: what to run next, from the donations, with why.
struct SuggestCommand: ManifestCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "suggest",
        abstract: Usage.words("help.suggest"),
        discussion: Usage.words("help.suggest.discussion")
    ) }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions

    @Option(help: Usage.help("help.suggest.limit"))
    var limit = 5

    @Flag(help: Usage.help("help.suggest.explain"))
    var explain = false

    func run() throws {
        let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
        let ranked = try session.suggestions().prefix(limit)
        let entries = ranked.map { suggestion in
            Entry(title: suggestion.title(for: session.plugins.registry.handler(for: suggestion.type), language: session.language),
                  suggestion: suggestion, parameters: session.typedValues(suggestion.parameters, of: suggestion.type),
                  lastRun: DonationsCommand.localTime(suggestion.lastRun, session.request.timeZone, json: true))
        }
        if global.json {
            Output.printJSON(Document(suggestions: entries))
            return
        }
        if entries.isEmpty { Console.current.print(HostText(language: session.language)("suggest.nothing")) }
        let text = HostText(language: session.language)
        for (index, entry) in entries.enumerated() {
            let values = entry.suggestion.parameters.keys.sorted().map { "\($0)=\(entry.suggestion.parameters[$0]!)" }
            Output.show("\(index + 1). \(entry.title)  (\(([entry.suggestion.type] + values).joined(separator: " ")))  \(text("suggest.score", ["score": String(format: "%.2f", entry.suggestion.score)]))")
            Output.show("   \(entry.suggestion.reasons)")
        }
        guard explain else { return }
        let on = ScheduleCommand.store(session.options).hasUnits(SuggestionTimer.unitName)
        Output.show("")
        Output.show(text("suggest.explain", [
            "toggle": on ? "off" : "on", "toggleWord": text(on ? "suggest.toggleOff" : "suggest.toggleOn"),
            "runs": "\(SuggestionOffers.minimumRuns)", "window": "\(SuggestionOffers.window)", "rules": try SuggestionsCommand.rules(session),
        ]))
        for line in SuggestionsCommand.mutedLines(try session.state.mutes(), zone: session.request.timeZone, language: session.language) {
            Output.show(line)
        }
    }

    struct Entry: Encodable {
        var title: String
        var suggestion: Suggestions.Suggestion
        /// Its values as numbers, booleans or text by their parameters' kinds.
        var parameters: [String: JSONValue]
        /// When it last ran, with the user's UTC offset.
        var lastRun: String

        enum CodingKeys: String, CodingKey { case title, type, parameters, score, frequency, recency, timeOfDay, runs, lastRun, usualTime, reasons }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encode(suggestion.type, forKey: .type)
            try container.encode(parameters, forKey: .parameters)
            try container.encode((suggestion.score * 100).rounded() / 100, forKey: .score)
            try container.encode((suggestion.frequency * 100).rounded() / 100, forKey: .frequency)
            try container.encode((suggestion.recency * 100).rounded() / 100, forKey: .recency)
            try container.encode((suggestion.timeOfDay * 100).rounded() / 100, forKey: .timeOfDay)
            try container.encode(suggestion.runs, forKey: .runs)
            try container.encode(lastRun, forKey: .lastRun)
            try container.encode(suggestion.usualTime, forKey: .usualTime)
            try container.encode(suggestion.reasons, forKey: .reasons)
        }
    }

    struct Document: Encodable {
        var suggestions: [Entry]
    }
}
