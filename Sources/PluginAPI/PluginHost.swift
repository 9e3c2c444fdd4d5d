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
        guard let lookup = table.pointee.get_extension,
              let raw = STANDFIT_EXT_LOCALE.withCString({ lookup(table, $0) })
        else { return "en" }
        let ext = raw.assumingMemoryBound(to: standfit_locale_ext.self)
        guard ext.pointee.abi.abi_major == UInt32(STANDFIT_ABI_MAJOR),
              ext.pointee.abi.struct_size >= UInt32(MemoryLayout<standfit_locale_ext>.size),
              let language = ext.pointee.language
        else { return "en" }
        return String(cString: language)
    }

    /// The plugin's private data directory, created by the host on first use; nil if it
    /// could not be created (the host has logged why).
    public var dataDirectory: URL? {
        guard let call = table.pointee.data_directory, let path = call(table) else { return nil }
        return URL(fileURLWithPath: String(cString: path), isDirectory: true)
    }
}
