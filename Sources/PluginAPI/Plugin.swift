@_exported import CStandFitABI

/// A standfit-host plugin written in Swift: its identity and what it offers.
///
/// A plugin is a shared library exporting one C function. In Swift that is one line:
///
/// ```swift
/// @_cdecl("standfit_plugin_entry_v1")
/// public func standfitPluginEntry() -> UnsafePointer<standfit_plugin_entry>? { export(Greeter.self) }
/// ```
///
/// Everything else goes through the C ABI in `standfit_plugin.h`; this SDK only writes the C
/// tables for you. No Swift value crosses into the host.
public protocol Plugin {
    /// Reverse-DNS identity, unique among installed plugins ("com.example.greeter").
    static var id: String { get }
    /// Human name ("Greeter").
    static var name: String { get }
    /// The plugin's own version ("1.0.0").
    static var version: String { get }
    /// The actions this plugin handles, each registered at load.
    static var actions: [any ShortcutAction.Type] { get }
    /// Quick actions the plugin shows by default, after the manifest's own items.
    static var staticItems: [ShortcutItem] { get }
    /// Items computed from the plugin's state at run time ("Log Squats (last)"), or nil for none.
    static var dynamicItems: (@Sendable (ProviderContext) throws -> [ShortcutItem])? { get }
}

extension Plugin {
    public static var staticItems: [ShortcutItem] { [] }
    public static var dynamicItems: (@Sendable (ProviderContext) throws -> [ShortcutItem])? { nil }
}
