import Foundation

/// The host as a plugin sees it: the table of host functions handed to `init`.
///
/// Rationale for `@unchecked Sendable`: it wraps a pointer to a host-owned table that lives,
/// unchanged, for the whole process; the ABI allows calls only on the host's main thread.
public struct PluginHost: @unchecked Sendable {
    /// Severity of a log line, mirroring `STANDFIT_LOG_*`.
    public enum LogLevel: Int32, Sendable {
        case debug = 0, info = 1, warning = 2, error = 3
    }

    let table: UnsafePointer<standfit_host>

    /// The host that initialised this plugin, or nil before `init`.
    public static var current: PluginHost? { SDKState.host }

    /// The host's version string.
    public var hostVersion: String { table.pointee.host_version.map { String(cString: $0) } ?? "" }

    /// Writes one line to the host's log, tagged with this plugin's id.
    public func log(_ level: LogLevel, _ message: String) {
        guard let log = table.pointee.log else { return }
        message.withCString { log(table, level.rawValue, $0) }
    }

    /// The language of this run ("nl", "en_US"), from the host's `standfit.locale/1`
    /// extension; "en" when the host does not offer it. Use it for what `init` registers
    /// (action titles, static items); handlers and providers get it in their context.
    public var language: String {
        guard let ext = hostExtension(STANDFIT_EXT_LOCALE, as: standfit_locale_ext.self),
              let language = ext.pointee.language
        else { return "en" }
        return String(cString: language)
    }

    /// Where the plugin's `.so` is installed, from the host's `standfit.plugin-file/1`
    /// extension; nil when the host does not offer it.
    public var pluginFile: URL? {
        guard let ext = hostExtension(STANDFIT_EXT_PLUGIN_FILE, as: standfit_plugin_file_ext.self),
              let path = ext.pointee.path
        else { return nil }
        return URL(fileURLWithPath: String(cString: path))
    }

    /// The host extension `id`, when the host offers it in a version this SDK can read.
    func hostExtension<T>(_ id: String, as _: T.Type) -> UnsafePointer<T>? {
        guard let lookup = table.pointee.get_extension, let raw = id.withCString({ lookup(table, $0) }) else {
            return nil
        }
        let header = raw.assumingMemoryBound(to: standfit_abi_header.self).pointee
        guard header.abi_major == UInt32(STANDFIT_ABI_MAJOR), header.struct_size >= UInt32(MemoryLayout<T>.size) else {
            return nil
        }
        return raw.assumingMemoryBound(to: T.self)
    }

    /// The plugin's private data directory, created by the host on first use. It throws when
    /// the host could not create it (the host has logged why), and in `init` of a plugin the
    /// host scans in its sandbox, which grants no data directory yet: ask for it in handlers,
    /// providers and queries.
    public var dataDirectory: URL {
        get throws {
            guard let call = table.pointee.data_directory, let path = call(table) else {
                throw PluginAPIError("The host gave no data directory (it logs why: it could not be created, or this is init in a sandboxed scan); use the data directory in actions and providers, not in init.")
            }
            return URL(fileURLWithPath: String(cString: path), isDirectory: true)
        }
    }

    /// Now, as the host sees it for this run (`standfit.clock/1`): the system clock, or the
    /// instant the user fixed with `STANDFIT_NOW`; the system clock when the host is older.
    public var now: Date {
        guard let clock = hostExtension(STANDFIT_EXT_CLOCK, as: standfit_clock_ext.self), let now = clock.pointee.now else {
            return Date()
        }
        return Date(timeIntervalSince1970: now(table))
    }

    /// The host of this plugin, or an error that says the SDK is used outside a plugin.
    static func requireCurrent() throws -> PluginHost {
        guard let host = SDKState.host else {
            throw PluginAPIError("No host has initialised this plugin; the SDK's context works only inside a loaded plugin.")
        }
        return host
    }
}
