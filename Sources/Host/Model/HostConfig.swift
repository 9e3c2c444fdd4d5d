import Foundation

/// The user's settings: `$XDG_CONFIG_HOME/standfit/config.json`, every key optional.
///
/// ```json
/// { "menuLimit": 4, "scanTimeout": 5, "handlerTimeout": 10, "requireTrusted": false, "sandbox": true,
///   "server": "auto", "serverIdleTimeout": 900, "serverWorkers": 8, "workerIdleTimeout": 300,
///   "suggestionQuietHours": "22:00-08:00", "suggestionsPerDay": 3,
///   "speechModels": {"nl": {"acousticModel": "DIR", "dictionary": "FILE"}} }
/// ```
///
/// An unknown key is ignored but never silently: every command warns about it, with the
/// setting it probably meant, and `doctor` lists it as a problem; a known key with a bad value
/// stops the command, since running with a value the user did not ask for is worse.
public struct HostConfig: Sendable, Equatable {
    /// How many items menus show (`--limit` overrides it).
    public var menuLimit: Int = HostConfig.defaultMenuLimit
    /// Seconds a plugin may take to load and initialise while it is scanned.
    public var scanTimeout: Double = 5
    /// Seconds a handler in a worker process may take.
    public var handlerTimeout: Double = 10
    /// Load only plugins pinned with `plugins trust`.
    public var requireTrusted = false
    /// Run untrusted plugin code in the sandbox (Landlock and seccomp) where the kernel has it.
    public var sandbox = true

    /// Keys the file has that name no setting (a typo): ignored, and warned about.
    public var unknownKeys: [String] = []

    /// The warning for each unknown key, in `language`: what it probably meant, and the settings.
    public func unknownKeyWarnings(path: String, language: String) -> [String] {
        let text = HostText(language: language)
        return unknownKeys.map { key in
            let near = HostConfig.keys.min { Suggester.distance(key, $0, containsBonus: false) < Suggester.distance(key, $1, containsBonus: false) }
            let hint = near.flatMap { Suggester.distance(key, $0, containsBonus: false) <= 3 ? text("error.didYouMeanParameter", ["name": $0]) : nil } ?? ""
            return text("config.unknown", ["key": key, "path": path, "hint": hint, "keys": HostConfig.keys.joined(separator: ", ")])
        }
    }

    /// Whether commands go through the warm server (`STANDFIT_SERVER` overrides it).
    public var server: ServerMode = .auto
    /// Seconds the server waits for a command before it exits.
    public var serverIdleTimeout: Double = 900
    /// How many warm plugin workers the server keeps alive at most (the least recently used
    /// idle one is stopped to make room).
    public var serverWorkers = 8
    /// Seconds a warm plugin worker may stay idle before the server stops it.
    public var workerIdleTimeout: Double = 300

    /// How commands reach the warm server.
    public enum ServerMode: String, Sendable, CaseIterable {
        /// Every command runs cold, in a process of its own.
        case off
        /// A running server is used; none is ever started by a command.
        case manual
        /// A cold command starts a server in the background for the next one.
        case auto
        /// `STANDFIT_SERVER=required` only (the client reads no file): commands are served by a
        /// running server and never fall back to running cold; with none to serve it, a
        /// command fails (exit 69). For checking that a server serves (the
        /// test suite's warm pass); help, completions and what the server itself sends back to
        /// the client still run in the client's process.
        case required
    }

    /// The mode `STANDFIT_SERVER` in `environment` sets, else this file's.
    public func serverMode(environment: [String: String]) -> ServerMode {
        environment["STANDFIT_SERVER"].flatMap { ServerMode(rawValue: $0.lowercased()) } ?? server
    }

    /// When no suggestion comes as a notification (`suggestions on`); nil for never quiet.
    public var suggestionQuietHours: QuietHours? = QuietHours(start: 22 * 60, end: 8 * 60)
    /// Whether config.json sets `suggestionQuietHours` (else they are learned from the runs,
    /// when there are enough, and 22:00-08:00 until then).
    public var suggestionQuietHoursSet = false
    /// At most this many suggestions come as notifications in one day; 0 for none.
    public var suggestionsPerDay = 3
    /// Speech models by language ("nl"), beside Debian's English one (`say --audio`, `listen`).
    public var speechModels: [String: SpeechModel] = [:]

    /// Menus show 4 items unless told otherwise, as on iOS.
    public static let defaultMenuLimit = 4

    public init() {}

    package static let keys = ["menuLimit", "scanTimeout", "handlerTimeout", "requireTrusted", "sandbox", "server", "serverIdleTimeout", "serverWorkers", "workerIdleTimeout",
                                 "suggestionQuietHours", "suggestionsPerDay", "speechModels"]

    /// The settings file's name in the configuration directory.
    public static let fileName = "config.json"

    /// Reads `config.json` in `directory`; defaults when there is none.
    public static func load(from directory: URL) throws(HostError) -> HostConfig {
        let url = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return HostConfig() }
        let data: Data
        do {
            data = try UserFile.read(url, limit: UserFile.settingsLimit)
        } catch {
            throw HostError(.configInvalid, key: "config.notJSON", ["path": url.path], cause: error)
        }
        return try decode(data, from: url)
    }

    /// The settings `data` (the bytes of the file at `url`) holds.
    public static func decode(_ data: Data, from url: URL) throws(HostError) -> HostConfig {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw HostError(.configInvalid, key: "config.notJSON", ["path": url.path], cause: error)
        }
        guard case .object(let values) = value else {
            throw HostError(.configInvalid, key: "config.notObject", ["path": url.path])
        }
        var config = HostConfig()
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            switch (key, value) {
            case ("menuLimit", .int(let limit)) where limit >= 1 && limit <= 100:
                config.menuLimit = Int(limit)
            case ("menuLimit", _):
                throw HostError(.configInvalid, key: "config.wholeNumber", ["key": "menuLimit", "path": url.path, "max": "100", "value": value.jsonText])
            case ("scanTimeout", _), ("handlerTimeout", _):
                let seconds: Double? = switch value {
                case .int(let number): Double(number)
                case .double(let number): number
                default: nil
                }
                guard let seconds, seconds > 0, seconds <= 3600 else {
                    throw HostError(.configInvalid, key: "config.seconds", ["key": key, "path": url.path, "value": value.jsonText])
                }
                if key == "scanTimeout" { config.scanTimeout = seconds } else { config.handlerTimeout = seconds }
            case ("requireTrusted", .bool(let flag)):
                config.requireTrusted = flag
            case ("requireTrusted", _):
                throw HostError(.configInvalid, key: "config.bool", ["key": "requireTrusted", "path": url.path, "value": value.jsonText])
            case ("sandbox", .bool(let flag)):
                config.sandbox = flag
            case ("sandbox", _):
                throw HostError(.configInvalid, key: "config.bool", ["key": "sandbox", "path": url.path, "value": value.jsonText])
            case ("server", _):
                // `required` is the environment's alone: the client never reads this file.
                if case .string(let name) = value, let mode = ServerMode(rawValue: name), mode != .required {
                    config.server = mode
                    continue
                }
                throw HostError(.configInvalid, key: "config.server", ["path": url.path, "value": value.jsonText])
            case ("serverIdleTimeout", _), ("workerIdleTimeout", _):
                let seconds: Double? = switch value {
                case .int(let number): Double(number)
                case .double(let number): number
                default: nil
                }
                guard let seconds, seconds >= 1, seconds <= 86_400 else {
                    throw HostError(.configInvalid, key: "config.idleSeconds", ["key": key, "path": url.path, "value": value.jsonText])
                }
                if key == "serverIdleTimeout" { config.serverIdleTimeout = seconds } else { config.workerIdleTimeout = seconds }
            case ("serverWorkers", .int(let count)) where count >= 1 && count <= 64:
                config.serverWorkers = Int(count)
            case ("serverWorkers", _):
                throw HostError(.configInvalid, key: "config.wholeNumber", ["key": "serverWorkers", "path": url.path, "max": "64", "value": value.jsonText])
            case ("suggestionQuietHours", .null):
                config.suggestionQuietHours = nil
                config.suggestionQuietHoursSet = true
            case ("suggestionQuietHours", .string(let text)):
                guard let hours = QuietHours(text) else {
                    throw HostError(.configInvalid, key: "config.quietHours", ["path": url.path, "value": value.jsonText])
                }
                config.suggestionQuietHours = hours.start == hours.end ? nil : hours
                config.suggestionQuietHoursSet = true
            case ("suggestionQuietHours", _):
                throw HostError(.configInvalid, key: "config.quietHours", ["path": url.path, "value": value.jsonText])
            case ("suggestionsPerDay", .int(let count)) where count >= 0 && count <= 24:
                config.suggestionsPerDay = Int(count)
            case ("suggestionsPerDay", _):
                throw HostError(.configInvalid, key: "config.perDay", ["path": url.path, "value": value.jsonText])
            case ("speechModels", .object(let models)):
                for (language, model) in models {
                    guard case .object(let paths) = model, let acoustic = paths["acousticModel"]?.stringValue,
                          let dictionary = paths["dictionary"]?.stringValue, paths.count == 2 else {
                        throw HostError(.configInvalid, key: "config.speechModel", ["path": url.path, "language": language, "value": model.jsonText])
                    }
                    config.speechModels[LanguagePreference.base(of: language)] = SpeechModel(
                        acousticModel: acoustic, dictionary: dictionary)
                }
            case ("speechModels", _):
                throw HostError(.configInvalid, key: "config.speechModel", ["path": url.path, "language": "?", "value": value.jsonText])
            default:
                config.unknownKeys.append(key)
            }
        }
        return config
    }
}

/// A daily span of local time, such as the night: from `start` up to `end` (minutes from
/// midnight), across midnight when `end` comes first ("22:00-08:00").
public struct QuietHours: Sendable, Equatable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// "22:00-08:00" (24-hour clock, `HH:MM-HH:MM`); nil for anything else.
    public init?(_ text: String) {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard ends.count == 2, let start = QuietHours.minute(ends[0]), let end = QuietHours.minute(ends[1]) else { return nil }
        self.init(start: start, end: end)
    }

    /// Minutes from midnight of "HH:MM" (00:00 to 23:59; 24:00 as the day's end).
    private static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0...59).contains(minute), (0...23).contains(hour) || (hour == 24 && minute == 0) else { return nil }
        return (hour * 60 + minute) % 1_440
    }

    /// Whether local minute `minute` (from midnight) is in it: `start` is, `end` is not.
    public func contains(_ minute: Int) -> Bool {
        start <= end ? (start..<end).contains(minute) : minute >= start || minute < end
    }

    /// "22:00-08:00", as it is written in config.json.
    public var text: String {
        String(format: "%02d:%02d-%02d:%02d", start / 60, start % 60, end / 60, end % 60)
    }
}
