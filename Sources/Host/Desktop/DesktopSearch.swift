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
    /// written as it was said ("Log 20 squats"), as exact matches, never one whose values the
    /// action would refuse ("log -5 squats"); where no phrase fits, what their endings read
    /// alone ("squats", "20 squats"), as possible matches; then the visible quick actions whose name holds every word of it, as possible matches
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
        /// Resolved as a run would resolve it, running nothing: nil for a value the action
        /// refuses (out of range, no such entity), which is never a result ("log -5 squats").
        func checked(_ match: PhraseMatcher.Match) -> Outcome? {
            let check = dispatcher.run(match.type, arguments: match.arguments,
                                       options: Dispatcher.RunOptions(dryRun: true, argumentSource: .phrase, showsData: false))
            return check.status == .dryRun ? check : nil
        }
        /// What a dry run would hand the handler: its type and the values it resolved.
        func run(of check: Outcome, type: String) -> [String: String] {
            Dictionary((check.resolved ?? []).compactMap { parameter in parameter.value.map { (parameter.name, $0) } },
                       uniquingKeysWith: { first, _ in first }).merging(["": type]) { $1 }
        }
        // The runs the phrases found: a quick action that would do the same is not listed again
        // ("squats" gives "Log 20 squats", not also the quick action "Log Squats — 20 reps").
        var found: [[String: String]] = []
        let fits = matcher.matches(trimmed)
        var matches: [Match] = fits.compactMap { match in
            guard let check = checked(match) else { return nil }
            found.append(run(of: check, type: match.type))
            return Match(id: Target.phrase(RunnerPhrase(type: match.type, arguments: match.arguments)).id,
                         text: match.said, icon: icon(match.type), type: Match.exact, relevance: 1,
                         subtext: session.app(of: ShortcutItem(type: match.type, title: ""), runs: match.type).name)
        }
        // Bare words, where no whole phrase fits: "squats", "20 squats", "push ups" read as the
        // phrases' endings, said as the whole phrase with the values the run would take ("Log 10
        // squats"), ranked above the names of quick actions.
        if fits.isEmpty {
            for match in matcher.bareWords().matches(trimmed) {
                guard let check = checked(match) else { continue }
                let whole = matcher.wholePhrases(of: match, language: session.language).first
                let text = whole.flatMap { Self.said($0, arguments: match.arguments, resolved: check.resolved ?? []) } ?? match.said
                let id = Target.phrase(RunnerPhrase(type: match.type, arguments: match.arguments)).id
                guard !matches.contains(where: { $0.id == id }) else { continue }
                found.append(run(of: check, type: match.type))
                matches.append(Match(id: id, text: text, icon: icon(match.type), type: Match.possible, relevance: 0.9,
                                     subtext: session.app(of: ShortcutItem(type: match.type, title: ""), runs: match.type).name))
            }
        }
        let words = trimmed.lowercased().split(whereSeparator: \.isWhitespace)
        for (key, item) in actions {
            let name = DesktopNotification.name(of: item)
            let folded = name.lowercased()
            guard words.allSatisfy({ folded.contains($0) }) else { continue }
            if !found.isEmpty {
                let check = dispatcher.run(item.type, arguments: [], userInfo: item.userInfo,
                                           options: Dispatcher.RunOptions(dryRun: true, showsData: false))
                if check.status == .dryRun, found.contains(run(of: check, type: item.type)) { continue }
            }
            matches.append(Match(id: Target.action(key: key).id, text: name, icon: session.icons.themeName(for: item.icon) ?? icon(item.type), type: Match.possible,
                                       relevance: folded.hasPrefix(trimmed.lowercased()) ? 0.8 : 0.6,
                                       subtext: apps[item.identity] ?? DesktopInstallation.applicationName))
        }
        return matches
    }

    /// `phrase` said with the values given (as typed) and, for the placeholders not given, the
    /// values the run would take: "Log 10 squats" for "squats"; nil when one has none.
    static func said(_ phrase: Phrase, arguments: [NamedArgument], resolved: [ResolvedParameter]) -> String? {
        phrase.sentence { name in
            arguments.first { $0.name == name }?.value ?? resolved.first { $0.name == name }.flatMap { $0.title?.lowercased() ?? $0.value }
        }
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
