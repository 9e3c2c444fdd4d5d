import Foundation
import Logging
import HostModel

extension EntityProvider {
    /// Why this entity's values cannot be had: `words` follow "the plugin".
    func unavailable(_ words: HostText.Phrase) -> EntityFailure {
        EntityFailure(HostText.Phrase("entityFailure.unavailable", ["entity": record.title.lowercased(), "plugin": pluginID], parts: ["fault": words]))
    }
}

extension PluginCalls {
    /// Calls into plugins loaded in this process, each found by id through `plugin`, each call
    /// inside `guard`.
    static func inProcess(guard callGuard: CallGuard,
                          _ plugin: @escaping (_ pluginID: String) -> Result<PluginCode, PluginFault>) -> PluginCalls {
        PluginCalls(
            perform: { action, invocation in
                switch plugin(action.pluginID) {
                case .failure(let problem):
                    return HandlerReply(status: -1, fault: problem.words)
                case .success(let code):
                    guard let handler = code.handlers[action.type] else {
                        return HandlerReply(status: -1, fault: HostText.Phrase("fault.noLongerRegisters", ["type": action.type]))
                    }
                    return callGuard.around(action.pluginID, HostText.Phrase("guard.running", ["type": action.type])) { handler.perform(invocation) }
                }
            },
            provide: { pluginID, locale in
                switch plugin(pluginID) {
                case .failure(let problem):
                    return .failure(ProviderFailure(HostText.Phrase("provider.unavailablePlugin", ["plugin": pluginID], parts: ["fault": problem.words])))
                case .success(let code):
                    guard let provide = code.provide else {
                        return .failure(ProviderFailure(HostText.Phrase("provider.gone", ["plugin": pluginID])))
                    }
                    return callGuard.around(pluginID, HostText.Phrase("guard.providing")) { provide(locale) }
                }
            },
            query: { entity, query, locale in
                switch plugin(entity.pluginID) {
                case .failure(let problem):
                    return .failure(entity.unavailable(problem.words))
                case .success(let code):
                    guard let ask = code.queries[entity.record.id] else {
                        return .failure(entity.unavailable(HostText.Phrase("fault.noLongerRegistersEntity", ["entity": entity.record.id])))
                    }
                    return callGuard.around(entity.pluginID, HostText.Phrase("guard.asked", ["entity": entity.record.title.lowercased()])) { ask(query, locale) }
                }
            })
    }
}
