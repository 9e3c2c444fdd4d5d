/// A loaded plugin, as `plugins` shows it.
public struct PluginInfo: Sendable, Equatable {
    public var id: String
    public var name: String
    public var version: String
    public var abiMajor: UInt32
    public var abiMinor: UInt32
    /// The path it was found at (before symlinks are resolved).
    public var path: String
    /// The types it registered, in registration order.
    public var types: [String]
}

/// A plugin file the loader would not load, and why: one sentence naming the file and the fix.
public struct PluginRefusal: Error, Sendable, Equatable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// A plugin's source of dynamic items.
public struct DynamicProvider {
    public var pluginID: String
    /// Asks the plugin for its items in `locale`; failure carries a sentence saying why.
    public var items: (_ locale: String) -> Result<[ShortcutItem], ProviderFailure>
}

/// Why a dynamic provider gave no items.
public struct ProviderFailure: Error, Sendable, Equatable {
    public var message: String
}

/// Everything the plugins on the search path offer.
public struct PluginSet {
    public var plugins: [PluginInfo] = []
    public var refusals: [PluginRefusal] = []
    public var registry = ActionRegistry()
    /// Default static items contributed by plugins, in load order.
    public var staticItems: [ShortcutItem] = []
    public var providers: [DynamicProvider] = []

    public init() {}
}
