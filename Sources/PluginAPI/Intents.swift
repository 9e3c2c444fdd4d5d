import Foundation

/// One value of an entity or of a fixed choice list: the id the handler receives, the title
/// people read and say, other names they may use, and defaults it brings for the action's
/// other parameters (choosing "Plank" can make the count 60).
public struct EntityValue: Sendable, Equatable {
    public var id: String
    public var title: String
    public var synonyms: [String]
    public var defaults: [String: UserInfoValue]

    public init(id: String, title: String, synonyms: [String] = [], defaults: [String: any UserInfoConvertible] = [:]) {
        self.id = id
        self.title = title
        self.synonyms = synonyms
        self.defaults = defaults.mapValues(\.userInfoValue)
    }

    /// True when `text` names this value: its id, title or a synonym, ignoring case, spaces and
    /// punctuation ("Push-Ups" = "push ups" = "pushups"): the rule the host folds names by too.
    public func isNamed(by text: String) -> Bool {
        let key = EntityValue.matchKey(text)
        return !key.isEmpty && ([id, title] + synonyms).contains { EntityValue.matchKey($0) == key }
    }

    /// Lowercased letters and digits only.
    public static func matchKey(_ text: String) -> String {
        String(String.UnicodeScalarView(text.lowercased().unicodeScalars.filter {
            $0.properties.isAlphabetic || $0.properties.numericType != nil
        }))
    }

    /// Calls `body` with a C view of the value, valid only during the call.
    func withCValue<R>(_ body: (UnsafePointer<standfit_entity_value>) throws -> R) throws -> R {
        let strings = CStringArena()
        var value = try cValue(in: strings)
        return try withUnsafePointer(to: &value) { try body($0) }
    }

    /// The value as the C table, its strings owned by `strings`.
    func cValue(in strings: CStringArena) throws -> standfit_entity_value {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let defaultsJSON = defaults.isEmpty ? nil : String(decoding: try encoder.encode(defaults), as: UTF8.self)
        return standfit_entity_value(
            abi: .current(for: standfit_entity_value.self), id: strings.copy(id), title: strings.copy(title),
            synonyms: strings.copy(synonyms.isEmpty ? nil : synonyms.joined(separator: "|")),
            defaults_json: strings.copy(defaultsJSON))
    }
}

/// What an entity query knows of the run.
public struct EntityContext: Sendable {
    /// The user's preferred language ("nl", "en_US"), for titles.
    public let locale: String

    /// Now, as the host sees it for this run (see `ActionContext.now`).
    public var now: Date { PluginHost.current?.now ?? Date() }

    /// The plugin's private data directory, created by the host on first use (see
    /// `ActionContext.dataDirectory`).
    public var dataDirectory: URL {
        get throws { try PluginHost.requireCurrent().dataDirectory }
    }
}

/// A kind of thing a parameter can name, whose values the plugin knows at run time
/// (App Intents' `AppEntity` with its `EntityQuery`). Give a string parameter its values with
/// `@Parameter(entity: Exercises.self)`; the host then resolves what people type or say
/// ("push ups") through these queries and hands `perform` the value's id.
///
/// Only `values` is required: lookup, matching and suggestions default to it.
public protocol EntityQuery {
    /// Reverse-DNS id, unique in the plugin ("com.standfit.exercise").
    static var id: String { get }
    /// What one value is called ("Exercise").
    static var title: String { get }
    /// Every value.
    static func values(_ context: EntityContext) throws -> [EntityValue]
    /// The value whose id is `id`, or nil.
    static func lookup(id: String, _ context: EntityContext) throws -> EntityValue?
    /// The values `text` names, best first.
    static func match(_ text: String, _ context: EntityContext) throws -> [EntityValue]
    /// The values to offer when the host asks which one, most likely first.
    static func suggested(_ context: EntityContext) throws -> [EntityValue]
}

extension EntityQuery {
    public static func lookup(id: String, _ context: EntityContext) throws -> EntityValue? {
        try values(context).first { $0.id == id }
    }

    public static func match(_ text: String, _ context: EntityContext) throws -> [EntityValue] {
        try values(context).filter { $0.isNamed(by: text) }
    }

    public static func suggested(_ context: EntityContext) throws -> [EntityValue] {
        try values(context)
    }
}

/// A sentence that runs an action, with `{parameter}` placeholders: "log {count} {exercise}".
public struct Phrase: Sendable, Equatable {
    public var template: String
    /// "en", "nl", or nil for every language.
    public var language: String?

    public init(_ template: String, language: String? = nil) {
        self.template = template
        self.language = language
    }
}

/// Registers the plugin's intents through the host's `standfit.intents/1`: entities, choices,
/// prompts and phrases. A host without it gets plain parameters, which still work.
enum IntentsRegistration {
    static func register(_ prepared: [PreparedAction], host: PluginHost) {
        let table = host.table
        guard let intents = host.hostExtension(STANDFIT_EXT_INTENTS, as: standfit_intents_ext.self) else {
            if prepared.contains(where: \.hasIntents) {
                host.log(.debug, "This host offers no \(STANDFIT_EXT_INTENTS); entities, prompts and phrases are left out.")
            }
            return
        }
        let functions = intents.pointee
        for (index, entity) in EntityRegistry.entities(of: prepared).enumerated() {
            let strings = CStringArena()
            var descriptor = standfit_entity(
                abi: .current(for: standfit_entity.self), id: strings.copy(entity.id), title: strings.copy(entity.title),
                plugin_data: UnsafeMutableRawPointer(bitPattern: index + 1),
                lookup: lookupEntity, match: matchEntity, suggest: suggestEntity)
            _ = functions.register_entity(table, &descriptor)
        }
        for action in prepared {
            let type = action.actionType.type
            for parameter in action.parameters {
                if let entity = parameter.value.entity {
                    _ = functions.set_parameter_entity(table, type, parameter.name, entity.id)
                }
                if !parameter.value.choices.isEmpty {
                    registerChoices(parameter.value.choices, type: type, parameter: parameter.name,
                                    functions: functions, host: host)
                }
                if let prompt = parameter.value.prompt {
                    _ = functions.set_parameter_prompt(table, type, parameter.name, prompt)
                }
            }
            for phrase in action.actionType.phrases {
                _ = functions.register_phrase(table, type, phrase.language, phrase.template)
            }
        }
    }

    private static func registerChoices(_ choices: [EntityValue], type: String, parameter: String,
                                        functions: standfit_intents_ext, host: PluginHost) {
        do {
            let strings = CStringArena()
            let values = try choices.map { try $0.cValue(in: strings) }
            _ = values.withUnsafeBufferPointer {
                functions.set_parameter_choices(host.table, type, parameter, $0.baseAddress, UInt32($0.count))
            }
        } catch {
            host.log(.error, "The choices of '\(parameter)' of '\(type)' could not be encoded: \(error)")
        }
    }
}

/// The entities the plugin's parameters name, in first-use order; a query's C functions find
/// their entity by its position here (the `plugin_data` handed back in the sink).
enum EntityRegistry {
    nonisolated(unsafe) static var registered: [any EntityQuery.Type] = []

    static func entities(of prepared: [PreparedAction]) -> [any EntityQuery.Type] {
        var entities: [any EntityQuery.Type] = []
        for action in prepared {
            for parameter in action.parameters {
                if let entity = parameter.value.entity, !entities.contains(where: { $0.id == entity.id }) {
                    entities.append(entity)
                }
            }
        }
        registered = entities
        return entities
    }

    /// Runs one query for the entity the sink names and hands its values to the sink.
    static func answer(_ sink: UnsafePointer<standfit_entity_sink>?,
                       _ query: (any EntityQuery.Type, EntityContext) throws -> [EntityValue]) -> Int32 {
        guard let sink, let data = sink.pointee.entity_data else { return STANDFIT_ERR_INVALID_ARGUMENT }
        let index = Int(bitPattern: data) - 1
        guard registered.indices.contains(index) else { return STANDFIT_ERR_INVALID_ARGUMENT }
        let entity = registered[index]
        let context = EntityContext(locale: sink.pointee.locale.map { String(cString: $0) } ?? "en")
        do {
            for value in try query(entity, context) {
                let status = try value.withCValue { sink.pointee.add(sink, $0) }
                if status != STANDFIT_OK { return status }
            }
            return STANDFIT_OK
        } catch {
            SDKState.host?.log(.error, "The \(entity.title.lowercased()) query failed: \(error)")
            return STANDFIT_STATUS_FAILED
        }
    }
}

private let lookupEntity: @convention(c) (UnsafePointer<standfit_entity_sink>?, UnsafePointer<CChar>?) -> Int32 = { sink, id in
    let id = id.map { String(cString: $0) } ?? ""
    return EntityRegistry.answer(sink) { entity, context in try entity.lookup(id: id, context).map { [$0] } ?? [] }
}

private let matchEntity: @convention(c) (UnsafePointer<standfit_entity_sink>?, UnsafePointer<CChar>?) -> Int32 = { sink, text in
    let text = text.map { String(cString: $0) } ?? ""
    return EntityRegistry.answer(sink) { entity, context in try entity.match(text, context) }
}

private let suggestEntity: @convention(c) (UnsafePointer<standfit_entity_sink>?) -> Int32 = { sink in
    EntityRegistry.answer(sink) { entity, context in try entity.suggested(context) }
}
