import Foundation
import HostModel

/// One scheduled action (`schedule add`): a pair of systemd user units in
/// `$XDG_CONFIG_HOME/systemd/user/`, a `.timer` with the calendar expression and a `.service`
/// that runs the action through the thin client, so through the user's warm server, as any
/// command (`run --notify --scheduled`: its outcome notified, recorded as scheduled, no donation).
///
/// The unit files are the only record: `schedule list` reads them back, so what systemd runs
/// and what the host shows cannot drift apart, and removing the files by hand removes the
/// schedule.
public struct Schedule: Equatable, Sendable {
    /// Its number, in the units' names (`org.standfit.Host.schedule-ID.timer`).
    public var id: Int
    /// The calendar expression, as systemd normalized it ("Mon..Fri *-*-* 07:00:00").
    public var calendar: String
    /// The action's type, and its values as `run` takes them (`exercise=squats`).
    public var type: String
    public var arguments: [String]
    /// What the action is called, for the units' descriptions.
    public var title: String
    /// The thin client the service runs.
    public var executable: String
    /// A reminder: it asks for the value left out (a notification with the values as buttons)
    /// instead of running the action.
    public var remind: Bool

    public init(id: Int, calendar: String, type: String, arguments: [String], title: String, executable: String, remind: Bool = false) {
        self.id = id
        self.calendar = calendar
        self.type = type
        self.arguments = arguments
        self.title = Schedule.shown(title)
        self.executable = executable
        self.remind = remind
    }

    /// The most a title keeps (in characters) before it is cut with an ellipsis: it is shown in
    /// `schedule list` and systemd's descriptions, which a longer one would only flood.
    public static let titleLimit = 120
    /// The most a type or a value may hold (in UTF-8 bytes): they are what the timer runs, so
    /// they are never cut; a longer one is refused (`check()`). systemd reads lines of at most
    /// 1 MiB, and no action's value needs more than this.
    public static let valueLimit = 4096

    /// `title` on one line and at most `titleLimit` characters.
    static func shown(_ title: String) -> String {
        // By scalars, not characters: one character may carry any number of combining marks.
        title.unicodeScalars.count <= titleLimit ? title : String(String.UnicodeScalarView(title.unicodeScalars.prefix(titleLimit - 1))) + "…"
    }

    /// Refuses, in a sentence, a type or value too long to keep in a unit.
    public func check() throws(HostError) {
        for (what, text) in [("type", type)] + arguments.map({ ("value", $0) }) where text.utf8.count > Schedule.valueLimit {
            let sizes = ["bytes": "\(text.utf8.count)", "limit": "\(Schedule.valueLimit)"]
            throw HostError(.scheduleInvalid, what == "type" ? HostText.Phrase("error.schedule.typeLong", sizes)
                                 : HostText.Phrase("error.schedule.valueLong", sizes.merging(["value": UnitText.value(String(text.prefix(40)))]) { $1 }))
        }
        // systemd cannot carry a NUL in a command line (it refuses \x00), so neither can a schedule.
        if let holder = ([type] + arguments).first(where: { $0.unicodeScalars.contains("\0") }) {
            throw HostError(.scheduleInvalid, holder == type ? HostText.Phrase("error.schedule.typeNul")
                                 : HostText.Phrase("error.schedule.valueNul", ["value": UnitText.value(String(holder.prefix(40)))]))
        }
        _ = try UnitText.program(executable)
    }

    /// The units' names share this prefix: the application id.
    public static let unitPrefix = "org.standfit.Host.schedule-"

    public var unitName: String { "\(Schedule.unitPrefix)\(id)" }
    public var timerName: String { unitName + ".timer" }
    public var serviceName: String { unitName + ".service" }

    /// The command line the service runs.
    public var command: [String] { [executable, "run", "--notify", "--scheduled"] + (remind ? ["--remind"] : []) + ["--", type] + arguments }

    /// "Log Exercise (exercise=squats count=20)", "reminder: Log Exercise".
    public var summary: String {
        summary(in: "en")
    }

    /// The same, "reminder:" in `language`.
    public func summary(in language: String) -> String {
        let action = arguments.isEmpty ? title : "\(title) (\(arguments.joined(separator: " ")))"
        return remind ? HostText(language: language)("schedule.reminder", ["action": action]) : action
    }

    /// The `.timer` unit. `Persistent=` runs a time missed while the machine was off once at the
    /// next boot, as a phone's reminder shows up when it is switched on.
    public var timerText: String {
        """
        # Written by 'standfit-host schedule add'; 'standfit-host schedule remove \(id)' removes it.
        [Unit]
        Description=\(UnitText.value("standfit-host schedule \(id): \(summary)"))

        [Timer]
        OnCalendar=\(calendar)
        Persistent=true

        [Install]
        WantedBy=timers.target

        """
    }

    /// The `.service` unit the timer starts: one run of the action. The `X-StandFit-` keys
    /// (systemd ignores `X-` keys) say what `schedule list` shows without parsing `ExecStart`.
    public var serviceText: String {
        var lines = [
            "# Written by 'standfit-host schedule add'; 'standfit-host schedule remove \(id)' removes it.",
            "[Unit]",
            "Description=\(UnitText.value("standfit-host schedule \(id): \(summary)"))",
            "X-StandFit-Type=\(UnitText.value(type))",
            "X-StandFit-Title=\(UnitText.value(title))",
        ]
        lines += arguments.map { "X-StandFit-Argument=\(UnitText.value($0))" }
        if remind { lines.append("X-StandFit-Reminder=yes") }
        // `check()` refused a program systemd cannot run before anything was written.
        lines += ["", "[Service]", "Type=oneshot", "ExecStart=\((try? UnitText.commandLine(command)) ?? "")", ""]
        return lines.joined(separator: "\n")
    }

    /// The schedule the unit files of `id` describe; nil when they are not ours or not whole.
    public static func parse(id: Int, timer: String, service: String) -> Schedule? {
        let timerKeys = UnitText.keys(timer), serviceKeys = UnitText.keys(service)
        guard let calendar = timerKeys["OnCalendar"]?.first, let type = serviceKeys["X-StandFit-Type"]?.first,
              let exec = serviceKeys["ExecStart"]?.first, let executable = UnitText.execWords(exec).first else { return nil }
        return Schedule(id: id, calendar: calendar, type: type, arguments: serviceKeys["X-StandFit-Argument"] ?? [],
                        title: serviceKeys["X-StandFit-Title"]?.first ?? type, executable: executable,
                        remind: serviceKeys["X-StandFit-Reminder"]?.first == "yes")
    }
}
