import Foundation

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

extension ParameterSpec: Codable {
    private enum CodingKeys: String, CodingKey { case name, kind, required, defaultValue, title, prompt, domain }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        let raw = try container.decode(Int32.self, forKey: .kind)
        guard let kind = ParameterKind(rawValue: raw) else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown kind \(raw)")
        }
        self.kind = kind
        required = try container.decode(Bool.self, forKey: .required)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        defaultValue = try container.decodeIfPresent(String.self, forKey: .defaultValue)
            .flatMap { ArgumentCoercion.coerce($0, to: kind) }
        prompt = try container.decodeIfPresent(String.self, forKey: .prompt)
        domain = try container.decodeIfPresent(ParameterDomain.self, forKey: .domain)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encode(required, forKey: .required)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(defaultValue?.text, forKey: .defaultValue)
        try container.encodeIfPresent(prompt, forKey: .prompt)
        try container.encodeIfPresent(domain, forKey: .domain)
    }
}
