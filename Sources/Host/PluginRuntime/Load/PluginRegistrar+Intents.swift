import CStandFitABI
import Foundation
import Logging
import HostModel

/// The `standfit.intents/1` registrations: entities, parameter domains and prompts, phrases.
extension PluginRegistrar {
    func registerEntity(_ pointer: UnsafePointer<standfit_entity>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_entity") }
        guard let pointer else { return reject("plugin.registration.entityNull") }
        let raw = pointer.pointee
        if let problem = raw.abi.abiProblem(minimumSize: MemoryLayout<standfit_entity>.size) {
            return reject("plugin.registration.entityABI", parts: ["problem": problem])
        }
        guard let id = CText.string(raw.id), PluginID.isValid(id) else {
            return reject("plugin.registration.entityID", parts: ["given": CText.shown(raw.id)])
        }
        guard let title = CText.string(raw.title), !title.isEmpty else {
            return reject("plugin.registration.entityNoTitle", ["entity": id])
        }
        guard let lookup = raw.lookup, let match = raw.match, let suggest = raw.suggest else {
            return reject("plugin.registration.entityFunctions", ["entity": id])
        }
        guard !entities.contains(where: { $0.record.id == id }) else {
            warnings.append(HostText.Phrase("plugin.entityTwice", ["id": pluginID, "path": path, "entity": id]))
            return STANDFIT_ERR_DUPLICATE
        }
        let record = EntityRecord(id: id, title: title)
        let pluginID = pluginID
        // Rationale: the plugin's own pointer, handed back to its code on the main thread only.
        nonisolated(unsafe) let entityData = raw.plugin_data
        entities.append(EntityProvider(record: record, pluginID: pluginID))
        code.queries[id] = { query, locale in
            EntitySink.collect(entity: record, pluginID: pluginID, locale: locale, entityData: entityData) { sink in
                switch query {
                case .lookup(let id): id.withCString { lookup(sink, $0) }
                case .match(let text): text.withCString { match(sink, $0) }
                case .suggest: suggest(sink)
                }
            }
        }
        return STANDFIT_OK
    }

    /// Refuses `function`'s naming of action `type`, which the plugin has not registered.
    func rejectUnknownAction(_ function: String, _ type: UnsafePointer<CChar>?) -> Int32 {
        reject("plugin.registration.call", ["function": function],
               parts: ["does": HostText.Phrase("plugin.registration.unknownAction", parts: ["given": CText.shown(type)])])
    }

    /// Sets what `param` of `type` knows beyond its kind: where its values come from, or the
    /// question that asks for it. `change` answers why it cannot, as the host's words.
    func describeParameter(_ function: String, type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?,
                           _ change: (inout ParameterSpec, String, String) -> HostText.Phrase?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit(function) }
        guard let type = CText.string(type), let index = actionIndex[type] else {
            return rejectUnknownAction(function, type)
        }
        guard let name = CText.string(param),
              let parameter = actions[index].parameters.firstIndex(where: { $0.name == name }) else {
            return reject("plugin.registration.unknownParameter", ["function": function, "type": type], parts: ["given": CText.shown(param)])
        }
        if let problem = change(&actions[index].parameters[parameter], type, name) {
            return reject(problem)
        }
        return STANDFIT_OK
    }

    func setParameterEntity(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?, entity: UnsafePointer<CChar>?) -> Int32 {
        describeParameter("set_parameter_entity", type: type, param: param) { spec, type, name in
            guard spec.kind == .string else { return HostText.Phrase("plugin.registration.entityNotString", ["name": name, "type": type]) }
            guard let id = CText.string(entity), entities.contains(where: { $0.record.id == id }) else {
                return HostText.Phrase("plugin.registration.unknownEntity", ["type": type], parts: ["given": CText.shown(entity)])
            }
            spec.domain = .entity(id)
            return nil
        }
    }

    func setParameterChoices(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?,
                             values: UnsafePointer<standfit_entity_value>?, count: UInt32) -> Int32 {
        describeParameter("set_parameter_choices", type: type, param: param) { spec, type, name in
            guard spec.kind == .string else { return HostText.Phrase("plugin.registration.choicesNotString", ["name": name, "type": type]) }
            guard count > 0, let values else { return HostText.Phrase("plugin.registration.noChoices", ["name": name, "type": type]) }
            var choices: [EntityValue] = []
            var raw = UnsafeRawPointer(values)
            for index in 0..<Int(count) {
                switch EntityValueDescriptor.read(raw) {
                case .failure(let problem):
                    return HostText.Phrase("plugin.registration.badChoice", ["index": "\(index)", "name": name, "type": type],
                                           parts: ["problem": problem.words])
                case .success(let value):
                    guard !choices.contains(where: { $0.id == value.id }) else {
                        return HostText.Phrase("plugin.registration.choiceTwice", ["name": name, "type": type, "value": value.id])
                    }
                    choices.append(value)
                }
                raw += Int(raw.load(as: standfit_abi_header.self).struct_size)
            }
            spec.domain = .choices(choices)
            return nil
        }
    }

    func setParameterPrompt(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?, prompt: UnsafePointer<CChar>?) -> Int32 {
        describeParameter("set_parameter_prompt", type: type, param: param) { spec, type, name in
            guard let text = CText.string(prompt), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                return HostText.Phrase("plugin.registration.emptyPrompt", ["name": name, "type": type])
            }
            spec.prompt = text
            return nil
        }
    }

    func registerPhrase(type: UnsafePointer<CChar>?, language: UnsafePointer<CChar>?, phrase: UnsafePointer<CChar>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_phrase") }
        guard let type = CText.string(type), let index = actionIndex[type] else {
            return rejectUnknownAction("register_phrase", type)
        }
        guard let template = CText.string(phrase) else {
            return reject("plugin.registration.phraseNull", ["type": type])
        }
        let phrase = Phrase(language: CText.string(language).flatMap { $0.isEmpty ? nil : $0 }, template: template)
        let names = Set(actions[index].parameters.map(\.name))
        var words = 0
        for part in phrase.parts {
            switch part {
            case .word: words += 1
            case .placeholder(let name) where !names.contains(name):
                return reject("plugin.registration.phrasePlaceholder", ["phrase": template, "type": type, "placeholder": "{\(name)}"])
            case .placeholder: continue
            }
        }
        guard words > 0 else {
            return reject("plugin.registration.phraseNoWords", ["phrase": template, "type": type])
        }
        if !actions[index].phrases.contains(phrase) { actions[index].phrases.append(phrase) }
        return STANDFIT_OK
    }

    /// `standfit.parameter-checks/1`'s `set_parameter_range`.
    func setParameterRange(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?, minimum: Double, maximum: Double) -> Int32 {
        describeParameter("set_parameter_range", type: type, param: param) { spec, type, name in
            guard spec.kind == .int64 || spec.kind == .double else {
                return HostText.Phrase("plugin.registration.rangeKind", ["name": name, "type": type, "kind": spec.kind.name])
            }
            guard minimum.isFinite, maximum.isFinite, minimum <= maximum else {
                return HostText.Phrase("plugin.registration.badRange", ["name": name, "type": type, "min": "\(minimum)", "max": "\(maximum)"])
            }
            var ranged = spec
            ranged.range = minimum...maximum
            if let value = spec.defaultValue, !ranged.admits(value) {
                return HostText.Phrase("plugin.registration.defaultOutsideRange",
                                       ["name": name, "type": type, "value": value.text,
                                        "min": ClosedRange.text(minimum), "max": ClosedRange.text(maximum)])
            }
            spec = ranged
            return nil
        }
    }

    /// `standfit.parameter-traits/1`'s `set_parameter_traits`.
    func setParameterTraits(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?, traits: UInt32) -> Int32 {
        describeParameter("set_parameter_traits", type: type, param: param) { spec, type, name in
            let known = UInt32(STANDFIT_PARAM_TRAIT_NOT_SUGGESTIBLE)
            guard traits & ~known == 0 else {
                return HostText.Phrase("plugin.registration.parameterTraits", ["name": name, "type": type, "traits": "\(traits)"])
            }
            spec.suggestible = traits & known == 0
            return nil
        }
    }

    /// `standfit.action-traits/1`'s and `/2`'s `set_action_traits`: /2 knows `STANDFIT_TRAIT_CONFIRM` too.
    func setActionTraits(type: UnsafePointer<CChar>?, traits: UInt32, revision: Int) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("set_action_traits") }
        guard let type = CText.string(type), let index = actionIndex[type] else {
            return rejectUnknownAction("set_action_traits", type)
        }
        let known = UInt32(STANDFIT_TRAIT_NOT_SUGGESTIBLE) | (revision >= 2 ? UInt32(STANDFIT_TRAIT_CONFIRM) : 0)
        guard traits & ~known == 0 else {
            return reject(revision >= 2 ? "plugin.registration.actionTraits2" : "plugin.registration.actionTraits",
                          ["type": type, "traits": "\(traits)"])
        }
        actions[index].suggestible = traits & UInt32(STANDFIT_TRAIT_NOT_SUGGESTIBLE) == 0
        actions[index].confirms = traits & UInt32(STANDFIT_TRAIT_CONFIRM) != 0
        return STANDFIT_OK
    }
}
