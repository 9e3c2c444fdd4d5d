import ArgumentParser
import Foundation
import HostDesktop
import HostModel
import HostServer
import HostSurfaces
import Logging
import StandFitHost

/// `run --notify` and `menu --notify`: what the desktop file's Exec lines run where a launcher
/// does not honour D-Bus activation, with no terminal to print to.
enum CommandNotification {
    /// Shows a run's outcome as a notification, on the session bus the request names, as
    /// `ActivateAction` does. In the warm server, when that is the server's own bus, it goes
    /// through the server's connection, and a missing value's buttons run the action again with
    /// the value pressed; otherwise (run cold, or a server on another bus or none) the
    /// command's own connection shows it without buttons (the values are named in the text),
    /// since the command ends at once.
    ///
    /// Answers why nothing was shown (a sentence part), or nil when it was.
    static func show(_ outcome: Outcome, session: HostSession, parameters: [NamedArgument],
                     userInfo: [String: JSONValue]?, logger: Logger) -> HostText.Phrase? {
        let items = ((try? session.menu().visible.map(\.item)) ?? []) + session.staticItems
        let item = items.first { $0.type == outcome.type && $0.userInfo == (userInfo ?? [:]) }
            ?? items.first { $0.type == outcome.type } ?? session.registeredItem(for: outcome.type)
        let asks = outcome.needsValue != nil && !(outcome.offered ?? []).isEmpty
        let address = DesktopBus.sessionAddress(in: session.request.environment)
        if let bus = WarmServer.current?.bus, let address, DesktopBus.isSameBus(bus.address, address) {
            let notification = DesktopNotification.outcome(outcome, title: item?.title ?? outcome.type, icon: item?.icon,
                                                           buttons: asks ? bus.buttonLimit() : 0, language: session.language,
                                                           icons: session.icons)
            let needs = outcome.needsValue, type = outcome.type
            let shown = bus.present(notification) { chosen in
                guard let needs else { return }
                _ = DesktopRequest.activateAction(.type(type, userInfo: userInfo),
                                                  parameters: parameters + [NamedArgument(name: needs, value: chosen)], bus: bus)
            }
            if case .failure(let notShown) = shown { return notShown.reason }
            return nil
        }
        guard let address else {
            return HostText.Phrase("bus.none")
        }
        guard let bus = DesktopBus.start(logger: logger, address: address) else {
            return HostText.Phrase("bus.notJoined", ["address": address])
        }
        defer { bus.stop() }
        let shown = bus.present(DesktopNotification.outcome(outcome, title: item?.title ?? outcome.type, icon: item?.icon, buttons: 0,
                                                            language: session.language, icons: session.icons))
        if case .failure(let notShown) = shown { return notShown.reason }
        return nil
    }

    /// Prints a `--notify` run's outcome and exits with its status; when its notification was
    /// not shown (`notShown` says why), also says so on stderr, and a run that succeeded exits
    /// 69, so that neither a script nor systemd takes an outcome nobody saw for shown.
    static func finish(_ outcome: Outcome, notShown: HostText.Phrase?, _ global: GlobalOptions, language: String) throws {
        guard let notShown else { return try Output.finish(outcome, global, language: language) }
        // A run that failed did not run; one that ran says so.
        let ran = outcome.status == .handled || outcome.status == .dryRun || outcome.status == .declined
        let sentence = HostText(language: language)(HostText.Phrase(ran ? "run.notShown" : "run.notShownFailed", parts: ["why": notShown]))
        do {
            try Output.finish(outcome, global, language: language)
        } catch {
            Output.printError(sentence)
            throw error
        }
        Output.printError(sentence)
        throw ExitCode(Output.Status.unavailable)
    }

    /// A run's outcome as the notification a press from the desktop shows it with
    /// (`DesktopRequest.activateAction`): titled by the action's static item, else its
    /// registered one, without buttons.
    static func pressed(_ outcome: Outcome, session: HostSession) -> DesktopNotification {
        let item = session.staticItems.first { $0.type == outcome.type } ?? session.registeredItem(for: outcome.type)
        let title = item?.title ?? (outcome.type.isEmpty ? DesktopInstallation.applicationName : outcome.type)
        return DesktopNotification.outcome(outcome, title: title, icon: item?.icon,
                                           buttons: 0, language: session.language, icons: session.icons)
    }

    /// Asks the application on the session bus to show its picker (`Activate`), of `app`'s
    /// quick actions alone when given, starting the server through the bus when none runs.
    static func showPicker(app: String? = nil, logger: Logger) throws(HostError) {
        guard let bus = DesktopBus.start(logger: logger, address: DesktopBus.sessionAddress(in: HostRequest.current.environment)) else {
            throw HostError(.desktopUnavailable, key: "error.notify.noBus")
        }
        defer { bus.stop() }
        if let failure = bus.activateApplication(app: app) {
            throw HostError(.desktopUnavailable, key: "error.notify.unreachable", ["name": DesktopInstallation.applicationID, "why": failure])
        }
    }
}
