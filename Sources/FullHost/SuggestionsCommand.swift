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
    static let configuration = CommandConfiguration(
        commandName: "suggestions",
        abstract: "Offer suggestions as notifications at their usual time, on a systemd timer.",
        discussion: """
            'suggestions on' writes and starts the user timer org.standfit.Host.suggestions.timer \
            ($XDG_CONFIG_HOME/systemd/user), which runs 'suggestions offer' every 15 minutes. A \
            suggestion comes as a notification ("Log 10 Push-Ups?" with Log, Not now and Stop \
            suggesting this) when it ran at least 3 times, on two days, and usually runs within 15 \
            minutes of now; never in the quiet hours (suggestionQuietHours in config.json; unless \
            set, the longest stretch of the day without any of your runs once there are 10 over 3 \
            days, "22:00-08:00" until then), at most suggestionsPerDay a day (3), each at most \
            once a day at each of its times of day, and never when the action ran today around \
            that time already. With no argument: whether they are on, and what was turned down.
            """,
        subcommands: [Status.self, On.self, Off.self, Offer.self, Unmute.self],
        defaultSubcommand: Status.self
    )

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

    struct Status: ManifestCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Say whether suggestions come as notifications, and what was turned down.")

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
            var muted: [SuggestionMute]
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
                                          perDay: session.config.suggestionsPerDay, offeredToday: offered, muted: muted))
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
        static let configuration = CommandConfiguration(
            commandName: "on", abstract: "Write and start the user timer that offers suggestions at their usual time.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            let options = manifestOptions.hostOptions(global)
            let session = try HostSession(options: options, logger: global.logger)
            let timer = SuggestionTimer(executable: Executable.command.path)
            _ = try UnitText.program(timer.executable)
            let activity = try ScheduleCommand.store(options).install(unit: SuggestionTimer.unitName, timer: timer.timerText,
                                                                         service: timer.serviceText)
            Output.show(HostText(language: session.language)("suggestions.turnedOn", [
                "timer": SuggestionTimer.timerName, "rules": try SuggestionsCommand.rules(session),
                "activity": ScheduleCommand.describe(activity, language: session.language),
            ]))
        }
    }

    struct Off: ManifestCommand {
        static let configuration = CommandConfiguration(
            commandName: "off", abstract: "Stop and remove the suggestions' user timer.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            let options = manifestOptions.hostOptions(global)
            let store = ScheduleCommand.store(options)
            let text = HostText(language: LanguagePreference(explicit: manifestOptions.locale, environment: options.request.environment).language(fallback: nil))
            guard store.hasUnits(SuggestionTimer.unitName) else {
                Output.show(text("suggestions.alreadyOff", ["timer": SuggestionTimer.timerName, "directory": store.directory.path]))
                return
            }
            let removed = try store.removeUnits(SuggestionTimer.unitName)
            Output.show(text("suggestions.turnedOff", ["timer": SuggestionTimer.timerName, "count": "\(removed.count)"]))
        }
    }

    struct Unmute: ManifestCommand {
        static let configuration = CommandConfiguration(
            commandName: "unmute", abstract: "Suggest again what you chose 'Stop suggesting this' for.",
            discussion: "TYPE as run resolves it, with name=value to unmute one suggestion of it alone; --all for everything. Exit status: 0 unmuted, 2 nothing of TYPE was muted.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Argument(help: ArgumentHelp("The action's type.", valueName: "type"))
        var type: String?

        @Argument(help: ArgumentHelp("Its values, to unmute that suggestion alone.", valueName: "name=value"))
        var parameters: [String] = []

        @Flag(help: "Unmute every suggestion.")
        var all = false

        func validate() throws {
            if all == (type != nil) { throw ValidationError("Name a type to unmute, or pass --all (not both).") }
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
                Output.printError(text(muted.isEmpty ? "suggestions.nothingMuted" : "suggestions.nothingMutedSome", ["type": type ?? text("suggestions.anyType")]))
                throw ExitCode(Output.Status.unknownType)
            }
            for mute in unmuted { Output.show(text("suggestions.unmuted", ["suggestion": SuggestionsCommand.describe(mute)])) }
        }
    }
}
