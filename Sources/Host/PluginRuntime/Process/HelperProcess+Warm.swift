import CHostSystem
import Foundation
import Glibc

/// A warm worker: a child used for one call after another, each for its own request.
extension HelperProcess {

    /// Whether the child wrote to its answer pipe what nobody asked for: bytes read and not
    /// taken, or bytes waiting in the pipe. A warm worker between calls has none.
    var hasUnreadAnswer: Bool {
        guard buffer.isEmpty else { return true }
        var poller = pollfd(fd: results, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&poller, 1, 0) > 0 && poller.revents & Int16(POLLIN) != 0
    }

    /// Whether the child has ended (it may not be reaped yet).
    var hasEnded: Bool { finished != nil || standfit_child_ended(pid) != 0 }

    /// A call to a child that stays (a warm worker) begins, for the request `link` names: its
    /// output is passed on, within `outputLimit`, as `owner`'s, and a cancel of that request
    /// kills it.
    func beginCall(owner: String, link: RequestLink) {
        // What it wrote since its last call is that call's request's (nowhere, if it ended).
        drainOutput()
        flushOutput()
        reportDroppedOutput()
        outputOwner = owner
        forwardedOutput = 0
        droppedOutput = 0
        self.link.release(pid)
        self.link = link
        link.enlist(pid)
    }

    /// The call answered and the child stays: what it wrote before answering is passed on
    /// (a worker flushes its output before it answers), and a cancel no longer concerns it.
    /// Returns whether it may serve another call: not when its request was cancelled before
    /// this (the cancel may have killed it after it answered; a worker killed so and kept
    /// would fail the next request's call with SIGKILL), nor when it has ended.
    func endCall() -> Bool {
        link.release(pid)
        // After the release: a cancel from here on no longer kills it, and one before it has
        // said so already (the flag is set under the same lock the kill is made in).
        let reusable = !link.isCancelled && !hasEnded
        guard output >= 0 else { return reusable }
        // What is in the pipe now, at most 4 × 16 chunks: a plugin thread that writes without
        // pause between calls cannot hold the request here.
        for _ in 0..<4 {
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard output >= 0, Glibc.poll(&poller, 1, 0) > 0 else { break }
            drainOutput()
        }
        flushOutput()
        reportDroppedOutput()
        return reusable
    }
}
