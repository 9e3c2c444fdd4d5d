import Foundation
import HostModel
import HostIntents
import HostDispatch
import HostSurfaces
import StandFitHost

/// The desktop's search over a session: what a typed query matches, for KRunner
/// (`org.kde.krunner1`) and GNOME Shell's search (`org.gnome.Shell.SearchProvider2`), and the
/// command line that runs a match.
public struct DesktopSearch {
    public let session: HostSession

    public init(_ session: HostSession) {
        self.session = session
    }

    /// One match, in KRunner's terms (GNOME takes its id, text, icon and subtext).
    public struct Match: Sendable, Equatable {
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

    /// What `query` matches: what the actions' phrases understand of it ("log 20 squats"),
    /// written as it was said ("Log 20 squats"), as exact matches when the action would take the
    /// values and as possible ones saying why not when it would refuse them ("log -5 squats");
    /// then the visible quick actions whose name holds every word of it, as possible matches
    /// (those whose name starts with it ranked higher). Each match's subtext is the app it
    /// belongs to (StandFit, a plugin, Shortcuts), as KRunner groups results, or the refusal.
    public func matches(_ query: String) throws(HostError) -> [Match] {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        // A query longer than any phrase matches nothing, and costs nothing to say so.
        guard !trimmed.isEmpty, !PhraseMatcher.isTooLong(trimmed) else { return [] }
        let menu = try session.menu()
        let actions = DesktopInstallation.actions(of: menu, app: nil)
        let apps = menu.appsOfVisibleItems.mapValues(\.name)
        let icon = { (type: String) in
            session.icons.themeName(for: actions.first { $0.item.type == type }?.item.icon
                                    ?? session.staticItems.first { $0.type == type }?.icon) ?? session.icons.fallback
        }
        let matcher = session.phraseMatcher, dispatcher = session.dispatcher
        var matches = matcher.matches(trimmed).map { match in
            // Resolved as a run would resolve it, running nothing: a value the action refuses
            // (out of range, no such entity) makes no exact match.
            let check = dispatcher.run(match.type, arguments: match.arguments,
                                       options: Dispatcher.RunOptions(dryRun: true, argumentSource: .phrase, showsData: false))
            let valid = check.status == .dryRun
            return Match(id: Target.phrase(RunnerPhrase(type: match.type, arguments: match.arguments)).id,
                               text: match.said, icon: icon(match.type), type: valid ? Match.exact : Match.possible,
                               relevance: valid ? 1 : 0.5,
                               subtext: valid ? session.app(of: ShortcutItem(type: match.type, title: ""), runs: match.type).name : check.message)
        }
        let words = trimmed.lowercased().split(whereSeparator: \.isWhitespace)
        for (key, item) in actions {
            let name = DesktopNotification.name(of: item)
            let folded = name.lowercased()
            guard words.allSatisfy({ folded.contains($0) }) else { continue }
            matches.append(Match(id: Target.action(key: key).id, text: name, icon: session.icons.themeName(for: item.icon) ?? icon(item.type), type: Match.possible,
                                       relevance: folded.hasPrefix(trimmed.lowercased()) ? 0.8 : 0.6,
                                       subtext: apps[item.identity] ?? DesktopInstallation.applicationName))
        }
        return matches
    }

    /// An action KRunner offers beside a match (`Actions`, a button on every match).
    public struct Action: Sendable, Equatable {
        public var id: String
        public var text: String
        public var icon: String
    }

    /// The id of "Copy as a command".
    public static let copyAction = "copy"

    /// What KRunner offers beside every match: copying the command line that runs it.
    public static func actions(language: String) -> [Action] {
        [Action(id: copyAction, text: HostText(language: language)("runner.copy"), icon: "edit-copy")]
    }

    /// The command line that runs match `id` (`Match`'s, GNOME search's) with `executable`:
    /// `run` with the installation's options, the item's userInfo and the phrase's values, each
    /// word quoted for a POSIX shell where it needs it; nil for an id that is no match.
    public func command(_ id: String, executable: String, options arguments: [String]) throws(HostError) -> String? {
        var words = [executable, "run"] + arguments
        switch Target(id: id) {
        case .phrase(let phrase)?:
            words += ["--", phrase.type] + phrase.named.map { "\($0.name)=\($0.value)" }
        case .action(let key)?:
            guard let item = try DesktopInstallation.actions(session: session).first(where: { $0.key == key })?.item else { return nil }
            if !item.userInfo.isEmpty { words += ["--user-info", JSONValue.object(item.userInfo).jsonText] }
            words += ["--", item.type]
        case nil:
            return nil
        }
        // The service file's quoting is a POSIX shell's too: single quotes where a word needs any.
        return words.map(DesktopInstallation.serviceExecWord).joined(separator: " ")
    }
}

extension DesktopSearch {
    /// What a match's id names, the one place its form is written and read: `action:` and a
    /// desktop action key, or `phrase:` and the JSON of the type and arguments a phrase gave.
    public enum Target: Equatable {
        case action(key: String)
        case phrase(RunnerPhrase)

        public var id: String {
            switch self {
            case .action(let key): "action:" + key
            case .phrase(let phrase): "phrase:" + phrase.encoded
            }
        }

        /// The target `id` names; nil for an id that is no match's.
        public init?(id: String) {
            if id.hasPrefix("action:") {
                self = .action(key: String(id.dropFirst("action:".count)))
            } else if id.hasPrefix("phrase:"), let phrase = RunnerPhrase(encoded: String(id.dropFirst("phrase:".count))) {
                self = .phrase(phrase)
            } else {
                return nil
            }
        }
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
