import Foundation
import HostModel

/// What a scan learned of one plugin file, as plain values: it crosses the scan helper's pipe
/// and is what the registry cache keeps, so that `list` and `menu` need no plugin code.
public enum ScanResult: Sendable, Equatable, Codable {
    /// The plugin loaded and registered these things.
    case loaded(PluginRecord)
    /// The plugin refused to load or broke a rule of the ABI (the sentence names file and fix).
    case refused(String)
    /// The plugin crashed, hung or exited while it was scanned: skipped until the file changes.
    case quarantined(String)
}

/// One plugin's registrations, as plain values.
public struct PluginRecord: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    public var version: String
    public var abiMajor: UInt32
    public var abiMinor: UInt32
    /// Every action it registered and kept, in registration order.
    public var actions: [ActionRecord]
    public var staticItems: [ShortcutItem]
    public var hasProvider: Bool
    /// The entities it registered (`standfit.intents/1`); their queries need its code.
    public var entities: [EntityRecord]
    /// Sentences the host logs about it each time it is used (a type registered twice, …).
    public var warnings: [String]
    /// How long its `init` took, in milliseconds.
    public var initMilliseconds: Double
}

/// One registered action without its handler.
public struct ActionRecord: Sendable, Equatable, Codable {
    public var type: String
    public var title: String
    public var subtitle: String?
    public var icon: String?
    public var parameters: [ParameterSpec]
    /// Sentences that invoke it (`standfit.intents/1`).
    public var phrases: [Phrase]
}
