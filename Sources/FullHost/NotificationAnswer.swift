import Foundation
import Synchronization

/// The answer to a notification, waited for: the key of the button pressed, or nil when it
/// was closed without one.
final class NotificationAnswer: Sendable {
    private let answer = Mutex<String??>(nil)
    private let done = DispatchSemaphore(value: 0)

    func press(_ key: String?) {
        let first = answer.withLock { answer in
            guard answer == nil else { return false }
            answer = .some(key)
            return true
        }
        if first { done.signal() }
    }

    /// The answer; nil when none came within `seconds`.
    func wait(seconds: Int) -> String?? {
        guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return answer.withLock { $0 }
    }
}
