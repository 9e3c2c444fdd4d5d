import HostModel
import HostIntents

/// The outcomes the dispatcher answers with: an ambiguous or unknown name, and a handler's reply.
extension Dispatcher {
    /// The answer to a name that matches several types.
    public func ambiguousOutcome(_ name: String, candidates: [String]) -> Outcome {
        let list = candidates.joined(separator: ", ")
        return Outcome(status: .unknownType, type: name, message: text("type.ambiguous", ["name": name, "list": list]),
                       suggestions: candidates)
    }

    /// The answer to a type nothing runs: did-you-mean, or where to look.
    public func unknownOutcome(_ type: String) -> Outcome {
        var candidates = registry.actions.map { Suggester.Candidate(type: $0.type, title: $0.title) }
        candidates += routines.map { Suggester.Candidate(type: $0.type, title: $0.title) }
        candidates += items.map { Suggester.Candidate(type: $0.type, title: $0.title) }
        let suggestions = Suggester(candidates: candidates).suggestions(for: type)
        let listed = items.contains { $0.type == type }
        let message: String
        if listed {
            message = text("type.unhandled", ["type": type])
        } else if suggestions.isEmpty {
            message = text("type.unknown", ["type": type])
        } else {
            let described = suggestions.map { suggestion in
                let title = registry.action(exactly: suggestion)?.title ?? items.first { $0.type == suggestion }?.title
                return title.map { "\(suggestion) (\($0))" } ?? suggestion
            }
            message = text("type.didYouMean", ["type": type, "suggestions": text.list(described, or: true)])
        }
        return Outcome(status: .unknownType, type: type, message: message, suggestions: suggestions)
    }

    /// The answer to a handler's reply. A plugin's fault (a crash, an answer outside the ABI)
    /// is said in the run's language; what the runtime saw (the signal, the call) is quoted.
    func outcome(of reply: HandlerReply, action: RegisteredAction, type: String) -> Outcome {
        let plugin = action.pluginID
        if let fault = reply.fault {
            return Outcome(status: .pluginFailed, type: type,
                           message: text(HostText.Phrase("outcome.fault", ["plugin": plugin, "type": type], parts: ["fault": fault])),
                           plugin: plugin)
        }
        let message = reply.message.flatMap { $0.isEmpty ? nil : $0 }
        switch reply.status {
        case 0:
            var outcome = Outcome(status: .handled, type: type, message: message ?? text("outcome.ran", ["title": action.title]),
                                  data: reply.data, plugin: plugin)
            outcome.donationID = reply.donationID
            outcome.withdrawnDonations = reply.withdrawnDonations
            return outcome
        case 1:
            return Outcome(status: .declined, type: type, message: message ?? text("outcome.declined", ["title": action.title]),
                           data: reply.data, plugin: plugin)
        case 2:
            let parameter = reply.parameter.flatMap { name in action.parameters.contains { $0.name == name } ? name : nil }
            return Outcome(status: .invalidInput, type: type,
                           message: message ?? text("outcome.refusedSilently", ["plugin": plugin, "type": type]),
                           data: reply.data, parameter: parameter, plugin: plugin)
        case 3:
            return Outcome(status: .pluginFailed, type: type,
                           message: text("outcome.failed", ["plugin": plugin, "type": type, "reason": message ?? text("outcome.noReason")]),
                           data: reply.data, plugin: plugin)
        default:
            return Outcome(status: .pluginFailed, type: type,
                           message: text("outcome.badStatus", ["plugin": plugin, "status": "\(reply.status)", "type": type]),
                           plugin: plugin)
        }
    }
}
