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

    /// Decodes the item's userInfo into `T`.
    public func userInfo<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(userInfoJSON.utf8))
    }

    /// The plugin's private data directory, created by the host on first use.
    public var dataDirectory: URL? { PluginHost.current?.dataDirectory }

    /// Writes a line to the host's log, tagged with this plugin.
    public func log(_ level: PluginHost.LogLevel, _ message: String) {
        PluginHost.current?.log(level, message)
    }
}

/// What a dynamic-items provider knows when it is asked for items.
public struct ProviderContext: Sendable {
    /// The user's preferred language ("nl", "en_US").
    public let locale: String

    /// The plugin's private data directory, created by the host on first use.
    public var dataDirectory: URL? { PluginHost.current?.dataDirectory }
}
