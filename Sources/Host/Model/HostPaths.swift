import Foundation

/// Where the host keeps things, following the XDG base-directory spec.
public struct HostPaths: Sendable, Equatable {
    /// `$XDG_CONFIG_HOME/standfit`: the manifest and the user's settings.
    public var configDirectory: URL
    /// `$XDG_DATA_HOME/standfit`: user plugins and plugin data.
    public var dataDirectory: URL
    /// `$XDG_CACHE_HOME/standfit`.
    public var cacheDirectory: URL

    /// The directories `environment` names; `homeDirectory` is the request's home (`$HOME`, else
    /// the account's).
    public init(environment: [String: String], homeDirectory: String) {
        let home = homeDirectory
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

    /// The plugin search path: `STANDFIT_PLUGIN_PATH` (colon-separated directories or files)
    /// when set is the whole path; otherwise the user plugin directory, then the plugins that come
    /// with the host (`bundledPlugins`).
    public func pluginSearchPath(environment: [String: String], executableDirectory: URL) -> [URL] {
        if let explicit = environment["STANDFIT_PLUGIN_PATH"] {
            return explicit.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        }
        return [userPluginDirectory] + bundledPlugins(executableDirectory: executableDirectory)
    }

    /// The file names of the plugins the package builds as part of the host: StandFit.
    ///
    /// Rationale: SwiftPM puts every library product of the package in one directory beside the
    /// executable, the example plugins among them, and has no way to put some elsewhere. So in a
    /// build tree the host names the files it bundles instead of taking the whole directory: the
    /// examples are built and tested there, but load only when a user puts them on the path.
    public static let bundledPluginFiles = ["libStandFit.so"]

    /// Where the plugins that come with the host are, trusted to run in its process: the whole of
    /// `<prefix>/lib/standfit/plugins` for an installed host, whose full host is
    /// `<prefix>/libexec/standfit/standfit-host-full` (`Scripts/install` puts exactly the bundled
    /// plugins there), and `bundledPluginFiles` beside the executable in a build tree.
    public func bundledPlugins(executableDirectory: URL) -> [URL] {
        [executableDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/standfit/plugins", isDirectory: true)]
            + HostPaths.bundledPluginFiles.map { executableDirectory.appendingPathComponent($0) }
    }
}

/// Real paths: symlinks resolved, as the kernel sees them.
public enum RealPath {
    /// `path` with every symlink resolved, or `path` itself when it does not exist.
    public static func of(_ path: String) -> String {
        resolved(path) ?? path
    }

    /// `realpath(3)` of `path`, or nil when it names nothing (a dangling link included).
    public static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// The XDG base directories beyond the user's own.
public enum XDGDirectories {
    /// `$XDG_DATA_DIRS` (by default `/usr/local/share:/usr/share`), absolute entries only, in order.
    public static func systemData(environment: [String: String]) -> [URL] {
        (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").filter { $0.hasPrefix("/") }.map { URL(fileURLWithPath: String($0), isDirectory: true) }
    }
}

/// Words of command lines that other programs split (a D-Bus service's `Exec=`, a systemd
/// unit's `ExecStart=`).
public enum CommandWord {
    /// Whether `word` needs no quoting anywhere: letters, digits and `/._-+,:@=` only, not empty.
    public static func isPlain(_ word: String) -> Bool {
        !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+,:@=".unicodeScalars.contains(scalar))
        }
    }
}
