import Foundation
import HostModel
import HostIntents
import HostSurfaces

/// KRunner (`org.kde.krunner1`): what a typed query matches, for the desktop's search.
extension HostSession {
    /// One match, in KRunner's terms.
    public struct RunnerMatch: Sendable, Equatable {
        /// What `Run` is given back: `phrase:` and the JSON of the type and arguments a phrase
        /// gave, or `action:` and a desktop action key.
        public var id: String
        public var text: String
        public var icon: String
        /// KRunner's match type: 100 exact, 30 possible.
        public var type: Int32
        public var relevance: Double
        public var subtext: String?

        public static let exact: Int32 = 100
        public static let possible: Int32 = 30
    }

    /// What `query` matches: what the actions' phrases understand of it ("log 20 squats"), as
    /// exact matches, then the visible quick actions whose name holds every word of it, as
    /// possible matches (those whose name starts with it ranked higher). Each match's subtext
    /// is the app it belongs to (StandFit, a plugin, Shortcuts), as KRunner groups results.
    public func runnerMatches(_ query: String) throws(HostError) -> [RunnerMatch] {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        // A query longer than any phrase matches nothing, and costs nothing to say so.
        guard !trimmed.isEmpty, !PhraseMatcher.isTooLong(trimmed) else { return [] }
        let menu = try menu()
        let actions = DesktopInstallation.actions(of: menu, app: nil)
        let apps = Dictionary(menu.visible.map { ($0.item.identity, $0.app.name) }, uniquingKeysWith: { first, _ in first })
        let icon = { (type: String) in
            IconCatalog.themeName(for: actions.first { $0.item.type == type }?.item.icon
                                  ?? self.staticItems.first { $0.type == type }?.icon) ?? DesktopEntry.fallbackIcon
        }
        let matcher = phraseMatcher
        var matches = matcher.matches(trimmed).map { match in
            RunnerMatch(id: "phrase:" + RunnerPhrase(type: match.type, arguments: match.arguments).encoded,
                        text: match.summary, icon: icon(match.type), type: RunnerMatch.exact, relevance: 1,
                        subtext: app(of: ShortcutItem(type: match.type, title: ""), runs: match.type).name)
        }
        let words = trimmed.lowercased().split(whereSeparator: \.isWhitespace)
        for (key, item) in actions {
            let name = DesktopNotification.name(of: item)
            let folded = name.lowercased()
            guard words.allSatisfy({ folded.contains($0) }) else { continue }
            matches.append(RunnerMatch(id: "action:" + key, text: name, icon: icon(item.type), type: RunnerMatch.possible,
                                       relevance: folded.hasPrefix(trimmed.lowercased()) ? 0.8 : 0.6,
                                       subtext: apps[item.identity] ?? DesktopInstallation.applicationName))
        }
        return matches
    }

    /// The words a query must start with for KRunner to ask: the first word of every phrase
    /// in the session's language and of every visible action's title, lowercased, once each;
    /// none (KRunner asks for every query) when a phrase starts with a placeholder ("{count}
    /// squats"), which no word can announce.
    public func runnerTriggerWords() throws(HostError) -> [String] {
        let matcher = phraseMatcher
        let phrases = matcher.actions.flatMap(\.phrases).filter { $0.applies(to: language) }.map(\.template)
        if phrases.contains(where: { $0.hasPrefix("{") }) { return [] }
        let titles = try DesktopInstallation.actions(session: self).map(\.item.title)
        var seen = Set<String>()
        let words = (phrases + titles).compactMap { text -> String? in
            guard let word = text.lowercased().split(whereSeparator: \.isWhitespace).first.map(String.init),
                  !word.hasPrefix("{"), seen.insert(word).inserted else { return nil }
            return word
        }
        // "StandFit, log 20 squats", "hey StandFit, …": what `say` reads without the app's name.
        let table = PhraseLanguage.table(for: language)
        let apps = matcher.applications.values.sorted().flatMap { table?.appTriggerWords(named: $0) ?? [] }
        return words + apps.filter { seen.insert($0).inserted }
    }
}

/// A phrase match as KRunner carries it between `Match` and `Run`.
public struct RunnerPhrase: Codable, Sendable, Equatable {
    public var type: String
    public var arguments: [String: String]

    public init(type: String, arguments: [NamedArgument]) {
        self.type = type
        self.arguments = Dictionary(arguments.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    public init?(encoded: String) {
        guard let value = try? JSONDecoder().decode(RunnerPhrase.self, from: Data(encoded.utf8)) else { return nil }
        self = value
    }

    public var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public var named: [NamedArgument] { arguments.sorted { $0.key < $1.key }.map { NamedArgument(name: $0.key, value: $0.value) } }
}
