import HostModel

/// A loaded plugin, as `plugins` shows it.
public struct PluginInfo: Sendable, Equatable {
    public var id: String
    public var name: String
    public var version: String
    public var abiMajor: UInt32
    public var abiMinor: UInt32
    /// The path it was found at (before symlinks are resolved).
    public var path: String
    /// The types it registered and kept, in registration order.
    public var types: [String]
    /// Bundled with the host or pinned by the user.
    public var isTrusted: Bool = false
    /// Bundled with the host (StandFit): its app's quick actions are the host's own desktop
    /// entry's (`org.standfit.Host`); every other app has an entry of its own.
    public var isBundled: Bool = false
    /// Its handlers run in the host's process (trusted, and no `--isolate`), else in a worker.
    public var runsInProcess: Bool = true
    /// How long its `init` took when it was scanned, in milliseconds.
    public var initMilliseconds: Double?
    /// What the host did not take of what it registered, and other mistakes of its author, each
    /// a sentence with the fix (`plugins` and `doctor` show them; `plugins check` finds more).
    public var warnings: [String] = []
    /// The programs it declared it starts (`standfit.programs/1`).
    public var programs: [String] = []
}

/// A plugin file the loader would not load, and why: one sentence naming the file and the fix.
///
/// The sentence is kept as the host's words (`HostText.Phrase`), not as text: a refusal is made in
/// a scan helper or kept by the warm server's vetting, and shown by a command that may run in
/// another language (`reason(in:)`).
public struct PluginRefusal: Error, Sendable, Equatable {
    public var path: String
    public var sentence: HostText.Phrase
    /// It crashed, hung or exited while it was scanned, and is skipped until the file changes.
    public var isQuarantined: Bool

    public init(path: String, sentence: HostText.Phrase, isQuarantined: Bool = false) {
        self.path = path
        self.sentence = sentence
        self.isQuarantined = isQuarantined
    }

    /// A refusal whose reason is text already (shown as it is in every language).
    public init(path: String, reason: String, isQuarantined: Bool = false) {
        self.init(path: path, sentence: .verbatim(reason), isQuarantined: isQuarantined)
    }

    /// The reason in English.
    public var reason: String { sentence.english }

    /// The reason in `language`.
    public func reason(in language: String) -> String { sentence.text(in: language) }

    /// Two refusals are the same when they say the same of the same file.
    public static func == (left: PluginRefusal, right: PluginRefusal) -> Bool {
        left.path == right.path && left.isQuarantined == right.isQuarantined && left.reason == right.reason
    }
}

/// A plugin that has a source of dynamic items, asked through `PluginCalls.provide`.
public struct DynamicProvider: Sendable, Equatable {
    public var pluginID: String
}

/// Everything the plugins on the search path offer, as plain data, and the calls that reach
/// their code.
public struct PluginSet {
    public var plugins: [PluginInfo] = []
    public var refusals: [PluginRefusal] = []
    public var registry = ActionRegistry()
    /// Default static items contributed by plugins, in load order.
    public var staticItems: [ShortcutItem] = []
    public var providers: [DynamicProvider] = []
    /// The entities plugins registered, in load order.
    public var entities: [EntityProvider] = []
    /// How to call the plugins' handlers, providers and entity queries.
    public var calls = PluginCalls.none

    public init() {}

    /// The entity `id` as `pluginID` registered it (entity ids are the plugin's own).
    public func entity(_ id: String, of pluginID: String) -> EntityProvider? {
        entities.first { $0.record.id == id && $0.pluginID == pluginID }
    }
}
