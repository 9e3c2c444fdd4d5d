import ArgumentParser
import Foundation
import HostDispatch
import HostModel
import HostServer
import StandFitHost

/// `menu`: the long-press menu in the terminal. Arrows or digits choose, Enter runs the item
/// (with its userInfo, as a desktop click would), Esc or q leaves.
struct MenuCommand: ManifestCommand {
    /// The full-screen menu drives the terminal: it runs in the client's own process.
    static let traits: CommandTraits = [.runsCold]

    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "menu",
        abstract: Usage.words("help.menu"),
        discussion: Usage.words("help.menu.discussion")
    ) }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var manifestOptions: ManifestOptions
    @OptionGroup var isolation: IsolationOptions
    @OptionGroup var appOptions: AppOptions

    // Unconditional: "--limit -1" is a value to refuse in words, not an unknown option "-1".
    @Option(parsing: .unconditional, help: Usage.help("help.menu.limit"))
    var limit: Int?

    @Flag(help: Usage.help("help.menu.notify"))
    var notify = false

    func validate() throws {
        if let limit, limit < 1 {
            throw ValidationError(Usage.words("usage.menu.limit", ["limit": "\(limit)"]))
        }
        // Under --json the menu is drawn on stderr, so that stdout is the outcome's document alone.
        let request = HostRequest.current
        guard notify || (request.stdinIsTerminal && (global.json ? request.stderrIsTerminal : request.stdoutIsTerminal)) else {
            throw ValidationError(Usage.words(global.json ? "usage.menu.terminalJSON" : "usage.menu.terminal"))
        }
    }

    func run() throws {
        if notify {
            try CommandNotification.showPicker(app: appOptions.app, logger: global.logger)
            // One document per command: the picker is on the desktop now.
            if global.json {
                let language = LanguagePreference(explicit: manifestOptions.locale, environment: HostRequest.current.environment).language(fallback: nil)
                Output.printJSON(Left(status: "notified", message: HostText(language: language)("menu.notified")))
            }
            return
        }
        let session = try HostSession(options: manifestOptions.hostOptions(global, isolate: isolation.isolate), logger: global.logger)
        let entries = try session.menu(limit: limit, app: appOptions.app).visible
        let text = HostText(language: session.language)
        guard !entries.isEmpty else {
            let message = text("menu.empty", ["path": "\(session.paths.configDirectory.path)/Info.plist"])
            if global.json { Output.printJSON(Left(status: "empty", message: message)) } else { Output.printError(message) }
            return
        }
        let rows = entries.map { TerminalMenu.Row(glyph: IconCatalog.glyph(for: $0.item.icon),
                                                  title: VisibleText.line($0.item.title),
                                                  subtitle: $0.item.subtitle.map(VisibleText.line),
                                                  section: VisibleText.line($0.app.name)) }
        let menu = TerminalMenu(title: text("menu.title"), keys: text("menu.keys", ["count": "\(rows.count)"]), rows: rows,
                                output: global.json ? STDERR_FILENO : STDOUT_FILENO)
        guard let chosen = try menu.choose() else {
            if global.json { Output.printJSON(Left(status: "cancelled", message: text("menu.cancelled"))) }
            return
        }
        let item = entries[chosen].item
        // As `run` on a terminal: a missing value is asked for, a routine shows its steps, and
        // the outcome is printed (or under --json written) and exits as `run`'s does.
        let options = Dispatcher.RunOptions(conversation: TerminalConversation.make(noInput: false), showsData: global.json)
        try Output.finish(session.run(item.type, named: [], userInfo: item.userInfo, options: options), global, language: session.language)
    }

    /// `--json` when nothing ran: the menu was left without choosing (Esc, q: `cancelled`), had
    /// nothing to show (`empty`), or was shown as a notification (`--notify`: `notified`); exit
    /// status 0.
    struct Left: Encodable {
        var status: String
        var message: String
    }
}
