import Foundation
import HostModel
import HostIntents

/// Donations and suggestions: every handled run is recorded, and what usually runs around now
/// is offered back.
extension HostSession {
    /// The suggestions from the donations of actions that can still run and may be suggested
    /// (not undo and the like, even from donations made before the plugin said so), and that
    /// the user did not turn down ("Stop suggesting this"), best first.
    public func suggestions() throws(HostError) -> [Suggestions.Suggestion] {
        let registry = plugins.registry
        let muted = try state.mutes()
        return Suggestions(groups: try state.donationGroups(), now: now, timeZone: request.timeZone, language: language).ranked()
            .filter { suggestion in
                registry.handler(for: suggestion.type)?.suggestible == true
                    && !muted.contains { $0.type == suggestion.type && $0.parameters == suggestion.parameters }
            }
    }

    /// What `suggestions offer` does now (`SuggestionOffers`): the suggestion to offer as a
    /// notification, or why none.
    public func offerDecision() throws(HostError) -> SuggestionOffers.Decision {
        let zone = request.timeZone, now = now, state = state
        let startOfDay = SuggestionOffers.startOfDay(of: now, in: zone)
        let offers = try state.offers(day: SuggestionOffers.day(of: now, in: zone))
        let ranked = try suggestions()
        var runs: [String: [Date]] = [:]
        for suggestion in ranked where runs[suggestion.type] == nil {
            runs[suggestion.type] = try state.runDates(of: suggestion.type, since: startOfDay)
        }
        return SuggestionOffers(ranked: ranked, now: now, timeZone: zone, quietHours: try quietHours().hours,
                                perDay: config.suggestionsPerDay, offeredToday: offers, runsToday: { runs[$0] ?? [] }).decide()
    }

    /// The quiet hours of the suggestions' notifications: config.json's when it sets them,
    /// else those the user's runs show (`learned`), else 22:00-08:00.
    public func quietHours() throws(HostError) -> (hours: QuietHours?, learned: Bool) {
        guard !config.suggestionQuietHoursSet, let learned = Suggestions.learnedQuietHours(try state.donationGroups()) else {
            return (config.suggestionQuietHours, false)
        }
        return (learned, true)
    }

    /// The best suggestion as a menu item, when it usually runs around now (within an hour)
    /// and ran at least twice, on two days; nil otherwise.
    func suggestedItem() -> ShortcutItem? {
        let suggestions: [Suggestions.Suggestion]
        do {
            suggestions = try self.suggestions()
        } catch {
            logger.warning("\(error.message(in: language))")
            return nil
        }
        guard let best = suggestions.first(where: { $0.isHabit(runs: 2) && $0.timeOfDay >= 0.5 }) else { return nil }
        let action = plugins.registry.handler(for: best.type)
        return ShortcutItem(type: best.type, title: best.title(for: action, language: language),
                            subtitle: HostText(language: language)("suggest.subtitle", ["time": best.usualTime]), icon: action?.icon,
                            userInfo: typedValues(best.parameters, of: best.type), source: .suggestion, origin: "suggestions")
    }

    /// Donated values (stored as text) as the JSON values of their parameters' kinds: a count
    /// is a number, a flag a boolean; text when the type or parameter is no longer registered.
    public func typedValues(_ parameters: [String: String], of type: String) -> [String: JSONValue] {
        let action = plugins.registry.handler(for: type)
        return parameters.reduce(into: [:]) { values, entry in
            values[entry.key] = ArgumentCoercion.json(entry.value, as: action?.parameters.first { $0.name == entry.key }?.kind ?? .string)
        }
    }

    /// What `donations` means by a type named on its command line.
    public struct DonatedType: Sendable {
        public var type: String
        /// Its title, when it is registered or a routine.
        public var title: String?
        /// False for an action that is not suggestion material: its runs are never recorded.
        public var suggestible: Bool
    }

    public enum DonatedTypeAnswer: Sendable {
        case success(DonatedType)
        /// It names no type that runs: the answer `run` would give.
        case failure(Outcome)
    }

    /// The type `name` means for `donations`: one recorded exactly as written (also of a plugin
    /// since removed), else the one `run` would run, resolved as `run` resolves it (case, last
    /// component, a menu item's own prefix). The outcome to show when it names no type that
    /// runs (unknown, with did-you-mean, or ambiguous): exit status 2, as `run`'s.
    public func donatedType(named name: String) throws(HostError) -> DonatedTypeAnswer {
        let registry = plugins.registry
        if registry.action(exactly: name) == nil, !routines.contains(where: { $0.type == name }),
           try state.hasDonations(type: name) {
            return .success(DonatedType(type: name, title: nil, suggestible: true))
        }
        let dispatcher = dispatcher
        switch dispatcher.resolve(name) {
        case .handler(let action, let type, let route):
            // A namespace or fallback handler's runs are donated under the type asked for.
            return .success(DonatedType(type: type, title: route == .fallback ? nil : action.title, suggestible: action.suggestible))
        case .routine(let routine):
            return .success(DonatedType(type: routine.type, title: routine.title, suggestible: true))
        case .ambiguous(let name, let candidates):
            return .failure(dispatcher.ambiguousOutcome(name, candidates: candidates))
        case .unknown:
            return .failure(dispatcher.unknownOutcome(name))
        }
    }
}
