import Foundation

/// Where the host keeps things, following the XDG base-directory spec.
public struct HostPaths: Sendable, Equatable {
    /// `$XDG_CONFIG_HOME/standfit`: the manifest and the user's settings.
    public var configDirectory: URL
    /// `$XDG_DATA_HOME/standfit`: user plugins and plugin data.
    public var dataDirectory: URL
    /// `$XDG_CACHE_HOME/standfit`.
    public var cacheDirectory: URL

    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func base(_ variable: String, _ fallback: String) -> URL {
            // The spec says a relative path in these variables is invalid and must be ignored.
            if let value = environment[variable], value.hasPrefix("/") {
                return URL(fileURLWithPath: value, isDirectory: true)
            }
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback, isDirectory: true)
        }
        configDirectory = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("standfit", isDirectory: true)
        dataDirectory = base("XDG_DATA_HOME", ".local/share").appendingPathComponent("standfit", isDirectory: true)
        cacheDirectory = base("XDG_CACHE_HOME", ".cache").appendingPathComponent("standfit", isDirectory: true)
    }

    /// `$XDG_DATA_HOME/standfit/plugins`: where a user drops plugins.
    public var userPluginDirectory: URL {
        dataDirectory.appendingPathComponent("plugins", isDirectory: true)
    }

    /// `$XDG_DATA_HOME/standfit/data/<plugin id>`: a plugin's private directory.
    public func pluginDataDirectory(for pluginID: String) -> URL {
        dataDirectory.appendingPathComponent("data", isDirectory: true)
            .appendingPathComponent(pluginID, isDirectory: true)
    }

    /// The plugin search path: `STANDFIT_PLUGIN_PATH` (colon-separated) when set is the whole
    /// path; otherwise the user plugin directory, then the plugins bundled with the executable
    /// (`<prefix>/lib/standfit/plugins` for an installed host, the executable's own directory
    /// for a build tree, where SwiftPM puts the plugin libraries beside it).
    public func pluginSearchPath(environment: [String: String], executableDirectory: URL) -> [URL] {
        if let explicit = environment["STANDFIT_PLUGIN_PATH"] {
            return explicit.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        }
        return [userPluginDirectory] + bundledPluginDirectories(executableDirectory: executableDirectory)
    }

    /// Where the plugins that come with the host are: trusted to run in its process.
    public func bundledPluginDirectories(executableDirectory: URL) -> [URL] {
        [
            executableDirectory.deletingLastPathComponent().appendingPathComponent("lib/standfit/plugins", isDirectory: true),
            executableDirectory,
        ]
    }
}

/// Real paths: symlinks resolved, as the kernel sees them.
public enum RealPath {
    /// `path` with every symlink resolved, or `path` itself when it does not exist.
    public static func of(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
