import ArgumentParser
import Foundation
import HostIntents
import HostModel
import HostServer
import HostStorage
import StandFitHost

/// `donations list|clear`: the local log of handled runs that `suggest` learns from.
struct DonationsCommand: HostCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "donations",
        abstract: Usage.words("help.donations"),
        discussion: Usage.words("help.donations.discussion"),
        subcommands: [List.self, Clear.self],
        defaultSubcommand: List.self
    ) }

    /// The host's session: the state where the donations are, and the plugins and routines a
    /// type named on the command line is resolved against (as `run` resolves it).
    static func session(_ global: GlobalOptions, _ manifestOptions: ManifestOptions) throws -> HostSession {
        try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
    }

    /// The session, or nil when none can be had (a manifest or config.json the other commands
    /// stop at) and no type was named: listing and clearing every run needs neither, so they
    /// still work, with the values as text.
    static func session(_ global: GlobalOptions, _ manifestOptions: ManifestOptions, typeNamed: Bool) throws -> HostSession? {
        do {
            return try session(global, manifestOptions)
        } catch let error as HostError where !typeNamed && error.code != .state {
            global.logger.warning("\(error.message(in: HostRequest.current.language(locale: manifestOptions.locale)))")
            return nil
        }
    }

    /// The type `name` means, or the exit `run` would give it (unknown or ambiguous: 2).
    static func resolve(_ name: String, in session: HostSession, _ global: GlobalOptions) throws -> HostSession.DonatedType {
        switch try session.donatedType(named: name) {
        case .success(let type): return type
        case .failure(let outcome): try Output.finish(outcome, global, language: session.language)
        }
        throw ExitCode(Output.Status.unknownType)
    }

    /// "com.standfit.logexercise (Log Exercise)".
    static func describe(_ type: HostSession.DonatedType) -> String {
        type.title.map { "\(type.type) (\($0))" } ?? type.type
    }

    /// A donation's time in the user's zone: "2026-11-23 22:34:05" for people, with its UTC
    /// offset for programs.
    static func localTime(_ date: Date, _ timeZone: TimeZone, json: Bool) -> String {
        var style = Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: json ? .standard : .space,
                                            timeZone: timeZone)
        style = style.year().month().day().time(includingFractionalSeconds: false)
        return date.formatted(json ? style.timeZone(separator: .colon) : style)
    }

    struct List: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: Usage.words("help.donations.list")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Option(help: Usage.help("help.donations.list.type", valueName: "type"))
        var type: String?

        func run() throws {
            let session = try DonationsCommand.session(global, manifestOptions, typeNamed: type != nil)
            let wanted = if let type, let session { try DonationsCommand.resolve(type, in: session, global) } else { HostSession.DonatedType?.none }
            let state = try session?.state ?? manifestOptions.hostOptions(global).state(of: HostRequest.current.paths)
            let timeZone = session?.request.timeZone ?? HostRequest.current.timeZone
            let donations = try state.donations(type: wanted?.type)
            if global.json {
                Output.printJSON(Document(donations: donations.map { donation in
                    Entry(id: donation.id, type: donation.type,
                          parameters: session?.typedValues(donation.parameters, of: donation.type) ?? donation.parameters.mapValues(JSONValue.string),
                          titles: donation.titles, date: DonationsCommand.localTime(donation.date, timeZone, json: true))
                }))
                return
            }
            guard !donations.isEmpty else {
                let text = HostText(language: session?.language ?? "en")
                if let wanted, !wanted.suggestible {
                    Console.current.print(text("donations.none.notSuggestible", ["type": DonationsCommand.describe(wanted)]))
                } else {
                    Console.current.print(wanted.map { text("donations.none.type", ["type": DonationsCommand.describe($0)]) } ?? text("donations.none"))
                }
                return
            }
            for donation in donations {
                let values = donation.parameters.keys.sorted().map { "\($0)=\(donation.parameters[$0]!)" }
                Output.show(([DonationsCommand.localTime(donation.date, timeZone, json: false), donation.type] + values).joined(separator: "  "))
            }
            // What the user turned down is learnt from all the same, and said so.
            let muted = try state.mutes().filter { mute in wanted.map { $0.type == mute.type } ?? true }
            let language = session?.language
                ?? LanguagePreference(explicit: manifestOptions.locale, environment: HostRequest.current.environment).language(fallback: nil)
            let lines = SuggestionsCommand.mutedLines(muted, zone: timeZone, language: language)
            if !lines.isEmpty { Console.current.print("") }
            for line in lines { Output.show(line) }
        }

        /// One recorded run under `--json`: its values as numbers, booleans or text by their
        /// parameters' kinds, its time with the user's UTC offset.
        struct Entry: Encodable {
            var id: Int64?
            var type: String
            var parameters: [String: JSONValue]
            var titles: [String: String]
            var date: String
        }

        struct Document: Encodable {
            var donations: [Entry]
        }
    }

    struct Clear: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "clear", abstract: Usage.words("help.donations.clear")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Argument(help: Usage.help("help.donations.clear.type", valueName: "type"))
        var type: String?

        func run() throws {
            let session = try DonationsCommand.session(global, manifestOptions, typeNamed: type != nil)
            let wanted = if let type, let session { try DonationsCommand.resolve(type, in: session, global) } else { HostSession.DonatedType?.none }
            let removed = try (session?.state ?? manifestOptions.hostOptions(global).state(of: HostRequest.current.paths))
                .clearDonations(type: wanted?.type)
            let text = HostText(language: session?.language ?? "en")
            let runs = text(removed == 1 ? "donations.runs.one" : "donations.runs.many", ["count": "\(removed)"])
            let message = if let wanted, !wanted.suggestible {
                text("donations.forgot.notSuggestible", ["runs": runs, "type": DonationsCommand.describe(wanted)])
            } else if let wanted {
                text("donations.forgot.type", ["runs": runs, "type": DonationsCommand.describe(wanted)])
            } else {
                text("donations.forgot", ["runs": runs])
            }
            Output.report(global, Summary(removed: removed, type: wanted?.type, message: message), message: \.message)
        }

        struct Summary: Encodable {
            var removed: Int
            var type: String?
            var message: String
        }
    }
}
