import Foundation
import HostModel

/// The schedules of one user: their unit files in `$XDG_CONFIG_HOME/systemd/user/`, and the
/// user's service manager, asked with its own tools (`systemd-analyze`, `systemctl --user`),
/// in the request's environment.
public struct ScheduleStore: Sendable {
    /// `$XDG_CONFIG_HOME/systemd/user`.
    public var directory: URL
    /// The request's environment: the user's manager is found through it (XDG_RUNTIME_DIR).
    public var environment: [String: String]

    public init(configHome: URL, environment: [String: String], language: String = "en") {
        directory = configHome.appendingPathComponent("systemd/user", isDirectory: true)
        self.environment = environment
        text = HostText(language: language)
    }

    /// The words of why a timer is not active, in the user's language.
    let text: HostText

    /// `timers.target.wants/`, where enabling a timer links it.
    var wants: URL { directory.appendingPathComponent("timers.target.wants", isDirectory: true) }

    /// Every schedule whose two unit files are there, by number.
    public func all() -> [Schedule] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let ids = names.compactMap { name -> Int? in
            guard name.hasPrefix(Schedule.unitPrefix), name.hasSuffix(".timer") else { return nil }
            return Int(name.dropFirst(Schedule.unitPrefix.count).dropLast(".timer".count))
        }
        return ids.sorted().compactMap { id in
            let unit = Schedule.unitPrefix + "\(id)"
            guard let timer = try? String(contentsOf: directory.appendingPathComponent(unit + ".timer"), encoding: .utf8),
                  let service = try? String(contentsOf: directory.appendingPathComponent(unit + ".service"), encoding: .utf8) else { return nil }
            return Schedule.parse(id: id, timer: timer, service: service)
        }
    }

    /// The lowest number no schedule's files use.
    public func nextID() -> Int {
        var id = 1
        while FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(Schedule.unitPrefix)\(id).timer").path)
            || FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(Schedule.unitPrefix)\(id).service").path) {
            id += 1
        }
        return id
    }

    /// Writes the schedule's units and enables its timer (the link `systemctl enable` makes),
    /// so that it runs from the user manager's next start if none runs now; with a manager
    /// running, it is loaded and started. Answers whether it is active now, or why not.
    public func add(_ schedule: Schedule) throws(HostError) -> Activity {
        try schedule.check()
        return try install(unit: schedule.unitName, timer: schedule.timerText, service: schedule.serviceText)
    }

    /// Writes the units `unit`.timer and `unit`.service and enables and starts the timer, as
    /// `add` does for a schedule's.
    public func install(unit: String, timer: String, service: String) throws(HostError) -> Activity {
        let timerName = unit + ".timer"
        for (name, text) in [(unit + ".service", service), (timerName, timer)] {
            try write(text, to: directory.appendingPathComponent(name))
        }
        // Rationale: the link by hand, as `systemctl --user enable` makes it, because that
        // command needs a running manager and a timer written without one must still start
        // with the next session that has one.
        let link = wants.appendingPathComponent(timerName)
        do {
            try FileManager.default.createDirectory(at: wants, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: link)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../" + timerName)
        } catch {
            throw HostError(.io, key: "error.schedule.enable", ["timer": timerName, "directory": wants.path, "why": error.localizedDescription], cause: error)
        }
        let manager = UserManager.state(environment: environment, language: text.language)
        guard case .running = manager else { return activity(ofTimer: timerName, manager: manager) }
        _ = UserManager.systemctl(["daemon-reload"], environment: environment)
        let started = UserManager.systemctl(["start", timerName], environment: environment)
        if started.status != 0 {
            return .inactive(text("schedule.startFailed", ["timer": timerName, "output": started.output.trimmingCharacters(in: .whitespacesAndNewlines)]))
        }
        return activity(ofTimer: timerName, manager: manager)
    }

    /// Stops and removes the schedule `id`: its timer, its service and the link enabling it.
    /// Answers the files removed.
    public func remove(_ id: Int) throws(HostError) -> [String] {
        let unit = Schedule.unitPrefix + "\(id)"
        guard hasUnits(unit) else {
            let known = all().map { "\($0.id)" }
            throw known.isEmpty ? HostError(.unknownSchedule, key: "schedule.unknown", ["id": "\(id)"])
                : HostError(.unknownSchedule, key: "schedule.unknownSome", ["id": "\(id)", "known": known.joined(separator: ", ")])
        }
        return try removeUnits(unit)
    }

    /// Whether `unit`'s timer or service file is there.
    public func hasUnits(_ unit: String) -> Bool {
        [unit + ".timer", unit + ".service"].contains { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
    }

    /// Stops `unit`.timer and removes it, its service and the link enabling it; answers the
    /// files removed.
    public func removeUnits(_ unit: String) throws(HostError) -> [String] {
        let files = [wants.appendingPathComponent(unit + ".timer"), directory.appendingPathComponent(unit + ".timer"),
                     directory.appendingPathComponent(unit + ".service")]
        let manager = UserManager.state(environment: environment, language: text.language)
        if case .running = manager {
            _ = UserManager.systemctl(["stop", unit + ".timer"], environment: environment)
        }
        var removed: [String] = []
        for file in files {
            var info = stat()
            guard lstat(file.path, &info) == 0 else { continue }
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw HostError(.io, key: "error.remove", ["path": file.path, "why": error.localizedDescription], cause: error)
            }
            removed.append(file.path)
        }
        if case .running = manager {
            _ = UserManager.systemctl(["daemon-reload"], environment: environment)
        }
        return removed
    }

    /// Whether a schedule's timer is active, or why not.
    public enum Activity: Equatable, Sendable {
        case active
        case inactive(String)
    }

    /// What the user's manager (in `manager`'s state, asked once per command) says of the
    /// schedule's timer.
    public func activity(of schedule: Schedule, manager: UserManager.State) -> Activity {
        activity(ofTimer: schedule.timerName, manager: manager)
    }

    /// What the user's manager (in `manager`'s state) says of the timer `timerName`.
    public func activity(ofTimer timerName: String, manager: UserManager.State) -> Activity {
        switch manager {
        case .none(let why):
            return .inactive(text("schedule.noManager", ["why": why]))
        case .running:
            let answer = UserManager.systemctl(["is-active", timerName], environment: environment)
            let state = answer.output.trimmingCharacters(in: .whitespacesAndNewlines)
            return state == "active" ? .active
                : .inactive(text("schedule.timerState", ["state": state.isEmpty ? text("schedule.notLoaded") : state, "timer": timerName]))
        }
    }

    private func write(_ text: String, to url: URL) throws(HostError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw HostError(.io, key: "error.write", ["path": url.path, "why": error.localizedDescription], cause: error)
        }
    }
}

/// The user's systemd: its manager, asked with `systemctl --user`, and its calendar rules,
/// asked with `systemd-analyze calendar`.
public enum UserManager {
    public enum State: Equatable, Sendable {
        case running
        /// Why there is none: no systemctl, or its answer.
        case none(String)
    }

    /// Whether a user manager answers `systemctl --user` in `environment` (why not in `language`).
    public static func state(environment: [String: String], language: String = "en") -> State {
        let answer = systemctl(["is-system-running"], environment: environment)
        let state = answer.output.trimmingCharacters(in: .whitespacesAndNewlines)
        if answer.status == 127 { return .none(HostText(language: language)("schedule.noSystemctl")) }
        if ["running", "degraded", "starting", "initializing", "maintenance"].contains(state) { return .running }
        let said = state.split(separator: "\n").first.map(String.init) ?? "no answer"
        return .none("systemctl --user: \(said)")
    }

    /// Runs `systemctl --user ARGUMENTS`: its exit status and what it printed.
    public static func systemctl(_ arguments: [String], environment: [String: String]) -> (status: Int32, output: String) {
        run("systemctl", ["--user"] + arguments, environment: environment)
    }

    /// What `systemd-analyze calendar` makes of `expression`: its normalized form and next
    /// time, or the sentence that says why it is not a calendar expression. The next time is
    /// counted from the request's clock when `STANDFIT_NOW` fixes it (`--base-time`, systemd
    /// 250 and later), so a replayed day, and a test, sees the same next time whenever it runs.
    /// A systemd older than 250, which has no `--base-time`, counts from the wall clock.
    /// `nextInstant` is the next time as an instant, read from systemd's UTC line (for `--json`).
    public static func calendar(_ expression: String, request: HostRequest)
        -> Result<(normalized: String, next: String?, nextInstant: Date?), HostError> {
        var answer = (status: Int32(-1), output: "")
        if request.environment["STANDFIT_NOW"] != nil {
            // A STANDFIT_NOW that is no instant is the command's error, as for every command
            // that asks the time.
            let now: Date
            do { now = try request.now() } catch { return .failure(error) }
            answer = run("systemd-analyze", ["calendar", "--base-time=@\(Int64(now.timeIntervalSince1970.rounded(.down)))", "--", expression],
                         environment: request.environment)
        }
        if answer.status != 0 && answer.status != 127 {
            answer = run("systemd-analyze", ["calendar", "--", expression], environment: request.environment)
        }
        if answer.status == 127 {
            return .failure(HostError(.scheduleInvalid, key: "schedule.noAnalyze", ["expression": expression]))
        }
        var normalized: String?, next: String?, inUTC: String?
        for line in answer.output.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("Normalized form: ") { normalized = String(trimmed.dropFirst("Normalized form: ".count)) }
            if trimmed.hasPrefix("Next elapse: ") { next = String(trimmed.dropFirst("Next elapse: ".count)) }
            if trimmed.hasPrefix("(in UTC): ") { inUTC = String(trimmed.dropFirst("(in UTC): ".count)) }
        }
        guard answer.status == 0, let normalized else {
            return .failure(HostError(.scheduleInvalid, key: "schedule.badCalendar", ["expression": expression]))
        }
        // systemd says the UTC time on a line of its own unless the zone is UTC already.
        return .success((normalized, next, (inUTC ?? next).flatMap(utcInstant)))
    }

    /// "Mon 2026-11-23 06:00:00 UTC", as systemd-analyze writes a time in UTC, as an instant.
    static func utcInstant(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 4, parts[3] == "UTC" else { return nil }
        return try? Date("\(parts[1])T\(parts[2])Z", strategy: .iso8601)
    }

    /// Runs `program` with `arguments` in the C locale, so that what the tools print reads the
    /// same for every user: its status (127 when it is not there) and what it printed.
    static func run(_ program: String, _ arguments: [String], environment: [String: String]) -> (status: Int32, output: String) {
        let result = ExternalProgram.run(program, arguments, environment: environment.merging(["LC_ALL": "C", "SYSTEMD_PAGER": "", "SYSTEMD_COLORS": "0"]) { _, new in new },
                                         mergingErrors: true)
        return (result.status, String(decoding: result.output, as: UTF8.self))
    }
}
