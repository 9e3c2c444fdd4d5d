import ArgumentParser
import Foundation
import HostDispatch
import HostIntents
import HostModel
import HostSchedules
import HostServer
import HostSurfaces
import Logging
import StandFitHost

/// `suggestions`: suggestions that come to the user as notifications at their usual time, on one
/// user timer the host manages, and the ones turned down for good.
struct SuggestionsCommand: HostCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "suggestions",
        abstract: Usage.words("help.suggestions"),
        discussion: Usage.words("help.suggestions.discussion"),
        subcommands: [Status.self, On.self, Off.self, Offer.self, Unmute.self],
        defaultSubcommand: Status.self
    ) }

    /// "Log 10 Push-Ups (com.standfit.logexercise count=10 exercise=pushups)".
    static func describe(_ mute: SuggestionMute) -> String {
        let values = mute.parameters.keys.sorted().map { "\($0)=\(mute.parameters[$0]!)" }
        return "\(mute.title) (\(([mute.type] + values).joined(separator: " ")))"
    }

    /// "quiet hours 22:00-08:00, at most 3 a day" ("quiet hours 21:30-07:30 (learned from your
    /// runs)" when config.json does not set them and the runs show them).
    static func rules(_ session: HostSession) throws -> String {
        let (hours, learned) = try session.quietHours()
        let text = HostText(language: session.language)
        return text(learned ? "suggestions.rulesLearned" : "suggestions.rules",
                    ["hours": hours?.text ?? text("suggestions.noQuietHours"), "perDay": "\(session.config.suggestionsPerDay)"])
    }

    /// A suggestion turned down, as `--json` has it: `mutedAt` in ISO 8601 with the user's offset.
    struct Muted: Encodable {
        var type: String
        var parameters: [String: String]
        var title: String
        var mutedAt: String

        init(_ mute: SuggestionMute, _ zone: TimeZone) {
            type = mute.type
            parameters = mute.parameters
            title = mute.title
            mutedAt = DonationsCommand.localTime(mute.mutedAt, zone, json: true)
        }
    }

    /// What `suggestions on` and `off` print under `--json`.
    struct Switched: Encodable {
        var on: Bool
        /// Whether a systemd user manager runs the timer now (`on`), and why not.
        var active: Bool?
        var note: String?
        /// The unit files removed (`off`).
        var removed: [String]?
        var message: String

        /// The document under `--json`, else the message with what systemctl and the paths put
        /// in it made visible (as before there was a document).
        func say(_ global: GlobalOptions) {
            if global.json { Output.printJSON(self) } else { Output.show(message) }
        }
    }

    struct Status: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "status", abstract: Usage.words("help.suggestions.status")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        struct Document: Encodable {
            var on: Bool
            var active: Bool
            var note: String?
            var quietHours: String?
            /// Whether the quiet hours are learned from the runs (config.json does not set them).
            var quietHoursLearned: Bool
            var perDay: Int
            var offeredToday: Int
            var muted: [Muted]
        }

        func run() throws {
            let options = manifestOptions.hostOptions(global)
            let session = try HostSession(options: options, logger: global.logger)
            let store = ScheduleCommand.store(options)
            let on = store.hasUnits(SuggestionTimer.unitName)
            let activity = on ? store.activity(ofTimer: SuggestionTimer.timerName, manager: UserManager.state(environment: options.request.environment)) : nil
            let offered = try session.state.offers(day: SuggestionOffers.day(of: session.now, in: session.request.timeZone)).count
            let muted = try session.state.mutes()
            if global.json {
                var note: String?
                if case .inactive(let why)? = activity { note = why }
                let quiet = try session.quietHours()
                Output.printJSON(Document(on: on, active: activity == .active, note: note, quietHours: quiet.hours?.text,
                                          quietHoursLearned: quiet.learned,
                                          perDay: session.config.suggestionsPerDay, offeredToday: offered,
                                          muted: muted.map { Muted($0, session.request.timeZone) }))
                return
            }
            let text = HostText(language: session.language)
            if let activity {
                Output.show(text("suggestions.statusOn", ["rules": try SuggestionsCommand.rules(session),
                                                          "activity": ScheduleCommand.describe(activity, language: session.language)]))
            } else {
                Output.show(text("suggestions.statusOff", ["rules": try SuggestionsCommand.rules(session)]))
            }
            Output.show(text("suggestions.offeredToday", ["count": "\(offered)"]))
            for line in SuggestionsCommand.mutedLines(muted, zone: session.request.timeZone, language: session.language) { Output.show(line) }
        }
    }

    /// What was turned down, with when and how to undo it; nothing when nothing was.
    static func mutedLines(_ muted: [SuggestionMute], zone: TimeZone, language: String) -> [String] {
        guard !muted.isEmpty else { return [] }
        let text = HostText(language: language)
        return [text("suggestions.mutedHeader")] + muted.map {
            "  " + text("suggestions.mutedLine", ["suggestion": describe($0), "time": DonationsCommand.localTime($0.mutedAt, zone, json: false)])
        }
    }

    struct On: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "on", abstract: Usage.words("help.suggestions.on")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            let options = manifestOptions.hostOptions(global)
            let session = try HostSession(options: options, logger: global.logger)
            let timer = SuggestionTimer(executable: Executable.command.path)
            _ = try UnitText.program(timer.executable)
            let activity = try ScheduleCommand.store(options).install(unit: SuggestionTimer.unitName, timer: timer.timerText,
                                                                         service: timer.serviceText)
            let message = HostText(language: session.language)("suggestions.turnedOn", [
                "timer": SuggestionTimer.timerName, "rules": try SuggestionsCommand.rules(session),
                "activity": ScheduleCommand.describe(activity, language: session.language),
            ])
            var note: String?
            if case .inactive(let why) = activity { note = why }
            Switched(on: true, active: activity == .active, note: note, message: message).say(global)
        }
    }

    struct Off: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "off", abstract: Usage.words("help.suggestions.off")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            let options = manifestOptions.hostOptions(global)
            let store = ScheduleCommand.store(options)
            let text = HostText(language: LanguagePreference(explicit: manifestOptions.locale, environment: options.request.environment).language(fallback: nil))
            guard store.hasUnits(SuggestionTimer.unitName) else {
                let message = text("suggestions.alreadyOff", ["timer": SuggestionTimer.timerName, "directory": store.directory.path])
                return Switched(on: false, removed: [], message: message).say(global)
            }
            let removed = try store.removeUnits(SuggestionTimer.unitName)
            let message = text("suggestions.turnedOff", ["timer": SuggestionTimer.timerName, "count": "\(removed.count)"])
            Switched(on: false, removed: removed, message: message).say(global)
        }
    }

    /// What `suggestions unmute` prints under `--json`.
    struct Unmuted: Encodable {
        var unmuted: [Muted]
        var message: String
    }

    struct Unmute: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "unmute", abstract: Usage.words("help.suggestions.unmute"),
            discussion: Usage.words("help.suggestions.unmute.discussion")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Argument(help: Usage.help("help.suggestions.unmute.type", valueName: "type"))
        var type: String?

        @Argument(help: Usage.help("help.suggestions.unmute.parameters", valueName: "name=value"))
        var parameters: [String] = []

        @Flag(help: Usage.help("help.suggestions.unmute.all"))
        var all = false

        func validate() throws {
            if all == (type != nil) { throw ValidationError(Usage.words("usage.suggestions.unmute.typeOrAll")) }
        }

        func run() throws {
            let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
            var values: [String: String]?
            var type: String?
            if let name = self.type {
                switch try session.donatedType(named: name) {
                case .failure(let outcome): return try Output.finish(outcome, global, language: session.language)
                case .success(let donated): type = donated.type
                }
                if !parameters.isEmpty {
                    switch RunCommand.namedArguments(parameters, type: name, language: session.language) {
                    case .success(let named): values = Dictionary(named.map { ($0.name, $0.value) }) { _, last in last }
                    case .failure(let refusal): return try Output.finish(refusal.outcome, global, language: session.language)
                    }
                }
            }
            let unmuted = try session.state.unmute(type: type, parameters: values)
            let text = HostText(language: session.language)
            guard !unmuted.isEmpty else {
                let muted = try session.state.mutes()
                let message = text(muted.isEmpty ? "suggestions.nothingMuted" : "suggestions.nothingMutedSome", ["type": type ?? text("suggestions.anyType")])
                if global.json {
                    Output.printJSON(Output.ErrorDocument(code: "nothing-muted", message: message))
                } else {
                    Output.printError(message)
                }
                throw ExitCode(Output.Status.unknownType)
            }
            let lines = unmuted.map { text("suggestions.unmuted", ["suggestion": SuggestionsCommand.describe($0)]) }
            if global.json {
                Output.printJSON(Unmuted(unmuted: unmuted.map { Muted($0, session.request.timeZone) }, message: lines.joined(separator: "\n")))
            } else {
                for line in lines { Output.show(line) }
            }
        }
    }
}
