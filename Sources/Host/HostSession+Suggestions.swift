import Foundation
import HostModel
import HostIntents

/// Donations and suggestions: every handled run is recorded, and what usually runs around now
/// is offered back.
extension HostSession {
    /// The suggestions from the donations of actions that can still run and may be suggested
    /// (not undo and the like, even from donations made before the plugin said so), best first.
    public func suggestions() throws(HostError) -> [Suggestions.Suggestion] {
        let registry = plugins.registry
        return Suggestions(donations: try state.donations(), now: now, timeZone: request.timeZone).ranked()
            .filter { registry.handler(for: $0.type)?.suggestible == true }
    }

    /// The best suggestion as a menu item, when it usually runs around now (within an hour)
    /// and ran at least twice; nil otherwise.
    func suggestedItem() -> ShortcutItem? {
        let suggestions: [Suggestions.Suggestion]
        do {
            suggestions = try self.suggestions()
        } catch {
            logger.warning("\(error.message)")
            return nil
        }
        guard let best = suggestions.first(where: { $0.runs >= 2 && $0.timeOfDay >= 0.5 }) else { return nil }
        let action = plugins.registry.handler(for: best.type)
        var userInfo: [String: JSONValue] = [:]
        for (name, text) in best.parameters {
            let kind = action?.parameters.first { $0.name == name }?.kind ?? .string
            userInfo[name] = switch ArgumentCoercion.coerce(text, to: kind) {
            case .bool(let value)?: .bool(value)
            case .int64(let value)?: .int(value)
            case .double(let value)?: .double(value)
            case .string(let value)?: .string(value)
            case nil: .string(text)
            }
        }
        return ShortcutItem(type: best.type, title: best.title(for: action, language: language),
                            subtitle: "Suggested · usually around \(best.usualTime)", icon: action?.icon,
                            userInfo: userInfo, source: .suggestion, origin: "suggestions")
    }
}
