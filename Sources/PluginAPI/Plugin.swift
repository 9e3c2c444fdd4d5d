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
    /// The programs its code starts, by absolute path ("/usr/bin/notify-send"): a plugin the
    /// host runs sandboxed may execute these and nothing else (`standfit.programs/1`). A
    /// script's interpreter is a program of its own.
    static var programs: [String] { get }
}

extension Plugin {
    public static var staticItems: [ShortcutItem] { [] }
    public static var programs: [String] { [] }
}

/// A plugin whose items are computed from its state ("Log Squats — 20 reps", "View Streak —
/// 5 days"): declare the conformance and the compiler asks for `dynamicItems(_:)`, so a
/// misspelt or mistyped member cannot be silently ignored.
///
/// ```swift
/// enum Water: Plugin, DynamicItemsProvider {
///     static func dynamicItems(_ context: ProviderContext) throws -> [ShortcutItem] {
///         [ShortcutItem(type: LogWater.type, title: "Log 250 ml", userInfo: ["ml": 250])]
///     }
/// }
/// ```
///
/// The host asks once on a fresh home, after one of the plugin's actions was handled, on
/// `refresh`, and when an item's `validUntil` passed; it stores the answer for menus.
public protocol DynamicItemsProvider: Plugin {
    /// The items to show now, best first.
    static func dynamicItems(_ context: ProviderContext) throws -> [ShortcutItem]
}
