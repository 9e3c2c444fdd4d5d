import CHostSystem
import Glibc
import HostModel
import Synchronization

/// The request the helpers started on this thread work for: where their output goes (the
/// request's stderr), the children at work for it, and whether it was cancelled.
///
/// A cold process has one request, its own: stderr, never cancelled (a signal ends the whole
/// process). The warm server runs requests side by side, each on its own thread, and binds a
/// link of its own to each (`RequestLink.$current.withValue`), so that cancelling one request
/// (Ctrl-C in its client) kills that request's helpers and no other's.
package final class RequestLink: Sendable {
    /// The link of the request this thread serves.
    @TaskLocal package static var current = RequestLink(errorDescriptor: STDERR_FILENO)

    /// Where helpers' output and the host's notes about it go.
    package let errorDescriptor: Int32
    /// The children at work for the request: started and not yet reaped (so their pids, and
    /// their groups', are still theirs), less the warm workers between calls.
    private let live = Mutex<Set<pid_t>>([])
    private let cancelled = Atomic<Bool>(false)
    /// False once the request ended: its descriptors are closed then, and their numbers may
    /// already be another request's, so nothing is written for it any more (`write`).
    private let open = Mutex<Bool>(true)
    /// Readable once the request is cancelled, for a wait that must end then (a prompt).
    package let cancelSignal: Int32
    private let cancelWrite: Int32

    package init(errorDescriptor: Int32) {
        self.errorDescriptor = errorDescriptor
        var ends: [Int32] = [-1, -1]
        _ = standfit_pipe_cloexec(&ends)
        (cancelSignal, cancelWrite) = (ends[0], ends[1])
        parent = nil
    }

    /// The same request, its helpers' output going to `errorDescriptor` instead.
    private init(errorDescriptor: Int32, sharing link: RequestLink) {
        self.errorDescriptor = errorDescriptor
        (cancelSignal, cancelWrite) = (-1, -1)
        parent = link
    }

    /// The link this one redirects, whose children and cancel it shares.
    private let parent: RequestLink?

    /// This request with helpers' output sent to `descriptor` (e.g. /dev/null while shell
    /// completions are worked out); cancelling either cancels both.
    package func redirected(to descriptor: Int32) -> RequestLink {
        RequestLink(errorDescriptor: descriptor, sharing: parent ?? self)
    }

    deinit {
        if parent == nil {
            close(cancelSignal)
            close(cancelWrite)
        }
    }

    /// Writes `text` to the request's stderr, unless the request has ended: what a warm worker
    /// still had to say when it was stopped after its request goes nowhere.
    package func write(_ text: String) {
        (parent ?? self).write(text, to: errorDescriptor)
    }

    /// Writes `text` to `descriptor` while the request is open, holding it open meanwhile.
    private func write(_ text: String, to descriptor: Int32) {
        open.withLock { isOpen in
            if isOpen { RawOutput.write(descriptor, text) }
        }
    }

    /// The request ended: from here on `write` writes nothing. Call before its descriptors close.
    package func end() {
        if let parent { return parent.end() }
        open.withLock { $0 = false }
    }

    /// Whether the request was cancelled: a helper that ends then was killed by the host, so
    /// its end says nothing about its plugin.
    package var isCancelled: Bool {
        if let parent { return parent.isCancelled }
        return cancelled.load(ordering: .acquiring)
    }

    /// The descriptor that turns readable when the request is cancelled.
    package var cancelDescriptor: Int32 { parent?.cancelDescriptor ?? cancelSignal }

    /// Counts `pid` among the children at work for the request; one that starts (or is given a
    /// call) after the request was cancelled is killed at once, as the cancel would have killed
    /// it had it come a moment later.
    package func enlist(_ pid: pid_t) {
        if let parent { return parent.enlist(pid) }
        live.withLock { pids in
            pids.insert(pid)
            if cancelled.load(ordering: .acquiring) {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
            }
        }
    }

    /// `pid` was reaped, or is a warm worker whose call ended.
    package func release(_ pid: pid_t) {
        if let parent { return parent.release(pid) }
        live.withLock { _ = $0.remove(pid) }
    }

    /// Cancels the request: kills every helper's process group at work for it, and wakes what
    /// waits on `cancelDescriptor`. Each helper's owner then sees it end by SIGKILL and, as
    /// `isCancelled` says, holds that against no plugin.
    package func cancel() {
        if let parent { return parent.cancel() }
        live.withLock { pids in
            cancelled.store(true, ordering: .releasing)
            for pid in pids {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
            }
        }
        var byte: UInt8 = 1
        _ = Glibc.write(cancelWrite, &byte, 1)
    }
}
