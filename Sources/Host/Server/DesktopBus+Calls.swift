import CDesktopBus
import Foundation
import HostModel
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
        try? present(notification, chosen: chosen, replied: replied, closed: closed).get()
    }

    /// Why a notification was not shown: a sentence part ("the notification server did not
    /// answer within 5 s").
    package struct NotShown: Error, Sendable {
        /// Why, said in the request's language where it is shown.
        package var reason: HostText.Phrase
    }

    /// `show`, saying why when the notification was not shown.
    package func present(_ notification: DesktopNotification, chosen: (@Sendable (String) -> Void)? = nil,
                         replied: (@Sendable (String) -> Void)? = nil, closed: (@Sendable () -> Void)? = nil) -> Result<UInt32, NotShown> {
        let connection = stopLock.withLock { self.connection }
        let notification = DesktopBus.bounded(notification)
        let line = "\(notification.summary): \(notification.body)"
            + (notification.buttons.isEmpty ? "" : " [\(notification.buttons.map(\.label).joined(separator: " | "))]")
        guard let connection else {
            logger.info("Not shown (off the bus): \(line)")
            return .failure(NotShown(reason: HostText.Phrase("bus.closed")))
        }
        let capabilities = notificationCapabilities()
        // The body is plain text: escaped where the server would read it as markup.
        let body = capabilities.contains("body-markup") ? DesktopNotification.markupEscaped(notification.body) : notification.body
        let late = notification.answered.map { DesktopNotification(summary: notification.summary, body: $0, icon: notification.icon) }
        let reply = replied != nil && capabilities.contains("inline-reply") ? notification.reply : nil
        // The keys the server sees are the host's own ("1", "2", …), never what a plugin named
        // (a value's id could be "default", the key of a click on the bubble itself, or anything
        // else): a press is mapped back here, and a key the host did not give runs nothing.
        let keys = notification.buttons.map(\.key)
        var buttons = notification.buttons.enumerated().map { ("\($0.offset + 1)", $0.element.label) }
        if reply != nil { buttons.append((DesktopNotification.replyKey, notification.replyLabel)) }
        var pressed: (@Sendable (String) -> Void)?
        if let chosen {
            pressed = { @Sendable key in
                guard let index = Int(key), keys.indices.contains(index - 1) else { return }
                chosen(keys[index - 1])
            }
        }
        // A question stays until it is answered: it never expires (timeout 0). A server that
        // keeps notifications (`persistence`: GNOME's message list, Plasma's history) is asked
        // to keep it (`resident`), and there a click on it rather than on a button (the server's
        // "default" action: GNOME's message list shows no buttons) asks it again. Elsewhere
        // (dunst, xfce4-notifyd) a click keeps its own meaning, and closes the question.
        let asks = (chosen != nil && !notification.buttons.isEmpty) || reply != nil
        let resident = asks && capabilities.contains("persistence")
        if resident { buttons.append((Self.defaultKey, notification.summary)) }
        let sent = Sent(summary: notification.summary, body: body, icon: notification.icon, actions: buttons.flatMap { [$0.0, $0.1] },
                        urgency: notification.urgency.rawValue, asks: asks, resident: resident, reply: reply)
        let unanswered = asks ? notification.unanswered.map { DesktopNotification(summary: notification.summary, body: $0, icon: notification.icon) } : nil
        let (token, waiter) = beginCall(chosen: notification.buttons.isEmpty ? nil : pressed, answered: late,
                                        replied: reply == nil ? nil : replied, closed: closed,
                                        question: resident ? sent : nil, unanswered: unanswered)
        // A failure takes the place of the failure before it, while that one is still shown.
        let replacing = notification.isFailure ? calls.withLock { lastFailure } ?? 0 : 0
        send(sent, token: token, replacing: replacing, on: connection)
        guard wait(waiter, token: token, seconds: 5) else {
            logger.info("Not shown (the notification server did not answer): \(line)")
            return .failure(NotShown(reason: HostText.Phrase("bus.notifyTimeout")))
        }
        if let failure = waiter.failure {
            logger.info("Not shown (\(failure)): \(line)")
            return .failure(NotShown(reason: HostText.Phrase("bus.notifyRefused", ["why": failure])))
        }
        logger.info("Notification \(waiter.id): \(line)")
        if notification.isFailure { calls.withLock { lastFailure = waiter.id } }
        return .success(waiter.id)
    }

    /// The key of a click on a notification itself rather than on one of its buttons.
    static let defaultKey = "default"

    /// A notification as it goes to the server, kept for a question, which is sent again in
    /// its own place when it is clicked rather than answered (`asked` times so far).
    struct Sent: Sendable {
        var summary: String
        var body: String
        var icon: String
        /// Keys and labels, flattened.
        var actions: [String]
        var urgency: UInt8
        var asks: Bool
        var resident: Bool
        var reply: String?
        var asked = 1
    }

    /// The most times a question is asked again after clicks on it.
    static let reaskLimit = 20

    /// Sends `sent` as a Notify call answered to `token`, in notification `replacing`'s place
    /// when it is not 0.
    func send(_ sent: Sent, token: UInt64, replacing: UInt32, on connection: OpaquePointer) {
        withCStrings(sent.actions) { actions in
            standfit_bus_notify(connection, token, DesktopInstallation.applicationName, replacing, sent.icon,
                                sent.summary, sent.body, actions, sent.actions.count / 2, sent.urgency,
                                DesktopInstallation.applicationID, sent.asks ? 0 : -1, sent.resident ? 1 : 0, sent.reply)
        }
    }

    /// The most of a notification shown: a summary is one line, a body a few (GNOME Shell
    /// shows four or five lines, dunst and Plasma about as many), a button's label a few
    /// words. A plugin's 300 KB message would only flood the server and the log.
    static let summaryLimit = 120
    static let bodyLimit = 1000
    static let labelLimit = 48

    /// `notification` within the limits, each part cut with an ellipsis; a label on one line.
    ///
    /// Labels are not markup-escaped: the Desktop Notifications Specification gives markup to
    /// the body alone (and only to a server that advertises `body-markup`, where the body is
    /// escaped); action labels are plain text to every server (GNOME Shell, Plasma,
    /// xfce4-notifyd, dunst), so "&lt;" would be shown as those four characters. What a label
    /// cannot carry, a line break or a control character, is taken out instead.
    static func bounded(_ notification: DesktopNotification) -> DesktopNotification {
        // By scalars, not characters: one character may carry any number of combining marks.
        func cut(_ text: String, _ limit: Int) -> String {
            text.unicodeScalars.count <= limit ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit - 1))) + "…"
        }
        var bounded = notification
        bounded.summary = cut(VisibleText.line(notification.summary), summaryLimit)
        bounded.body = cut(notification.body, bodyLimit)
        bounded.buttons = notification.buttons.map { DesktopNotification.Button(key: $0.key, label: cut(VisibleText.line($0.label), labelLimit)) }
        bounded.answered = notification.answered.map { cut($0, bodyLimit) }
        bounded.reply = notification.reply.map { cut(VisibleText.line($0), summaryLimit) }
        return bounded
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
