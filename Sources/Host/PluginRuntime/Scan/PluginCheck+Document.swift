import Foundation
import HostModel

/// `plugins check --json`: a document of its own, apart from the registry cache's records, so
/// that it stays the same when the cache changes. Format 1: fields may be added, none is renamed,
/// removed or given another type (docs/PLUGIN_GUIDE.md, "plugins check --json").
extension PluginCheck {
    public struct Document: Encodable {
        public var format = 1
        public var path: String
        public var loads: Bool
        public var quarantined: Bool
        /// Why it does not load, when it does not.
        public var refusal: String?
        public var sha256: String?
        public var trusted: Bool
        /// "in-process" (trusted) or "worker"; nil when it does not load.
        public var runs: String?
        public var plugin: Plugin?
        public var warnings: [String]
    }

    public struct Plugin: Encodable {
        public var id, name, version: String
        /// "1.0": the ABI its entry table was built for.
        public var abi: String
        public var initMilliseconds: Double
        public var actions: [Action]
        public var staticItems: [Item]
        public var dynamicProvider: Bool
        public var entities: [Entity]
        /// The programs it declared it starts (`standfit.programs/1`).
        public var programs: [String]
    }

    public struct Action: Encodable {
        public var type, title: String
        public var subtitle, icon: String?
        public var parameters: [Parameter]
        public var phrases: [PhraseText]
        public var suggestible: Bool
        /// True when a terminal confirms it before it runs (`STANDFIT_TRAIT_CONFIRM`).
        public var confirms: Bool
    }

    public struct Parameter: Encodable {
        public var name: String
        /// "bool", "int", "double" or "string".
        public var kind: String
        public var required: Bool
        /// The default as a JSON value of the parameter's kind.
        public var `default`: JSONValue?
        public var title, prompt: String?
        /// The entity whose values it takes, by id.
        public var entity: String?
        /// Its fixed choices.
        public var choices: [Choice]?
        /// The values an int or double parameter may take.
        public var range: Range?
    }

    public struct Range: Encodable {
        public var min, max: Double
    }

    public struct Choice: Encodable {
        public var id, title: String
        public var synonyms: [String]
        public var defaults: [String: JSONValue]
    }

    public struct PhraseText: Encodable {
        /// "en", "nl", or nil for every language.
        public var language: String?
        public var text: String

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(language, forKey: .language)
            try container.encode(text, forKey: .text)
        }

        private enum CodingKeys: String, CodingKey { case language, text }
    }

    public struct Item: Encodable {
        public var type, title: String
        public var subtitle, icon: String?
        public var userInfo: [String: JSONValue]
    }

    public struct Entity: Encodable {
        public var id, title: String
    }

    public var document: Document {
        Document(path: path, loads: loads, quarantined: isQuarantined, refusal: refusal, sha256: sha256,
                 trusted: isTrusted, runs: loads ? (isTrusted ? "in-process" : "worker") : nil,
                 plugin: loads ? record.map(Self.plugin) : nil, warnings: warnings)
    }

    static func plugin(_ record: PluginRecord) -> Plugin {
        Plugin(
            id: record.id, name: record.name, version: record.version, abi: "\(record.abiMajor).\(record.abiMinor)",
            initMilliseconds: (record.initMilliseconds * 1000).rounded() / 1000,
            actions: record.actions.map { action in
                Action(type: action.type, title: action.title, subtitle: action.subtitle, icon: action.icon,
                       parameters: action.parameters.map(parameter),
                       phrases: action.phrases.map { PhraseText(language: $0.language, text: $0.template) },
                       suggestible: action.suggestible, confirms: action.confirms)
            },
            staticItems: record.staticItems.map {
                Item(type: $0.type, title: $0.title, subtitle: $0.subtitle, icon: $0.icon, userInfo: $0.userInfo)
            },
            dynamicProvider: record.hasProvider,
            entities: record.entities.map { Entity(id: $0.id, title: $0.title) },
            programs: record.programs)
    }

    static func parameter(_ spec: ParameterSpec) -> Parameter {
        var parameter = Parameter(name: spec.name, kind: spec.kind.name, required: spec.required,
                                  default: spec.defaultValue.map { ArgumentCoercion.json($0.text, as: spec.kind) },
                                  title: spec.title, prompt: spec.prompt,
                                  range: spec.range.map { Range(min: $0.lowerBound, max: $0.upperBound) })
        switch spec.domain {
        case .entity(let id)?: parameter.entity = id
        case .choices(let values)?:
            parameter.choices = values.map { Choice(id: $0.id, title: $0.title, synonyms: $0.synonyms, defaults: $0.defaults) }
        case nil: break
        }
        return parameter
    }
}
