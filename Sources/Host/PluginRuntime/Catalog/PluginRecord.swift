import CStandFitABI
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
}

extension PluginRecord {
    /// The first rule of registration this record breaks, as words that follow "its scan
    /// answer", or nil when it keeps them all.
    ///
    /// A record crosses a pipe from a process that runs plugin code, so the plugin could have
    /// written it rather than the host's registration: the host checks it again with the rules
    /// `PluginRegistrar` applies to descriptors, so a forged record cannot bring in what
    /// registering could not (a type with a newline, a parameter named `is-cold`).
    func brokenRule() -> String? {
        guard PluginID.isValid(id) else { return "has plugin id '\(id)', which is not a reverse-DNS id" }
        guard abiMajor == UInt32(STANDFIT_ABI_MAJOR), abiMinor <= UInt32(STANDFIT_ABI_MINOR) else {
            return "claims ABI \(abiMajor).\(abiMinor), which this host does not speak"
        }
        guard programs.count <= Int(STANDFIT_MAX_PROGRAMS), programs.allSatisfy(ProgramPath.isValid),
              Set(programs).count == programs.count else {
            return "declares programs that declaring would not accept"
        }
        var entityIDs: Set<String> = []
        for entity in entities {
            guard PluginID.isValid(entity.id), !entity.title.isEmpty, entityIDs.insert(entity.id).inserted else {
                return "has entity '\(entity.id)', which registering would not accept"
            }
        }
        var types: Set<String> = []
        for action in actions {
            guard TypeName.isValid(action.type), types.insert(action.type).inserted else {
                return "has action type '\(action.type)', which registering would not accept"
            }
            guard !action.title.isEmpty else { return "has action '\(action.type)' without a title" }
            guard action.parameters.count <= Int(STANDFIT_MAX_PARAMS) else {
                return "has action '\(action.type)' with \(action.parameters.count) parameters, more than the ABI allows"
            }
            var names: Set<String> = []
            for parameter in action.parameters {
                guard ParameterName.isValid(parameter.name), names.insert(parameter.name).inserted else {
                    return "has parameter '\(parameter.name)' of '\(action.type)', which registering would not accept"
                }
                if let value = parameter.defaultValue, value.kind != parameter.kind {
                    return "has a default for '\(parameter.name)' of '\(action.type)' of another kind than the parameter"
                }
                switch parameter.domain {
                case nil: break
                case .entity(let entity):
                    guard parameter.kind == .string, entityIDs.contains(entity) else {
                        return "has parameter '\(parameter.name)' of '\(action.type)' naming entity '\(entity)', which it does not register"
                    }
                case .choices(let choices):
                    guard parameter.kind == .string, !choices.isEmpty else {
                        return "has parameter '\(parameter.name)' of '\(action.type)' with choices registering would not accept"
                    }
                }
            }
            for phrase in action.phrases {
                var words = 0
                for part in phrase.parts {
                    switch part {
                    case .word: words += 1
                    case .placeholder(let name) where !names.contains(name):
                        return "has a phrase of '\(action.type)' with placeholder {\(name)}, which is not one of its parameters"
                    case .placeholder: break
                    }
                }
                guard words > 0 else { return "has a phrase of '\(action.type)' without words" }
            }
        }
        for item in staticItems {
            guard TypeName.isValid(item.type), !item.type.hasSuffix(".*"),
                  !item.title.trimmingCharacters(in: .whitespaces).isEmpty else {
                return "has a static item '\(item.type)', which registering would not accept"
            }
        }
        return nil
    }
}
