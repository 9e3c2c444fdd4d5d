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
        self.title = title
        self.executable = executable
        self.remind = remind
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
        (remind ? "reminder: " : "") + (arguments.isEmpty ? title : "\(title) (\(arguments.joined(separator: " ")))")
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
        lines += ["", "[Service]", "Type=oneshot", "ExecStart=\(command.map(UnitText.execWord).joined(separator: " "))", ""]
        return lines.joined(separator: "\n")
    }

    /// The schedule the unit files of `id` describe; nil when they are not ours or not whole.
    public static func parse(id: Int, timer: String, service: String) -> Schedule? {
        let timerKeys = UnitText.keys(timer), serviceKeys = UnitText.keys(service)
        guard let calendar = timerKeys["OnCalendar"]?.first, let type = serviceKeys["X-StandFit-Type"]?.first,
              let exec = serviceKeys["ExecStart"]?.first, let executable = UnitText.firstWord(exec) else { return nil }
        return Schedule(id: id, calendar: calendar, type: type, arguments: serviceKeys["X-StandFit-Argument"] ?? [],
                        title: serviceKeys["X-StandFit-Title"]?.first ?? type, executable: executable,
                        remind: serviceKeys["X-StandFit-Reminder"]?.first == "yes")
    }
}

/// Writing and reading the few pieces of systemd's unit syntax the schedules use.
///
/// Rationale: by hand, not a library: no Swift library writes systemd unit files, and the
/// syntax needed is a handful of rules (systemd.syntax(7), systemd.service(7) "Command lines");
/// `systemd-analyze verify` checks every file written in the tests.
public enum UnitText {
    /// A value on one line: a line break would start a key of its own; `%` is a specifier.
    public static func value(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "%", with: "%%")
    }

    /// One word of `ExecStart=`: as it is when it is plain, else double-quoted with `\` and `"`
    /// escaped; `%` (specifiers) doubled and `$` (variables) doubled either way.
    public static func execWord(_ word: String) -> String {
        let escaped = word.replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        if CommandWord.isPlain(word) { return escaped }
        return "\"" + escaped.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// The values of each key, in order, `%%` read back as `%`; comments and sections ignored.
    static func keys(_ text: String) -> [String: [String]] {
        var keys: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("[") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]), value = String(line[line.index(after: equals)...])
            keys[key, default: []].append(key == "ExecStart" ? value : value.replacingOccurrences(of: "%%", with: "%"))
        }
        return keys
    }

    /// The first word of an `ExecStart=` line as `execWord` wrote it.
    static func firstWord(_ line: String) -> String? {
        var word = "", quoted = false, escaped = false
        for character in line {
            if escaped {
                word.append(character == "n" ? "\n" : character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == " " && !quoted {
                break
            } else {
                word.append(character)
            }
        }
        word = word.replacingOccurrences(of: "%%", with: "%").replacingOccurrences(of: "$$", with: "$")
        return word.isEmpty ? nil : word
    }
}
