import Foundation

/// What an action knows about the run it is performing.
public struct ActionContext {
    /// The type the user asked for. For a namespace or fallback handler this is the original
    /// request, not the registered type.
    public let requestedType: String
    /// The chosen item's userInfo as JSON object text (`"{}"` when it has none).
    public let userInfoJSON: String
    /// The user's preferred language ("nl", "en_US").
    public let locale: String
    /// Whether the host shows the result's `data` (`--json`; `standfit.reply/1`). When it
    /// does not, the SDK does not encode it; a handler whose data is costly to build (a year of
    /// entries) may build none. True with a host too old to say.
    public let showsData: Bool

    init(requestedType: String, userInfoJSON: String, locale: String, showsData: Bool = true) {
        self.requestedType = requestedType
        self.userInfoJSON = userInfoJSON
        self.locale = locale
        self.showsData = showsData
    }

    /// Now, as the host sees it for this run (`standfit.clock/1`): the system clock, or the
    /// instant the user fixed with `STANDFIT_NOW`. Use it for "today", so that tests, demos
    /// and the host agree.
    public var now: Date { PluginHost.current?.now ?? Date() }

    /// Decodes the item's userInfo into `T`.
    public func userInfo<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(userInfoJSON.utf8))
    }

    /// The plugin's private data directory, created by the host on first use. It throws only
    /// when the host could not create it (the error says why and what to do).
    public var dataDirectory: URL {
        get throws { try PluginHost.requireCurrent().dataDirectory }
    }

    /// Writes a line to the host's log, tagged with this plugin.
    public func log(_ level: PluginHost.LogLevel, _ message: String) {
        PluginHost.current?.log(level, message)
    }
}

/// What a dynamic-items provider knows when it is asked for items.
public struct ProviderContext: Sendable {
    /// The user's preferred language ("nl", "en_US").
    public let locale: String

    /// Now, as the host sees it for this run (see `ActionContext.now`).
    public var now: Date { PluginHost.current?.now ?? Date() }

    /// The plugin's private data directory, created by the host on first use (see
    /// `ActionContext.dataDirectory`).
    public var dataDirectory: URL {
        get throws { try PluginHost.requireCurrent().dataDirectory }
    }
}
