import CDesktopBus
import Foundation
import HostDesktop
import HostSurfaces

/// What the server asks of the desktop over its connection: notifications (with buttons and
/// KDE's inline reply), the notification server's capabilities, Activate on the application,
/// a string call (Klipper), and the session's language for a desktop request.
extension DesktopBus {
    /// How a call made with `call` ended.
    enum CallEnd {
        /// Answered: the answer's values, or why the call failed.
        case answered(Waiter)
        case offTheBus
        case unanswered
    }

    /// Makes one asynchronous call (`send` with the connection and the call's token) and waits
    /// at most `seconds` for its answer.
    func call(seconds: Double, _ send: (OpaquePointer, UInt64) -> Void) -> CallEnd {
        guard let connection = stopLock.withLock({ self.connection }) else { return .offTheBus }
        let (token, waiter) = beginCall()
        send(connection, token)
        return wait(waiter, token: token, seconds: seconds) ? .answered(waiter) : .unanswered
    }

    /// What the notification server can do (`GetCapabilities`), empty without one.
    func notificationCapabilities() -> Set<String> {
        guard case .answered(let waiter) = call(seconds: 2, { standfit_bus_capabilities($0, $1) }), waiter.failure == nil
        else { return [] }
        return Set(waiter.values)
    }

    /// The variables that say the language, which a desktop request takes from the session.
    static let languageVariables: Set<String> = ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"]

    /// The environment a desktop request runs with now: `requestEnvironment`, its language that
    /// of the desktop session where the server did not come from the bus. The session's is the
    /// user's service manager's environment (what `dbus-update-activation-environment --systemd`
    /// and environment.d set), asked at each request so that a change is followed; without a
    /// service manager on the bus, or one that names no language, the server's own.
    package func currentRequestEnvironment() -> [String] {
        guard !startedByBus, case .answered(let waiter) = call(seconds: 2, { standfit_bus_session_environment($0, $1) }),
              waiter.failure == nil else { return requestEnvironment }
        let name = { (variable: String) in String(variable.prefix { $0 != "=" }) }
        let language = waiter.values.filter { Self.languageVariables.contains(name($0)) }
        guard !language.isEmpty else { return requestEnvironment }
        return requestEnvironment.filter { !Self.languageVariables.contains(name($0)) } + language
    }

    /// Asks the application (`org.freedesktop.Application.Activate` on its id, which the bus
    /// starts when no server owns it) to show its picker, of `app` alone when given: nil when
    /// it did, else why not.
    package func activateApplication(app: String? = nil) -> String? {
        // Time for the bus to start a server first.
        switch call(seconds: 30, { standfit_bus_activate($0, $1, DesktopInstallation.applicationID, DesktopInstallation.objectPath, app) }) {
        case .answered(let waiter): return waiter.failure
        case .offTheBus: return "not on the session bus"
        case .unanswered: return "the application did not answer"
        }
    }

    /// How many buttons a notification can have here: none where the server shows no actions.
    package func buttonLimit() -> Int {
        notificationCapabilities().contains("actions") ? DesktopNotification.buttonLimit : 0
    }

    /// Shows `notification`; a pressed button runs `chosen` with its key, on a thread of its
    /// own, and a typed reply (where the server takes one, and the notification asks for one)
    /// runs `replied` with the text; `closed` runs (on the bus thread: briefly) when it is
    /// closed with neither. Without a notification server it is logged instead, and nothing
    /// fails. Answers the notification's id, nil when it was not shown.
    @discardableResult
    package func show(_ notification: DesktopNotification, chosen: (@Sendable (String) -> Void)? = nil,
                      replied: (@Sendable (String) -> Void)? = nil, closed: (@Sendable () -> Void)? = nil) -> UInt32? {
        let connection = stopLock.withLock { self.connection }
        let line = "\(notification.summary): \(notification.body)"
            + (notification.buttons.isEmpty ? "" : " [\(notification.buttons.map(\.label).joined(separator: " | "))]")
        guard let connection else {
            logger.info("Not shown (off the bus): \(line)")
            return nil
        }
        let capabilities = notificationCapabilities()
        // The body is plain text: escaped where the server would read it as markup.
        let body = capabilities.contains("body-markup") ? DesktopNotification.markupEscaped(notification.body) : notification.body
        let late = notification.answered.map { DesktopNotification(summary: notification.summary, body: $0, icon: notification.icon) }
        let reply = replied != nil && capabilities.contains("inline-reply") ? notification.reply : nil
        var buttons = notification.buttons.map { ($0.key, $0.label) }
        if reply != nil { buttons.append((DesktopNotification.replyKey, notification.replyLabel)) }
        let (token, waiter) = beginCall(chosen: notification.buttons.isEmpty ? nil : chosen, answered: late,
                                        replied: reply == nil ? nil : replied, closed: closed)
        withCStrings(buttons.flatMap { [$0.0, $0.1] }) { actions in
            standfit_bus_notify(connection, token, DesktopInstallation.applicationName, 0, notification.icon,
                                notification.summary, body, actions, buttons.count,
                                notification.urgency.rawValue, DesktopInstallation.applicationID, -1, reply)
        }
        guard wait(waiter, token: token, seconds: 5) else {
            logger.info("Not shown (the notification server did not answer): \(line)")
            return nil
        }
        if let failure = waiter.failure {
            logger.info("Not shown (\(failure)): \(line)")
            return nil
        }
        logger.info("Notification \(waiter.id): \(line)")
        return waiter.id
    }

    /// Takes notification `id` from the screen (`CloseNotification`); its buttons do nothing
    /// from now on.
    package func close(notification id: UInt32) {
        _ = calls.withLock { pressed.removeValue(forKey: id) }
        guard let connection = stopLock.withLock({ self.connection }) else { return }
        standfit_bus_close_notification(connection, id)
    }

    /// Calls `method` of `interface` on `destination` at `path` with one string, letting the bus
    /// start it: nil when it answered, else why not.
    package func callWithString(destination: String, path: String, interface: String, method: String, argument: String) -> String? {
        switch call(seconds: 10, { standfit_bus_call_with_string($0, $1, destination, path, interface, method, argument) }) {
        case .answered(let waiter): return waiter.failure
        case .offTheBus: return "not on the session bus"
        case .unanswered: return "\(destination) did not answer"
        }
    }
}
