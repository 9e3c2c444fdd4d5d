/// The one error type of the host: a code callers switch on, a one-sentence message for the
/// user that names the file, plugin, type or parameter and the way out, and an optional cause.
public struct HostError: Error, CustomStringConvertible, Sendable {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Sendable {
            case manifestNotFound = "manifest-not-found"
            case manifestInvalid = "manifest-invalid"
            case variableUnresolved = "variable-unresolved"
            case stringsInvalid = "strings-invalid"
            case io = "io"
            case state = "state"
            case dynamicItemsInvalid = "dynamic-items-invalid"
            case configInvalid = "config-invalid"
            case pluginUntrustworthy = "plugin-untrustworthy"
            case startedByPlugin = "started-by-plugin"
            case desktopUnavailable = "desktop-unavailable"
            case unknownApp = "unknown-app"
            case scheduleInvalid = "schedule-invalid"
            case unknownSchedule = "unknown-schedule"
            case speechUnavailable = "speech-unavailable"
            case audioInvalid = "audio-invalid"
            case backupInvalid = "backup-invalid"
            case serverUnavailable = "server-unavailable"
            case serverLost = "server-lost"
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// `--manifest` names a file or directory that does not exist or holds no manifest.
        public static let manifestNotFound = Code(.manifestNotFound)
        /// The manifest cannot be parsed or has a wrong value at a key path.
        public static let manifestInvalid = Code(.manifestInvalid)
        /// A `$(NAME)` in the manifest has no `--define` and no environment variable.
        public static let variableUnresolved = Code(.variableUnresolved)
        /// An `InfoPlist.strings` table cannot be parsed.
        public static let stringsInvalid = Code(.stringsInvalid)
        /// Reading or writing a file failed.
        public static let io = Code(.io)
        /// The host's state database cannot be opened, read or written.
        public static let state = Code(.state)
        /// `dynamic set` was given items that are not a valid list; nothing was changed.
        public static let dynamicItemsInvalid = Code(.dynamicItemsInvalid)
        /// `config.json` cannot be parsed or has a wrong value.
        public static let configInvalid = Code(.configInvalid)
        /// A plugin fails the checks made before any of its code runs (`plugins trust`).
        public static let pluginUntrustworthy = Code(.pluginUntrustworthy)
        /// The command was started by plugin code (a worker, or what it ran), which may not
        /// drive the host.
        public static let startedByPlugin = Code(.startedByPlugin)
        /// What the command needs of the desktop (a session bus, the application on it) is not
        /// there: exit 69, as for a warm server that is required and absent.
        public static let desktopUnavailable = Code(.desktopUnavailable)
        /// `--app` names no app that has quick actions here: exit 2, as a type nothing handles.
        public static let unknownApp = Code(.unknownApp)
        /// `schedule add` was given a time systemd does not read: exit 3, as invalid input.
        public static let scheduleInvalid = Code(.scheduleInvalid)
        /// `schedule remove` names no schedule: exit 2, as a type nothing handles.
        public static let unknownSchedule = Code(.unknownSchedule)
        /// Speech cannot be recognised here: the recogniser or its model for the language is
        /// not installed (exit 69, as for the desktop).
        public static let speechUnavailable = Code(.speechUnavailable)
        /// An audio file that cannot be read as sound: exit 3, as invalid input.
        public static let audioInvalid = Code(.audioInvalid)
        /// A file given to `restore` is no backup this host can restore (not a backup, of a newer
        /// format or schema, damaged, or holding a name that leaves its tree): exit 5, nothing changed.
        public static let backupInvalid = Code(.backupInvalid)
        /// `STANDFIT_SERVER=required` and no warm server served the command: exit 69, nothing ran.
        public static let serverUnavailable = Code(.serverUnavailable)
        /// The warm server ended while it ran the command, which was not run again: exit 4, as
        /// for a plugin that failed.
        public static let serverLost = Code(.serverLost)

        public var description: String { value.rawValue }
    }

    public let code: Code
    /// The sentence in English.
    public let message: String
    public let cause: (any Error & Sendable)?
    /// For a sentence the host words itself, its `HostText` key and values, so that it can be
    /// said in the run's language (`message(in:)`); nil for one that quotes a parser or the
    /// system in English, which stays one English sentence.
    public let key: String?
    public let values: [String: String]
    /// Parts of the sentence that are phrases of their own, said in the same language.
    public let parts: [String: HostText.Phrase]

    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
        key = nil
        values = [:]
        parts = [:]
    }

    public init(_ code: Code, key: String, _ values: [String: String] = [:], parts: [String: HostText.Phrase] = [:],
                cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = HostText(language: "en")(HostText.Phrase(key, values, parts: parts))
        self.cause = cause
        self.key = key
        self.values = values
        self.parts = parts
    }

    public init(_ code: Code, _ phrase: HostText.Phrase, cause: (any Error & Sendable)? = nil) {
        self.init(code, key: phrase.key, phrase.values, parts: phrase.parts, cause: cause)
    }

    /// The sentence as a phrase, when the host words it.
    public var phrase: HostText.Phrase? { key.map { HostText.Phrase($0, values, parts: parts) } }

    /// The sentence in `language`, when the host words it; else in English.
    public func message(in language: String) -> String {
        phrase.map { HostText(language: language)($0) } ?? message
    }

    public var description: String { message }
}
