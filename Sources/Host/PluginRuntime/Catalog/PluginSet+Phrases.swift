import HostIntents
import HostModel
import Logging

/// Phrases have owners: a sentence belongs to the app that said it first. Plugins are taken
/// bundled first, then the ones the user trusts, then the rest, each group in load order; a
/// phrase whose words another plugin's phrase (with its entities and numbers) already reads, or
/// that reads another plugin's phrase, is taken out of the set with a warning naming both, so
/// that `say`, the desktop's search and the speech grammar never see it. The plugin's action
/// stays its own to run.
///
/// What is compared: each phrase is said once, as words: its placeholders as a number in the
/// parameter's range, the first of a fixed choice list, or a word no plugin knows for an
/// entity or text. So "log twenty squats" is refused beside StandFit's "log {count} {exercise}"
/// (StandFit's exercise entity knows "squats"), and "log {anything}" beside it too (its text
/// reads "log 2 …"); two phrases whose entities happen to share a value are left to the
/// matcher's own rule (an untrusted phrase never takes a sentence a trusted one fits).
public struct PhraseConflict: Sendable, Equatable {
    public var pluginID: String
    public var type: String
    public var phrase: Phrase
    public var ownerID: String
    public var ownerName: String
    public var ownerType: String
    public var ownerPhrase: Phrase

    /// The warning `plugins`, `plugins check` and `doctor` show, in English.
    public var warning: String { warning(in: "en") }

    /// The warning in `language`. (A phrase is words to say: quoted with ", as the closest
    /// phrases are listed.)
    public func warning(in language: String) -> String {
        HostText(language: language)("plugin.phraseTaken", [
            "phrase": "\"\(phrase.template)\"", "type": type, "owner": ownerName, "ownerPhrase": "\"\(ownerPhrase.template)\"",
            "ownerType": ownerType, "ownerID": ownerID,
        ])
    }
}

extension PluginSet {
    /// Which plugin is asked first: bundled (0), trusted (1), the rest (2).
    static func ownershipRank(bundled: Bool, trusted: Bool) -> Int {
        bundled ? 0 : trusted ? 1 : 2
    }

    /// The plugins in the order they are asked: by `ownershipRank`, load order within each.
    func ownershipOrder() -> [PluginInfo] {
        let rank = { (plugin: PluginInfo) in Self.ownershipRank(bundled: plugin.isBundled, trusted: plugin.isTrusted) }
        return plugins.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    /// The phrases of `plugin`'s `actions` that the phrases of `owners` (other plugins', kept)
    /// already read, or that read theirs.
    func phraseConflicts(of plugin: PluginInfo, actions: [RegisteredAction], against owners: [RegisteredAction],
                         language: String) -> [PhraseConflict] {
        let owners = owners.filter { $0.pluginID != plugin.id && !$0.phrases.isEmpty && !$0.isNamespace }
        guard !owners.isEmpty else { return [] }
        let names = Dictionary(plugins.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let entity = { (pluginID: String, entityID: String) in self.entity(entityID, of: pluginID) }
        var conflicts: [PhraseConflict] = []
        for action in actions where !action.isNamespace {
            for phrase in action.phrases {
                let alone = RegisteredAction(type: action.type, title: action.title, parameters: action.parameters,
                                             pluginID: action.pluginID, phrases: [phrase])
                let mine = PhraseMatcher(actions: [alone], language: language, entity: entity, query: calls.query)
                let owner = owners.lazy.flatMap { owner in owner.phrases.lazy.map { (owner, $0) } }.first { owner, ownerPhrase in
                    let theirs = PhraseMatcher(actions: [RegisteredAction(type: owner.type, title: owner.title, parameters: owner.parameters,
                                                                          pluginID: owner.pluginID, phrases: [ownerPhrase])],
                                               language: language, entity: entity, query: calls.query)
                    return !theirs.matches(Self.said(phrase, of: action)).isEmpty
                        || !mine.matches(Self.said(ownerPhrase, of: owner)).isEmpty
                }
                if let (owner, ownerPhrase) = owner {
                    conflicts.append(PhraseConflict(pluginID: action.pluginID, type: action.type, phrase: phrase,
                                                    ownerID: owner.pluginID, ownerName: names[owner.pluginID] ?? owner.pluginID,
                                                    ownerType: owner.type, ownerPhrase: ownerPhrase))
                }
            }
        }
        return conflicts
    }

    /// Gives every phrase its owner: takes out the phrases that another plugin's read, and
    /// warns on their plugins. Costs nothing while one plugin alone declares phrases.
    mutating func ownPhrases(language: String, logger: Logger) {
        var kept: [RegisteredAction] = []
        for plugin in ownershipOrder() {
            var actions = registry.actions.filter { $0.pluginID == plugin.id && !$0.phrases.isEmpty }
            guard !actions.isEmpty else { continue }
            // A plugin's first phrases only, as many as the speech grammar takes: comparing them
            // costs the owners' entity queries, on every load. A bundled plugin, asked first and
            // compared with nothing, keeps all of its own.
            var left = plugin.isBundled ? Int.max : Self.phraseLimit
            var declared = 0, dropped = 0
            for index in actions.indices {
                let phrases = actions[index].phrases
                declared += phrases.count
                for phrase in phrases.dropFirst(left) { registry.removePhrase(phrase, of: actions[index].type) }
                actions[index].phrases = Array(phrases.prefix(left))
                dropped += phrases.count - actions[index].phrases.count
                left -= actions[index].phrases.count
            }
            if dropped > 0, let index = plugins.firstIndex(where: { $0.id == plugin.id }) {
                plugins[index].warnings.append(HostText(language: language)("plugin.phraseLimit", [
                    "declared": "\(declared)", "limit": "\(Self.phraseLimit)", "dropped": "\(dropped)",
                ]))
            }
            let conflicts = phraseConflicts(of: plugin, actions: actions, against: kept, language: language)
            for conflict in conflicts {
                registry.removePhrase(conflict.phrase, of: conflict.type)
                let warning = conflict.warning(in: language)
                logger.info("\(warning)")
                if let index = plugins.firstIndex(where: { $0.id == plugin.id }) { plugins[index].warnings.append(warning) }
            }
            kept += registry.actions.filter { $0.pluginID == plugin.id && !$0.phrases.isEmpty }
        }
    }

    /// The most phrases a plugin that is not bundled declares that the host takes (as the speech
    /// grammar does).
    static let phraseLimit = 64

    /// A phrase said once as words: a number in the parameter's range for a number, the first
    /// name of a fixed choice list, and for an entity or text a word that no plugin's phrase
    /// has and no entity knows (a word joiner before the parameter's name).
    static func said(_ phrase: Phrase, of action: RegisteredAction) -> String {
        phrase.parts.map { part in
            switch part {
            case .word(let word):
                return word
            case .placeholder(let name):
                guard let parameter = action.parameters.first(where: { $0.name == name }) else { return "\u{2060}\(name)" }
                if case .choices(let values)? = parameter.domain, let first = values.first { return first.title }
                switch parameter.kind {
                case .int64, .double:
                    return parameter.sampleNumber(preferring: 2)
                case .bool:
                    return "true"
                case .string:
                    return "\u{2060}\(name)"
                }
            }
        }.joined(separator: " ")
    }
}
