import CStandFitABI
import Foundation
import HostModel

/// What a scan learned of one plugin file, as plain values: it crosses the scan helper's pipe
/// and is what the registry cache keeps, so that `list` and `menu` need no plugin code.
public enum ScanResult: Sendable, Equatable, Codable {
    /// The plugin loaded and registered these things.
    case loaded(PluginRecord)
    /// The plugin refused to load or broke a rule of the ABI (the sentence names file and fix),
    /// as the host's words: put into words in the language of the run that shows it.
    case refused(HostText.Phrase)
    /// The plugin crashed, hung or exited while it was scanned: skipped until the file changes.
    case quarantined(HostText.Phrase)
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
    /// Sentences the host logs about it each time it is used (a type registered twice, …), as
    /// the host's words: put into words in the language of the run that shows them.
    public var warnings: [HostText.Phrase]
    /// How long its `init` took, in milliseconds.
    public var initMilliseconds: Double
    /// The programs it declared it starts (`standfit.programs/1`): all a sandboxed worker of it
    /// may execute.
    public var programs: [String] = []
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
    /// False for `STANDFIT_TRAIT_NOT_SUGGESTIBLE` (`standfit.action-traits/1`).
    public var suggestible: Bool = true
    /// True for `STANDFIT_TRAIT_CONFIRM` (`standfit.action-traits/2`): asked before it runs on a terminal.
    public var confirms: Bool = false

    public init(type: String, title: String, subtitle: String? = nil, icon: String? = nil, parameters: [ParameterSpec], phrases: [Phrase],
                suggestible: Bool = true, confirms: Bool = false) {
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.parameters = parameters
        self.phrases = phrases
        self.suggestible = suggestible
        self.confirms = confirms
    }

    private enum CodingKeys: String, CodingKey { case type, title, subtitle, icon, parameters, phrases, suggestible, confirms }

    /// A record written before `confirms` existed (a registry cache, a worker of an older build) has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        title = try container.decode(String.self, forKey: .title)
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle)
        icon = try container.decodeIfPresent(String.self, forKey: .icon)
        parameters = try container.decode([ParameterSpec].self, forKey: .parameters)
        phrases = try container.decode([Phrase].self, forKey: .phrases)
        suggestible = try container.decodeIfPresent(Bool.self, forKey: .suggestible) ?? true
        confirms = try container.decodeIfPresent(Bool.self, forKey: .confirms) ?? false
    }
}

extension PluginRecord {
    /// The first rule of registration this record breaks, as words that follow "(it …" in
    /// `plugin.forgedAnswer`, or nil when it keeps them all. What the record names is made
    /// visible on one line (`VisibleText.line`): the plugin could have written it.
    ///
    /// A record crosses a pipe from a process that runs plugin code, so the plugin could have
    /// written it rather than the host's registration: the host checks it again with the rules
    /// `PluginRegistrar` applies to descriptors, so a forged record cannot bring in what
    /// registering could not (a type with a newline, a parameter named `is-cold`).
    func brokenRule() -> HostText.Phrase? {
        func rule(_ name: String, _ values: [String: String] = [:]) -> HostText.Phrase {
            HostText.Phrase("plugin.rule.\(name)", values.mapValues(VisibleText.line))
        }
        guard PluginID.isValid(id) else { return rule("id", ["id": id]) }
        guard abiMajor == UInt32(STANDFIT_ABI_MAJOR), abiMinor <= UInt32(STANDFIT_ABI_MINOR) else {
            return rule("abi", ["major": "\(abiMajor)", "minor": "\(abiMinor)"])
        }
        guard programs.count <= Int(STANDFIT_MAX_PROGRAMS), programs.allSatisfy(ProgramPath.isValid),
              Set(programs).count == programs.count else {
            return rule("programs")
        }
        var entityIDs: Set<String> = []
        for entity in entities {
            guard PluginID.isValid(entity.id), !entity.title.isEmpty, entityIDs.insert(entity.id).inserted else {
                return rule("entity", ["entity": entity.id])
            }
        }
        var types: Set<String> = []
        for action in actions {
            let type = action.type
            guard TypeName.isValid(type), types.insert(type).inserted else { return rule("type", ["type": type]) }
            guard !action.title.isEmpty else { return rule("noTitle", ["type": type]) }
            guard action.parameters.count <= Int(STANDFIT_MAX_PARAMS) else {
                return rule("parameterCount", ["type": type, "count": "\(action.parameters.count)"])
            }
            var names: Set<String> = []
            for parameter in action.parameters {
                let name = parameter.name
                guard ParameterName.isValid(name), names.insert(name).inserted else {
                    return rule("parameter", ["name": name, "type": type])
                }
                if let value = parameter.defaultValue, value.kind != parameter.kind {
                    return rule("defaultKind", ["name": name, "type": type])
                }
                switch parameter.domain {
                case nil: break
                case .entity(let entity):
                    guard parameter.kind == .string, entityIDs.contains(entity) else {
                        return rule("parameterEntity", ["name": name, "type": type, "entity": entity])
                    }
                case .choices(let choices):
                    guard parameter.kind == .string, !choices.isEmpty else {
                        return rule("choices", ["name": name, "type": type])
                    }
                }
            }
            for phrase in action.phrases {
                var words = 0
                for part in phrase.parts {
                    switch part {
                    case .word: words += 1
                    case .placeholder(let name) where !names.contains(name):
                        return rule("placeholder", ["type": type, "placeholder": "{\(name)}"])
                    case .placeholder: break
                    }
                }
                guard words > 0 else { return rule("noWords", ["type": type]) }
            }
        }
        for item in staticItems {
            guard TypeName.isValid(item.type), !item.type.hasSuffix(".*"),
                  !item.title.trimmingCharacters(in: .whitespaces).isEmpty else {
                return rule("item", ["type": item.type])
            }
        }
        return nil
    }
}
