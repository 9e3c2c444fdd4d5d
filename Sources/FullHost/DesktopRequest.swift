import CHostSystem
import Foundation
import HostSentences
import HostDesktop
import Glibc
import HostDispatch
import HostModel
import HostSurfaces
import HostMenu
import HostServer
import Logging
import PluginRuntime
import StandFitHost
import WarmWire

/// A request the desktop makes over the bus, served as the warm server serves a client's: on a
/// thread of its own with its own facts (`RequestScope`), through the same session and
/// dispatcher as `run`. The desktop has no terminal and no environment of its own to send, so
/// the request has the desktop's environment as the server knows it (`DesktopBus.environment(startedByBus:)`,
/// its language the session's: `DesktopBus.currentRequestEnvironment`),
/// the home directory as its working directory, no input, and its output kept for the answer.
enum DesktopRequest {
    typealias Answer = DesktopBus.Answer

    private static let umask = ProcessFacts.currentUmask

    /// A failure's sentence in the language of the request being served (inside `serve`).
    static func sentence(_ error: HostError) -> String {
        error.message(in: HostRequest.current.language())
    }

    /// A request that failed: the error, and its sentence in the request's language.
    struct Failed: Error {
        var error: HostError
        var sentence: String
    }

    /// Runs `body` as a request of the desktop's on `bus` and answers what it returned, with what
    /// it wrote on its standard output and error; nil when no request could be made.
    static func serve<T>(on bus: DesktopBus, _ body: () -> T) -> (result: T, output: String, errors: String)? {
        let home = HostRequest.fromProcess().homeDirectory
        // The bus the request came on is the request's session bus, whatever the server's
        // environment says (a server started outside the session has none).
        let environment = bus.currentRequestEnvironment().filter { !$0.hasPrefix("DBUS_SESSION_BUS_ADDRESS=") }
            + ["DBUS_SESSION_BUS_ADDRESS=\(bus.address)"]
        let request = WarmRequest(arguments: [], environment: environment, workingDirectory: home, umask: umask)
        let output = standfit_memfd_create("standfit-desktop-out"), errors = standfit_memfd_create("standfit-desktop-err")
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        // The request's console owns (and closes) the descriptors it is given; these copies are
        // read when it is done.
        let kept = [output, errors].map { fcntl($0, F_DUPFD_CLOEXEC, 3) }
        defer { kept.forEach { if $0 >= 0 { close($0) } } }
        guard let server = bus.server, output >= 0, errors >= 0, input >= 0, kept.allSatisfy({ $0 >= 0 }),
              let scope = RequestScope(request, descriptors: [input, output, errors], server: server) else {
            [output, errors, input].forEach { if $0 >= 0 { close($0) } }
            return nil
        }
        let result = scope.run { () -> T in
            let result = DesktopRewrite.afterRequest(body)
            Console.current.flush()
            return result
        }
        scope.leave()
        return (result, contents(of: kept[0]), contents(of: kept[1]))
    }

    /// What a memory file holds, as text.
    private static func contents(of descriptor: Int32) -> String {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[..<count])
            offset += off_t(count)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The session of the installed desktop file: the options it was installed with, else the
    /// default ones. Within `serve`.
    static func installedSession(logger: Logger) throws(HostError) -> HostSession {
        var options = HostOptions(request: .current, link: .current, executable: Executable.url, warm: Executable.warm)
        options.desktop = .installedFile
        return try HostSession(options: DesktopInstallation.installedOptions(options), logger: logger)
    }

    /// Whether a typed reply's run answered nothing: no phrase understood it, or the action
    /// refused its values (the question it answered is asked again).
    static func answersNothing(_ answer: Answer) -> Bool {
        guard case .done(let summary) = answer else { return true }
        return [Outcome.Status.unknownType, .invalidInput].contains { summary.hasPrefix("\($0.rawValue):") }
    }

    /// What the desktop asks to run.
    enum Target: Sendable {
        /// A desktop action key of the installed file's menu (`ActivateAction`, a picker button)
        /// or, when no action has that key, a type as `run` resolves it.
        case key(String)
        /// A type with the userInfo of the item it came from (a phrase KRunner matched, a
        /// `run --notify` whose missing value was chosen).
        case type(String, userInfo: [String: JSONValue]?)
        /// A typed reply (KDE's inline reply), read as `say` reads it: to type's question, or
        /// (type nil) to the picker, as any sentence.
        case reply(String, type: String?)

        var name: String {
            switch self {
            case .key(let key): key
            case .type(let type, _): type
            case .reply(let text, let type): type ?? "'\(text)'"
            }
        }
    }

    /// `ActivateAction(key, parameters)` and what else runs an action from the desktop: runs
    /// `target` in the installed desktop file's session (the options it was installed with),
    /// with `parameters` as its `name=value` arguments. Never asks on a terminal: the outcome is
    /// shown as a notification, and a missing value is asked there, its offered values as
    /// buttons that run the action again with the one chosen.
    static func activateAction(_ target: Target, parameters: [NamedArgument], bus: DesktopBus) -> Answer {
        let logger = bus.logger
        let served = serve(on: bus) { () -> (Answer, DesktopNotification?, needs: String?, type: String) in
            do throws(HostError) {
                let session = try installedSession(logger: logger)
                var action: (key: String, item: ShortcutItem)?
                var registeredTitle: ShortcutItem?
                let type: String, userInfo: [String: JSONValue]?
                switch target {
                case .key(let key):
                    action = try DesktopInstallation.actions(session: session).first { $0.key == key }
                    // A key the menu no longer shows (View Streak once the streak ended, its
                    // entry still on the desktop until the file is rewritten) runs the
                    // registered action it was made from.
                    let registered = action != nil ? nil : session.plugins.registry.actions.first {
                        !$0.isNamespace && DesktopEntry.actionID(for: $0.type, taken: []) == key
                    }
                    registeredTitle = registered.map { ShortcutItem(type: $0.type, title: $0.title, icon: $0.icon) }
                    type = action?.item.type ?? registered?.type ?? key
                    userInfo = action.flatMap { $0.item.userInfo.isEmpty ? nil : $0.item.userInfo }
                case .type(let named, let info):
                    (type, userInfo) = (named, info)
                case .reply(_, let named):
                    (type, userInfo) = (named ?? "", nil)
                }
                let options = Dispatcher.RunOptions(showsData: false)
                var outcome: Outcome
                if case .reply(let text, let named) = target {
                    outcome = Sentences(session).say(text, answering: named, options: options)
                    if outcome.type.isEmpty { outcome.type = type }
                } else {
                    outcome = session.run(type, named: parameters, userInfo: userInfo, options: options)
                }
                if case .key(let key) = target, outcome.status == .unknownType, action == nil {
                    let message = HostText(language: session.language)("desktop.noAction", ["key": key, "name": DesktopInstallation.applicationID])
                    return (.refused(.unknownAction, message),
                            DesktopNotification.failure(title: DesktopInstallation.applicationName, message: message,
                                                        icon: DesktopEntry.fallbackIcon), nil, key)
                }
                let item = action?.item ?? registeredTitle ?? session.staticItems.first { $0.type == outcome.type }
                    ?? session.registeredItem(for: outcome.type)
                let buttons = outcome.needsValue != nil && !(outcome.offered ?? []).isEmpty ? bus.buttonLimit() : 0
                let title = item?.title ?? (outcome.type.isEmpty ? DesktopInstallation.applicationName : outcome.type)
                let notification = DesktopNotification.outcome(outcome, title: title, icon: item?.icon,
                                                               buttons: buttons, language: session.language, icons: session.icons)
                // A run that asks for a missing value with buttons asked a question: it answered.
                let asked = buttons > 0 && outcome.needsValue != nil ? "asked: " : ""
                return (.done("\(asked)\(outcome.status.rawValue): \(outcome.message)"), notification, outcome.needsValue, outcome.type)
            } catch {
                let notification = DesktopNotification.failure(title: DesktopInstallation.applicationName, message: sentence(error),
                                                               icon: DesktopEntry.fallbackIcon)
                return (.refused(.failed, error.message), notification, nil, target.name)
            }
        }
        guard let served else {
            return .refused(.failed, "The server could not make a request for '\(target.name)' (out of descriptors or threads); try again, or run the action with 'standfit-host run' ('standfit-host list' shows the types).")
        }
        if !served.errors.isEmpty { logger.debug("'\(target.name)' wrote on stderr: \(served.errors)") }
        let (answer, notification, needs, type) = served.result
        if let notification {
            @Sendable func ask() {
                bus.show(notification, chosen: { chosen in
                    // A button carries the id of the value chosen for the missing parameter.
                    guard let needs else { return }
                    _ = activateAction(target, parameters: parameters + [NamedArgument(name: needs, value: chosen)], bus: bus)
                }, replied: { text in
                    // A reply that answers nothing (not understood, a value refused) is said, and
                    // the question asked again, rather than closed.
                    if Self.answersNothing(activateAction(.reply(text, type: type), parameters: [], bus: bus)) { ask() }
                })
            }
            ask()
        }
        return answer
    }
}

extension DesktopRequest {
    /// `Activate`: the quick-actions picker, as a notification whose buttons run the first
    /// actions of the installed desktop file's menu (of `app`'s menu alone, when its platform
    /// data names one: an app's own desktop entry).
    ///
    /// A picker with more actions than buttons pages: its last button shows the next page.
    static func activate(app: String? = nil, page: Int = 0, bus: DesktopBus) -> Answer {
        let logger = bus.logger
        let served = serve(on: bus) { () -> Result<DesktopNotification, Failed> in
            do throws(HostError) {
                let session = try installedSession(logger: logger)
                let menu = try session.menu()
                let apps = try app.map { name throws(HostError) in [try HostSession.app(named: name, in: menu)] }
                let actions = DesktopInstallation.actions(of: menu, app: apps)
                return .success(.picker(actions: actions, applicationName: apps?.first?.name ?? DesktopInstallation.applicationName,
                                        // The host's own menu shows the app's icon where the host's icons are installed.
                                        icon: apps == nil && session.icons.installed ? nil : actions.first?.item.icon,
                                        language: session.language, buttons: bus.buttonLimit(),
                                        page: page, example: Sentences(session).example(of: actions.map(\.item.type)),
                                        icons: session.icons))
            } catch {
                return .failure(Failed(error: error, sentence: sentence(error)))
            }
        }
        switch served?.result {
        case .success(let picker):
            bus.show(picker, chosen: { key in
                if key.hasPrefix(DesktopNotification.morePrefix), let next = Int(key.dropFirst(DesktopNotification.morePrefix.count)) {
                    _ = activate(app: app, page: next, bus: bus)
                } else {
                    _ = activateAction(.key(key), parameters: [], bus: bus)
                }
            }, replied: { text in
                // A sentence typed instead of a choice runs as `say` runs it; one that answers
                // nothing is said, and the picker shown again.
                if answersNothing(activateAction(.reply(text, type: nil), parameters: [], bus: bus)) {
                    _ = activate(app: app, page: page, bus: bus)
                }
            })
            return .done("the picker, with \(picker.buttons.count) button\(picker.buttons.count == 1 ? "" : "s")")
        case .failure(let failed):
            bus.show(.failure(title: DesktopInstallation.applicationName, message: failed.sentence, icon: DesktopEntry.fallbackIcon))
            return .refused(.failed, failed.error.message)
        case nil:
            return .refused(.failed, "The server could not make a request for the picker (out of descriptors or threads); try again.")
        }
    }
}
