import ArgumentParser
import Foundation
import HostDispatch
import HostModel
import HostSchedules
import HostServer
import StandFitHost

/// `schedule add|list|remove`: actions run at set times by the user's systemd (a timer and a
/// service per schedule), through the warm server like any command.
struct ScheduleCommand: HostCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "schedule",
        abstract: Usage.words("help.schedule"),
        discussion: Usage.words("help.schedule.discussion"),
        subcommands: [Add.self, List.self, Remove.self]
    ) }

    /// The schedules of the request's user.
    static func store(_ options: HostOptions) -> ScheduleStore {
        ScheduleStore(configHome: options.request.paths.configDirectory.deletingLastPathComponent(),
                      environment: options.request.environment, language: language(options))
    }

    /// The language of what a schedule command says: --locale, else the environment's.
    static func language(_ options: HostOptions) -> String {
        LanguagePreference(explicit: options.locale, environment: options.request.environment).language(fallback: nil)
    }

    /// "active", or "not active: why".
    static func describe(_ activity: ScheduleStore.Activity, language: String) -> String {
        let text = HostText(language: language)
        return switch activity {
        case .active: text("schedule.active")
        case .inactive(let why): text("schedule.notActive", ["why": why])
        }
    }

    struct Entry: Encodable {
        var id: Int
        var calendar: String
        /// The next time, ISO 8601 with the user's offset.
        var next: String?
        var type: String
        var arguments: [String]
        var title: String
        var remind: Bool
        var active: Bool
        var note: String?
        var timer: String
        var service: String

        init(_ schedule: Schedule, next: Date?, in zone: TimeZone, activity: ScheduleStore.Activity, store: ScheduleStore) {
            id = schedule.id
            calendar = schedule.calendar
            self.next = next.map { $0.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone)) }
            type = schedule.type
            arguments = schedule.arguments
            title = schedule.title
            remind = schedule.remind
            active = activity == .active
            if case .inactive(let why) = activity { note = why }
            timer = store.directory.appendingPathComponent(schedule.timerName).path
            service = store.directory.appendingPathComponent(schedule.serviceName).path
        }
    }

    struct Add: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "add",
            abstract: Usage.words("help.schedule.add"),
            discussion: Usage.words("help.schedule.add.discussion")
        ) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Argument(help: Usage.help("help.schedule.add.when", valueName: "when"))
        var when: String

        @Argument(help: Usage.help("help.schedule.add.type", valueName: "type"))
        var type: String

        @Argument(help: Usage.help("help.schedule.add.parameters", valueName: "name=value"))
        var parameters: [String] = []

        @Flag(help: Usage.help("help.schedule.add.remind"))
        var remind = false

        func run() throws {
            let options = manifestOptions.hostOptions(global)
            let session = try HostSession(options: options, logger: global.logger)
            let calendar = try UserManager.calendar(when, request: session.request).get()
            let named: [NamedArgument]
            switch RunCommand.namedArguments(parameters, type: type, language: session.language) {
            case .success(let parsed): named = parsed
            case .failure(let refusal): return try Output.finish(refusal.outcome, global, language: session.language)
            }
            // Checked as the timer will run it, with nobody to ask for a missing value; a
            // reminder is there to ask for one.
            let check = session.run(type, named: named, options: Dispatcher.RunOptions(dryRun: true, showsData: false))
            if remind {
                guard check.needsValue != nil || check.status == .dryRun && session.mayAsk(check.type, named: named) else {
                    if check.status == .dryRun {
                        throw HostError(.scheduleInvalid, key: "schedule.reminderComplete", ["type": check.type])
                    }
                    return try Output.finish(check, global, language: session.language)
                }
            } else {
                guard check.status == .dryRun else { return try Output.finish(check, global, language: session.language) }
            }
            let store = ScheduleCommand.store(options)
            let schedule = Schedule(id: store.nextID(), calendar: calendar.normalized, type: check.type,
                                    arguments: parameters, title: session.registeredItem(for: check.type)?.title ?? check.type,
                                    executable: Executable.command.path, remind: remind)
            let activity = try store.add(schedule)
            if global.json {
                Output.printJSON(Entry(schedule, next: calendar.nextInstant, in: session.request.timeZone, activity: activity, store: store))
                return
            }
            let text = HostText(language: session.language)
            let summary = schedule.summary(in: session.language), activityText = ScheduleCommand.describe(activity, language: session.language)
            Output.show(calendar.next.map {
                text("schedule.addedNext", ["id": "\(schedule.id)", "summary": summary, "calendar": schedule.calendar, "next": $0, "activity": activityText])
            } ?? text("schedule.added", ["id": "\(schedule.id)", "summary": summary, "calendar": schedule.calendar, "activity": activityText]))
        }
    }

    struct List: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "list", abstract: Usage.words("help.schedule.list")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            let options = manifestOptions.hostOptions(global)
            let store = ScheduleCommand.store(options)
            let language = ScheduleCommand.language(options), text = HostText(language: language)
            let manager = UserManager.state(environment: options.request.environment, language: language)
            let entries = store.all().map { schedule in
                let next = try? UserManager.calendar(schedule.calendar, request: options.request).get()
                return (schedule, next?.next, Entry(schedule, next: next?.nextInstant, in: options.request.timeZone, activity: store.activity(of: schedule, manager: manager), store: store))
            }
            if global.json {
                Output.printJSON(entries.map { $0.2 })
                return
            }
            guard !entries.isEmpty else {
                Console.current.print(text("schedule.none"))
                return
            }
            for (schedule, next, entry) in entries {
                let state = entry.active ? text("schedule.active") : text("schedule.notActive", ["why": entry.note ?? ""])
                let summary = schedule.summary(in: language)
                Output.show(next.map {
                    text("schedule.lineNext", ["id": "\(schedule.id)", "summary": summary, "calendar": schedule.calendar, "next": $0, "state": state])
                } ?? text("schedule.line", ["id": "\(schedule.id)", "summary": summary, "calendar": schedule.calendar, "state": state]))
            }
        }
    }

    struct Remove: ManifestCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "remove", abstract: Usage.words("help.schedule.remove"),
            discussion: Usage.words("help.schedule.remove.discussion")) }

        @OptionGroup var global: GlobalOptions
        @OptionGroup var manifestOptions: ManifestOptions

        @Argument(help: Usage.help("help.schedule.remove.id", valueName: "id"))
        var id: Int

        struct Document: Encodable {
            var status = "ok"
            var removed: [String]
        }

        func run() throws {
            let options = manifestOptions.hostOptions(global)
            let store = ScheduleCommand.store(options)
            let schedule = store.all().first { $0.id == id }
            let removed = try store.remove(id)
            if global.json {
                Output.printJSON(Document(removed: removed))
            } else {
                let language = ScheduleCommand.language(options), text = HostText(language: language)
                let files = text(removed.count == 1 ? "schedule.files.one" : "schedule.files.many", ["count": "\(removed.count)"])
                Output.show(schedule.map {
                    text("schedule.removedNamed", ["id": "\(id)", "summary": $0.summary(in: language), "files": files])
                } ?? text("schedule.removed", ["id": "\(id)", "files": files]))
            }
        }
    }
}
