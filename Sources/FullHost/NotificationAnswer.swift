import Foundation
import HostServer
import HostSurfaces
import Synchronization

/// A question a command asks in a notification on a connection of its own, and waits for:
/// the key of the button pressed, or nil when it was closed without one. A question left
/// unanswered past the wait is taken from the screen, since nobody is left to act on it.
final class NotificationAnswer: Sendable {
    private let answer = Mutex<String??>(nil)
    private let done = DispatchSemaphore(value: 0)
    private let bus: DesktopBus
    private let id = Mutex<UInt32?>(nil)

    private init(bus: DesktopBus) {
        self.bus = bus
    }

    /// Shows `notification` on `bus`, its buttons answering it; nil when no notification
    /// server showed it.
    static func ask(_ notification: DesktopNotification, on bus: DesktopBus) -> NotificationAnswer? {
        let asked = NotificationAnswer(bus: bus)
        guard let id = bus.show(notification, chosen: { asked.press($0) }, closed: { asked.press(nil) }) else { return nil }
        asked.id.withLock { $0 = id }
        return asked
    }

    private func press(_ key: String?) {
        let first = answer.withLock { answer in
            guard answer == nil else { return false }
            answer = .some(key)
            return true
        }
        if first { done.signal() }
    }

    /// The answer; nil when none came within `seconds` (the notification is then closed).
    func wait(seconds: Int) -> String?? {
        guard done.wait(timeout: .now() + .seconds(seconds)) == .success else {
            if let id = id.withLock({ $0 }) { bus.close(notification: id) }
            return nil
        }
        return answer.withLock { $0 }
    }
}
