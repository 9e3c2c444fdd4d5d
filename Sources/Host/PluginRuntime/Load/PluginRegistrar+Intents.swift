import CStandFitABI
import Foundation
import Logging
import HostModel

/// The `standfit.intents/1` registrations: entities, parameter domains and prompts, phrases.
extension PluginRegistrar {
    func registerEntity(_ pointer: UnsafePointer<standfit_entity>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_entity") }
        guard let pointer else { return reject("register_entity was called with NULL") }
        let raw = pointer.pointee
        if let problem = raw.abi.problem(minimumSize: MemoryLayout<standfit_entity>.size) {
            return reject("an entity table \(problem)")
        }
        guard let id = CText.string(raw.id), PluginID.isValid(id) else {
            return reject("an entity has id \(CText.quoted(raw.id)), which is not a reverse-DNS id such as com.example.exercise")
        }
        guard let title = CText.string(raw.title), !title.isEmpty else {
            return reject("entity '\(id)' has no title; give it one (\"Exercise\")")
        }
        guard let lookup = raw.lookup, let match = raw.match, let suggest = raw.suggest else {
            return reject("entity '\(id)' lacks one of its lookup, match and suggest functions; set all three")
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

    /// Sets what `param` of `type` knows beyond its kind: where its values come from, or the
    /// question that asks for it.
    func describeParameter(_ function: String, type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?,
                           _ change: (inout ParameterSpec, String, String) -> String?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit(function) }
        guard let type = CText.string(type), let index = actionIndex[type] else {
            return reject("\(function) names action \(CText.quoted(type)), which it has not registered; register the action first")
        }
        guard let name = CText.string(param),
              let parameter = actions[index].parameters.firstIndex(where: { $0.name == name }) else {
            return reject("\(function) names parameter \(CText.quoted(param)) of '\(type)', which declares no such parameter")
        }
        if let problem = change(&actions[index].parameters[parameter], type, name) {
            return reject(problem)
        }
        return STANDFIT_OK
    }

    func setParameterEntity(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?, entity: UnsafePointer<CChar>?) -> Int32 {
        describeParameter("set_parameter_entity", type: type, param: param) { spec, type, name in
            guard spec.kind == .string else { return "parameter '\(name)' of '\(type)' is not a string, so it cannot name an entity" }
            guard let id = CText.string(entity), entities.contains(where: { $0.record.id == id }) else {
                return "set_parameter_entity names entity \(CText.quoted(entity)) for '\(type)', which this plugin has not registered; register the entity first"
            }
            spec.domain = .entity(id)
            return nil
        }
    }

    func setParameterChoices(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?,
                             values: UnsafePointer<standfit_entity_value>?, count: UInt32) -> Int32 {
        describeParameter("set_parameter_choices", type: type, param: param) { spec, type, name in
            guard spec.kind == .string else { return "parameter '\(name)' of '\(type)' is not a string, so it cannot have choices" }
            guard count > 0, let values else { return "the choices of '\(name)' of '\(type)' are empty; pass at least one value" }
            var choices: [EntityValue] = []
            var raw = UnsafeRawPointer(values)
            for index in 0..<Int(count) {
                switch EntityValueDescriptor.read(raw) {
                case .failure(let problem): return "choice \(index) of '\(name)' of '\(type)': \(problem.message)"
                case .success(let value):
                    guard !choices.contains(where: { $0.id == value.id }) else {
                        return "the choices of '\(name)' of '\(type)' list '\(value.id)' twice"
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
                return "the prompt of '\(name)' of '\(type)' is empty or not UTF-8"
            }
            spec.prompt = text
            return nil
        }
    }

    func registerPhrase(type: UnsafePointer<CChar>?, language: UnsafePointer<CChar>?, phrase: UnsafePointer<CChar>?) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("register_phrase") }
        guard let type = CText.string(type), let index = actionIndex[type] else {
            return reject("register_phrase names action \(CText.quoted(type)), which it has not registered; register the action first")
        }
        guard let template = CText.string(phrase) else {
            return reject("a phrase of '\(type)' is NULL or not UTF-8")
        }
        let phrase = Phrase(language: CText.string(language).flatMap { $0.isEmpty ? nil : $0 }, template: template)
        let names = Set(actions[index].parameters.map(\.name))
        var words = 0
        for part in phrase.parts {
            switch part {
            case .word: words += 1
            case .placeholder(let name) where !names.contains(name):
                return reject("the phrase \"\(template)\" of '\(type)' has placeholder {\(name)}, which is not one of its parameters")
            case .placeholder: continue
            }
        }
        guard words > 0 else {
            return reject("the phrase \"\(template)\" of '\(type)' has no words besides placeholders; add one (\"log {count} {exercise}\")")
        }
        if !actions[index].phrases.contains(phrase) { actions[index].phrases.append(phrase) }
        return STANDFIT_OK
    }

    /// `standfit.parameter-checks/1`'s `set_parameter_range`.
    func setParameterRange(type: UnsafePointer<CChar>?, param: UnsafePointer<CChar>?, minimum: Double, maximum: Double) -> Int32 {
        describeParameter("set_parameter_range", type: type, param: param) { spec, type, name in
            guard spec.kind == .int64 || spec.kind == .double else {
                return "parameter '\(name)' of '\(type)' is a \(spec.kind.name), so it cannot have a range; give ranges to int and double parameters"
            }
            guard minimum.isFinite, maximum.isFinite, minimum <= maximum else {
                return "set_parameter_range gives '\(name)' of '\(type)' the range \(minimum) to \(maximum); give finite bounds, the smaller first"
            }
            var ranged = spec
            ranged.range = minimum...maximum
            if let value = spec.defaultValue, !ranged.admits(value) {
                return "parameter '\(name)' of '\(type)' has default \(value.text), outside its range \(ClosedRange.text(minimum)) to \(ClosedRange.text(maximum)); fix the default or the range"
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
                return "set_parameter_traits gives '\(name)' of '\(type)' traits \(traits), with bits this host does not know (it knows STANDFIT_PARAM_TRAIT_NOT_SUGGESTIBLE = 1)"
            }
            spec.suggestible = traits & known == 0
            return nil
        }
    }

    /// `standfit.action-traits/1`'s `set_action_traits`.
    func setActionTraits(type: UnsafePointer<CChar>?, traits: UInt32) -> Int32 {
        guard acceptsRegistrations else { return refuseOutsideInit("set_action_traits") }
        guard let type = CText.string(type), let index = actionIndex[type] else {
            return reject("set_action_traits names action \(CText.quoted(type)), which it has not registered; register the action first")
        }
        let known = UInt32(STANDFIT_TRAIT_NOT_SUGGESTIBLE)
        guard traits & ~known == 0 else {
            return reject("set_action_traits gives '\(type)' traits \(traits), with bits this host does not know (it knows STANDFIT_TRAIT_NOT_SUGGESTIBLE = 1)")
        }
        actions[index].suggestible = traits & UInt32(STANDFIT_TRAIT_NOT_SUGGESTIBLE) == 0
        return STANDFIT_OK
    }
}
