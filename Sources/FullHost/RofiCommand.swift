import ArgumentParser
import Foundation
import HostDesktop
import HostDispatch
import HostMenu
import HostModel
import HostSentences
import HostServer
import HostSurfaces
import StandFitHost

/// `rofi`: the quick actions for tiling-window-manager users, in rofi's script mode and as plain
/// lines for dmenu (and `rofi -dmenu`, wofi, fzf).
struct RofiCommand: ManifestCommand {
    static let configuration = CommandConfiguration(
        commandName: "rofi",
        abstract: "The quick actions for rofi (script mode) and dmenu.",
        discussion: """
            rofi: rofi -show standfit -modi "standfit:standfit-host rofi" -show-icons. rofi runs this command \
            for the list, and again with the row chosen (ROFI_RETV, ROFI_INFO); a sentence typed \
            instead ("log 20 squats") runs as 'say' runs it. A missing value is asked as a second \
            list of the values offered. The outcome is shown as a notification; a failure stays in \
            rofi as its message. dmenu: standfit-host rofi --dmenu | dmenu -p StandFit | \
            standfit-host rofi --chosen --notify.
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var appOptions: AppOptions

    @Flag(help: "Print the quick actions' names, one per line, for dmenu.")
    var dmenu = false

    @Flag(help: "Read the line chosen in dmenu from standard input (a name --dmenu printed, or a sentence) and run it.")
    var chosen = false

    @Flag(help: "With --chosen, also show the outcome as a desktop notification.")
    var notify = false

    /// The text of the row rofi's script mode passes back (its ROFI_INFO says which it was).
    @Argument(help: .hidden)
    var selection: [String] = []

    func validate() throws {
        if dmenu && chosen {
            throw ValidationError("Give either --dmenu (print the names) or --chosen (run the one read from standard input), not both.")
        }
        if global.json {
            throw ValidationError("rofi speaks rofi's and dmenu's line protocols and has no --json; use 'standfit-host list --json'.")
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
            for action in actions { Output.show(DesktopNotification.name(of: action.item)) }
            return
        }
        if chosen {
            // Nothing chosen (dmenu left with Esc): nothing runs.
            let line = (LineInput.readLine() ?? "").trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { return }
            // A name as --dmenu printed it, else a sentence.
            let action = actions.first { VisibleText.line(DesktopNotification.name(of: $0.item)) == line }
            let userInfo = action.flatMap { $0.item.userInfo.isEmpty ? nil : $0.item.userInfo }
            let options = Dispatcher.RunOptions(showsData: global.json)
            let outcome = action.map { session.run($0.item.type, named: [], userInfo: userInfo, options: options) }
                ?? Sentences(session).say(line, options: options)
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
            // A sentence typed instead of a row.
            let sentence = selection.joined(separator: " ")
            finish(Sentences(session).say(sentence, options: Dispatcher.RunOptions(showsData: false)), row: nil, session: session,
                   actions: actions, apps: apps)
        default:
            list(actions, apps: apps, message: nil, icons: session.icons)
        }
    }

    /// The quick actions as rofi rows, with `message` above them; when they are several apps',
    /// each app's rows under a row naming it in bold that cannot be chosen (rofi's
    /// `nonselectable`; the rows are Pango markup then, every title escaped).
    private func list(_ actions: [(key: String, item: ShortcutItem)], apps: [ShortcutItem.Identity: String], message: String?,
                      icons: OwnIcons) {
        var lines = ["\0prompt\u{1F}\(DesktopInstallation.applicationName)", "\0use-hot-keys\u{1F}true"]
        if let message { lines.append("\0message\u{1F}\(RofiRow.markup(message))") }
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
                lines.append(next.line(text: value.title, icon: nil))
            }
            Console.current.print(lines.joined(separator: "\n"))
            return
        }
        switch outcome.status {
        case .handled, .dryRun, .declined:
            // Not shown (no notification server): rofi stays open with the outcome as its message.
            if CommandNotification.show(outcome, session: session, parameters: [], userInfo: row?.userInfo, logger: global.logger) != nil {
                list(actions, apps: apps, message: outcome.message, icons: session.icons)
            }
        case .invalidInput, .unknownType, .pluginFailed:
            list(actions, apps: apps, message: outcome.message, icons: session.icons)
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
    /// Pango markup when the rows are markup).
    func line(text: String, icon: String?, markup: Bool = false) -> String {
        var options = ["info\u{1F}\(info)"]
        if let icon { options.insert("icon\u{1F}\(RofiRow.field(icon))", at: 0) }
        return (markup ? RofiRow.markup(text) : RofiRow.field(text)) + "\0" + options.joined(separator: "\u{1F}")
    }

    /// Runs the row.
    func run(in session: HostSession) -> Outcome {
        session.run(type, named: arguments.sorted { $0.key < $1.key }.map { NamedArgument(name: $0.key, value: $0.value) },
                    userInfo: userInfo, options: Dispatcher.RunOptions(showsData: false))
    }

    /// `text` as one field of rofi's protocol: control characters (a newline ends a row, NUL and
    /// U+001F separate its options) shown rather than acted on.
    static func field(_ text: String) -> String {
        VisibleText.line(text)
    }

    /// `text` for rofi's message bar, which reads Pango markup: a field with `&`, `<` and `>`
    /// written as entities.
    static func markup(_ text: String) -> String {
        field(text).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
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
