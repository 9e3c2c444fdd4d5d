import ArgumentParser
import Foundation
import HostDesktop
import HostDispatch
import HostIntents
import HostMenu
import HostModel
import HostSentences
import HostServer
import HostSurfaces
import StandFitHost

/// `rofi`: the quick actions for tiling-window-manager users, in rofi's script mode and as plain
/// lines for dmenu (and `rofi -dmenu`, wofi, fzf).
struct RofiCommand: ManifestCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "rofi",
        abstract: Usage.words("help.rofi"),
        discussion: Usage.words("help.rofi.discussion")
    ) }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var appOptions: AppOptions

    @Flag(help: Usage.help("help.rofi.dmenu"))
    var dmenu = false

    @Flag(help: Usage.help("help.rofi.chosen"))
    var chosen = false

    @Flag(help: Usage.help("help.rofi.notify"))
    var notify = false

    /// The text of the row rofi's script mode passes back (its ROFI_INFO says which it was), or
    /// the line typed, which may start with "-" ("-5 squats"): taken whatever it looks like.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var selection: [String] = []

    func validate() throws {
        if dmenu && chosen {
            throw ValidationError(Usage.words("usage.rofi.dmenuOrChosen"))
        }
        if global.json {
            throw ValidationError(Usage.words("usage.rofi.json"))
        }
    }

    func run() throws {
        let session = try HostSession(options: manifestOptions.hostOptions(global), logger: global.logger)
        let menu = try session.menu()
        let wanted = try appOptions.app.map { name throws(HostError) in [try HostSession.app(named: name, in: menu)] }
        let actions = DesktopInstallation.actions(of: menu, app: wanted)
        // Each row's app, to head its rows in rofi's list.
        let apps = menu.appsOfVisibleItems.mapValues(\.name)
        if dmenu {
            for action in actions { Console.current.print(RofiRow.shown(DesktopNotification.name(of: action.item))) }
            return
        }
        if chosen {
            // Nothing chosen (dmenu left with Esc): nothing runs.
            let line = (LineInput.readLine() ?? "").trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { return }
            // A name as --dmenu printed it (or with plain digits), else a sentence, else the one
            // row the sentence's words name.
            let options = Dispatcher.RunOptions(showsData: global.json)
            let named = actions.first {
                let name = DesktopNotification.name(of: $0.item)
                return RofiRow.shown(name) == line || RofiRow.field(name) == line
            }
            let (outcome, userInfo) = named.map { RofiCommand.run($0.item, in: session, options: options) }
                ?? RofiCommand.say(line, in: session, actions: actions, options: options)
            guard notify else { return try Output.finish(outcome, global, language: session.language) }
            let notShown = CommandNotification.show(outcome, session: session, parameters: [], userInfo: userInfo, logger: global.logger)
            return try CommandNotification.finish(outcome, notShown: notShown, global, language: session.language)
        }
        let environment = HostRequest.current.environment
        let retv = Int(environment["ROFI_RETV"] ?? "0") ?? 0
        let info = environment["ROFI_INFO"] ?? ""
        switch retv {
        case 1 where info.hasPrefix(RofiRow.prefix):
            guard let row = RofiRow(info: info) else { return list(actions, apps: apps, message: nil, icons: session.icons) }
            finish(row.run(in: session), row: row, session: session, actions: actions, apps: apps)
        case 2:
            // A sentence typed instead of a row (or over rows its numbers did not match).
            let (outcome, userInfo) = RofiCommand.say(selection.joined(separator: " "), in: session, actions: actions,
                                                      options: Dispatcher.RunOptions(showsData: false))
            finish(outcome, row: userInfo.map { RofiRow(type: outcome.type, arguments: [:], userInfo: $0) }, session: session,
                   actions: actions, apps: apps)
        default:
            list(actions, apps: apps, message: nil, icons: session.icons)
        }
    }

    /// Runs `item` as its row does, with its userInfo.
    static func run(_ item: ShortcutItem, in session: HostSession, options: Dispatcher.RunOptions) -> (Outcome, [String: JSONValue]?) {
        let userInfo = item.userInfo.isEmpty ? nil : item.userInfo
        return (session.run(item.type, named: [], userInfo: userInfo, options: options), userInfo)
    }

    /// A line typed in rofi or dmenu: run as `say` runs it; when no phrase understands it, the
    /// one row whose words it names ("stretch 10" for the row "Stretch 10 min", which its
    /// monospace digits kept rofi from matching), as the launcher would have chosen it; else
    /// bare words that name every number the action takes ("20 squats" as "log 20 squats", as
    /// KRunner and GNOME's search read it). Bare words without their number ("squats") run
    /// nothing: no number the user did not give is logged; `say`'s answer names the phrases.
    static func say(_ line: String, in session: HostSession, actions: [(key: String, item: ShortcutItem)],
                    options: Dispatcher.RunOptions) -> (Outcome, [String: JSONValue]?) {
        // The row is looked for only when no phrase fits the line at all (not when several do,
        // which say lists), so that a row never takes a request's place.
        guard !PhraseMatcher.isTooLong(line), session.phraseMatcher.matches(line).isEmpty else {
            return (Sentences(session).say(line, options: options), nil)
        }
        if let item = RofiRow.named(by: line, among: actions.map(\.item)) {
            return run(item, in: session, options: options)
        }
        let matcher = session.phraseMatcher
        // Endings in several phrases or languages read the same: one reading, whatever its phrase.
        var bare: [PhraseMatcher.Match] = []
        for match in matcher.bareWords().matches(line)
        where !bare.contains(where: { $0.type == match.type && Set($0.arguments.map(\.name)) == Set(match.arguments.map(\.name))
                                      && $0.arguments.allSatisfy { argument in match.arguments.contains(argument) } }) {
            bare.append(match)
        }
        // The numbers the whole phrases of that ending say ("log {count} {exercise}" for "{count}
        // {exercise}" and for "{exercise}") must all be among the words typed.
        if bare.count == 1, let match = bare.first, let action = matcher.actions.first(where: { $0.type == match.type }) {
            let numbers = Set(action.parameters.filter { $0.kind == .int64 || $0.kind == .double }.map(\.name))
            let wholes = matcher.wholePhrases(of: match)
            let said = wholes.flatMap { whole in whole.parts.compactMap { part -> String? in
                if case .placeholder(let name) = part, numbers.contains(name) { return name }
                return nil
            } }
            let given = Set(match.arguments.map(\.name))
            guard !wholes.isEmpty, said.allSatisfy(given.contains) else { return (Sentences(session).say(line, options: options), nil) }
            var spoken = options
            spoken.argumentSource = .phrase
            return (session.run(match.type, named: match.arguments, userInfo: nil, options: spoken), nil)
        }
        return (Sentences(session).say(line, options: options), nil)
    }

    /// The quick actions as rofi rows, with `message` above them; when they are several apps',
    /// each app's rows under a row naming it in bold that cannot be chosen (rofi's
    /// `nonselectable`; the rows are Pango markup then, every title escaped).
    private func list(_ actions: [(key: String, item: ShortcutItem)], apps: [ShortcutItem.Identity: String], message: String?,
                      icons: OwnIcons) {
        var lines = ["\0prompt\u{1F}\(DesktopInstallation.applicationName)", "\0use-hot-keys\u{1F}true"]
        if let message { lines.append("\0message\u{1F}\(RofiRow.messageMarkup(message))") }
        let headed = Set(actions.map { apps[$0.item.identity] }).count > 1
        if headed { lines.append("\0markup-rows\u{1F}true") }
        var app: String?
        for (_, item) in actions {
            if headed, let name = apps[item.identity], name != app {
                lines.append("<b>\(RofiRow.markup(name))</b>\0nonselectable\u{1F}true")
                app = name
            }
            let row = RofiRow(type: item.type, arguments: [:], userInfo: item.userInfo.isEmpty ? nil : item.userInfo)
            lines.append(row.line(text: DesktopNotification.name(of: item), icon: icons.themeName(for: item.icon), markup: headed))
        }
        Console.current.print(lines.joined(separator: "\n"))
    }

    /// What rofi shows after a row ran: nothing (it closes) when it is done, shown as a
    /// notification; the values offered as rows when one is missing; the rows again under the
    /// message when it failed.
    private func finish(_ outcome: Outcome, row: RofiRow?, session: HostSession,
                        actions: [(key: String, item: ShortcutItem)], apps: [ShortcutItem.Identity: String]) {
        if outcome.status == .invalidInput, let needs = outcome.needsValue, let offered = outcome.offered, !offered.isEmpty {
            var lines = ["\0prompt\u{1F}\(RofiRow.field(outcome.question ?? needs))"]
            let type = row?.type ?? outcome.type
            for value in offered {
                let next = RofiRow(type: type, arguments: (row?.arguments ?? [:]).merging([needs: value.id]) { $1 },
                                   userInfo: row?.userInfo)
                // Plain digits: a value is chosen by its row, and typed text here is no request.
                lines.append(next.line(text: value.title, icon: nil, plainDigits: true))
            }
            Console.current.print(lines.joined(separator: "\n"))
            return
        }
        // The rows under the outcome are the menu as the run left it ("Log Burpees" after a log
        // of burpees), not as it was before.
        func listAfterRun() {
            // As before the run when the menu cannot be read again, or no longer has the app
            // `--app` named.
            let after = (try? session.menu()).flatMap { menu -> ([(key: String, item: ShortcutItem)], [ShortcutItem.Identity: String])? in
                var wanted: [MenuApp]?
                if let name = appOptions.app {
                    guard let app = try? HostSession.app(named: name, in: menu) else { return nil }
                    wanted = [app]
                }
                return (DesktopInstallation.actions(of: menu, app: wanted), menu.appsOfVisibleItems.mapValues(\.name))
            }
            list(after?.0 ?? actions, apps: after?.1 ?? apps, message: outcome.message, icons: session.icons)
        }
        switch outcome.status {
        case .handled, .dryRun, .declined:
            // Not shown (no notification server): rofi stays open with the outcome as its message.
            if CommandNotification.show(outcome, session: session, parameters: [], userInfo: row?.userInfo, logger: global.logger) != nil {
                listAfterRun()
            }
        case .invalidInput, .unknownType, .pluginFailed:
            listAfterRun()
        }
    }
}

/// A rofi row's `info`: what it runs, carried between the list and the call that runs it.
struct RofiRow: Codable, Equatable {
    static let prefix = "standfit:"
    var type: String
    var arguments: [String: String]
    var userInfo: [String: JSONValue]?

    init(type: String, arguments: [String: String], userInfo: [String: JSONValue]?) {
        self.type = type
        self.arguments = arguments
        self.userInfo = userInfo
    }

    init?(info: String) {
        guard info.hasPrefix(RofiRow.prefix),
              let data = Data(base64URL: String(info.dropFirst(RofiRow.prefix.count))),
              let row = try? JSONDecoder().decode(RofiRow.self, from: data) else { return nil }
        self = row
    }

    /// This row as its info: the prefix and its JSON in base64url, so that no character of a
    /// type, a value or a userInfo (a newline, U+001F, DEL, a bidi mark) can break the row or
    /// change on its way through rofi.
    var info: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return RofiRow.prefix + ((try? encoder.encode(self)) ?? Data("{}".utf8)).base64URLEncoded
    }

    /// `text` with its icon and this row as its info, in rofi's row syntax (`text` escaped as
    /// Pango markup when the rows are markup; its digits as `shown` writes them unless
    /// `plainDigits`).
    func line(text: String, icon: String?, markup: Bool = false, plainDigits: Bool = false) -> String {
        var options = ["info\u{1F}\(info)"]
        if let icon { options.insert("icon\u{1F}\(RofiRow.field(icon))", at: 0) }
        let shown = plainDigits ? RofiRow.field(text) : RofiRow.shown(text)
        return (markup ? RofiRow.escaped(shown) : shown) + "\0" + options.joined(separator: "\u{1F}")
    }

    /// Runs the row.
    func run(in session: HostSession) -> Outcome {
        session.run(type, named: arguments.sorted { $0.key < $1.key }.map { NamedArgument(name: $0.key, value: $0.value) },
                    userInfo: userInfo, options: Dispatcher.RunOptions(showsData: false))
    }

    /// A row's text as rofi and dmenu show it: a field, its ASCII digits written as the
    /// mathematical monospace digits (U+1D7F6…), which look the same in the launchers' monospace
    /// fonts and which no digit a user types matches. Rationale: on Enter, rofi 1.7 and dmenu
    /// pass back the row that matched the typed words rather than the words (only rofi's
    /// Control+Return and dmenu's Shift+Return pass the words), and match them as substrings,
    /// so "log 5 squats" typed over "Log Squats — 20 reps" chose the row and logged 20; no
    /// option of theirs hides a row's text from the match. Screen readers read these digits by
    /// their names, and a font without them shows them from another.
    static func shown(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if ("0"..."9").contains(scalar), let digit = Unicode.Scalar(0x1D7F6 + scalar.value - 0x30) {
                shown.unicodeScalars.append(digit)
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return field(shown)
    }

    /// The one item among `items` whose name holds every word of `line`, as a launcher matches
    /// a row, but by whole numbers ("stretch 10" names "Stretch 10 min", "stretch 1" does not)
    /// and word beginnings; nil when none or several do.
    static func named(by line: String, among items: [ShortcutItem]) -> ShortcutItem? {
        func words(_ text: String) -> [String] {
            text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        }
        let typed = words(line)
        guard !typed.isEmpty else { return nil }
        let found = items.filter { item in
            let own = words(DesktopNotification.name(of: item))
            return typed.allSatisfy { word in
                word.allSatisfy(\.isNumber) ? own.contains(word) : own.contains { $0.hasPrefix(word) }
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// `text` as one field of rofi's protocol: control characters (a newline ends a row, NUL and
    /// U+001F separate its options) shown rather than acted on.
    static func field(_ text: String) -> String {
        VisibleText.line(text)
    }

    /// `text` for rofi's message bar, which reads Pango markup: a field with `&`, `<` and `>`
    /// written as entities.
    static func markup(_ text: String) -> String {
        escaped(field(text))
    }

    /// A message of several lines for rofi's message bar: each line as `markup` writes it, joined
    /// by Pango's character reference for a line break (a real one would end rofi's line).
    static func messageMarkup(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { markup(String($0)) }.joined(separator: "&#10;")
    }

    /// `field` with `&`, `<` and `>` written as entities.
    private static func escaped(_ field: String) -> String {
        field.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

extension Data {
    /// The base64url form (RFC 4648 §5) without padding.
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes the base64url form, padded or not.
    init?(base64URL text: String) {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        self.init(base64Encoded: standard)
    }
}
