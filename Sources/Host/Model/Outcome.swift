/// The answer to a run: what happened, the one sentence to show, and what else there is.
public struct Outcome: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        case handled
        case declined
        case unknownType = "unknown-type"
        case invalidInput = "invalid-input"
        case pluginFailed = "plugin-failed"
        /// `--dry-run`: the parameters resolved and nothing ran.
        case dryRun = "dry-run"
    }

    public var status: Status
    /// The type that ran (fully resolved), or the one asked for when none resolved.
    public var type: String
    public var message: String
    /// Did-you-mean types for `unknown-type`; the candidates of an ambiguous name.
    public var suggestions: [String]?
    /// Structured output from the handler.
    public var data: JSONText?
    /// The parameter an `invalid-input` is about, when there is one.
    public var parameter: String?
    /// The plugin that handled or failed, when one ran.
    public var plugin: String?
    /// An `invalid-input` because this parameter had no value and nobody could be asked.
    public var needsValue: String?
    /// How each parameter got its value (shown by `--dry-run`; kept for donations).
    public var resolved: [ResolvedParameter]?
    /// A routine's steps, in order, as far as they ran.
    public var steps: [Outcome]?
    /// For `needsValue`: the question a prompt would have asked ("Which exercise?") and the
    /// values offered, with the titles people read, in the order of `suggestions`. What a
    /// surface that cannot prompt (a notification) offers instead; not part of the JSON.
    public var question: String?
    public var offered: [EntityValue]?
    /// For `handled`: what the handler named this run's donation, and the donations of its
    /// plugin it withdrew because their effect was undone (`standfit.donations/1`); not part of
    /// the JSON.
    public var donationID: String?
    public var withdrawnDonations: [String]?
    /// The manifest's fallback type, when no plugin handles `type` and the fallback ran instead:
    /// said on stderr, `"status": "fallback"` under `--json` when it handled, and not donated
    /// (a typo is no habit).
    public var fallback: String?
    /// For `say` when no action or several fit: the sentence, and no `type` (none was found).
    public var sentence: String?

    public init(status: Status, type: String, message: String, suggestions: [String]? = nil,
                data: JSONText? = nil, parameter: String? = nil, plugin: String? = nil) {
        self.status = status
        self.type = type
        self.message = message
        self.suggestions = suggestions
        self.data = data
        self.parameter = parameter
        self.plugin = plugin
    }
}

extension Outcome {
    /// This outcome as the answer to `sentence` (`say`).
    public func said(_ sentence: String) -> Outcome {
        var outcome = self
        outcome.sentence = sentence
        return outcome
    }

    /// Two outcomes are the same answer when everything the user sees is the same: `resolved`
    /// is the host's record of how the values came about (for donations and `--dry-run`, whose
    /// message shows it), so it does not take part.
    public static func == (left: Outcome, right: Outcome) -> Bool {
        (left.status, left.type, left.message, left.suggestions) == (right.status, right.type, right.message, right.suggestions)
            && (left.parameter, left.plugin, left.needsValue) == (right.parameter, right.plugin, right.needsValue)
            && left.data == right.data && left.steps == right.steps && left.fallback == right.fallback && left.sentence == right.sentence
    }
}
