import Foundation
import Logging
import HostModel

/// The provider answers that come with a handler's reply, made explicit: a worker that ran a
/// plugin's handler also asks that plugin's dynamic provider, in the languages the after-run
/// refresh will store (`refreshLanguages`), so the refresh that follows the run costs no second
/// worker start. The refresh's `provide` takes each answer, once; a plugin or language not
/// prefetched is asked as usual.
struct PrefetchedItems {
    private var answers: [String: [String: HandlerWorker.ProviderAnswer]] = [:]

    /// Keeps `answers` (by language) of plugin `pluginID`'s provider, replacing earlier ones.
    mutating func keep(_ answers: [String: HandlerWorker.ProviderAnswer], of pluginID: String) {
        self.answers[pluginID] = answers
    }

    /// The answer kept for `pluginID` in `locale`, removed: nil when there is none.
    mutating func take(_ pluginID: String, _ locale: String) -> HandlerWorker.ProviderAnswer? {
        answers[pluginID]?.removeValue(forKey: locale)
    }
}
