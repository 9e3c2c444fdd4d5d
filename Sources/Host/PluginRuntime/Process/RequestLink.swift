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
    /// The process's own request: stderr, never cancelled (a cold process's, and what a warm
    /// worker is started for before its first call).
    package static let process = RequestLink(errorDescriptor: STDERR_FILENO)

    /// The link of the request this thread serves, read once where the request's options are
    /// made (`HostOptions.link`) and by a prompt (`LineInput`); everything below gets it from
    /// the options.
    @TaskLocal package static var current = process

    /// Where helpers' output and the host's notes about it go.
    package let errorDescriptor: Int32
    /// What every link of one request shares (`redirected` makes another).
    private let request: Request

    /// One request's children, cancel and whether it is still open.
    private final class Request: Sendable {
        /// The children at work for the request: started and not yet reaped (so their pids,
        /// and their groups', are still theirs), less the warm workers between calls.
        let live = Mutex<Set<pid_t>>([])
        let cancelled = Atomic<Bool>(false)
        /// False once the request ended: its descriptors are closed then, and their numbers
        /// may already be another request's, so nothing is written for it any more (`write`).
        let open = Mutex<Bool>(true)
        /// Readable once the request is cancelled, for a wait that must end then (a prompt).
        let cancelSignal: Int32
        let cancelWrite: Int32

        init() {
            var ends: [Int32] = [-1, -1]
            _ = standfit_pipe_cloexec(&ends)
            (cancelSignal, cancelWrite) = (ends[0], ends[1])
        }

        deinit {
            close(cancelSignal)
            close(cancelWrite)
        }
    }

    package init(errorDescriptor: Int32) {
        self.errorDescriptor = errorDescriptor
        request = Request()
    }

    private init(errorDescriptor: Int32, request: Request) {
        self.errorDescriptor = errorDescriptor
        self.request = request
    }

    /// This request with helpers' output sent to `descriptor` (e.g. /dev/null while shell
    /// completions are worked out); cancelling either cancels both.
    package func redirected(to descriptor: Int32) -> RequestLink {
        RequestLink(errorDescriptor: descriptor, request: request)
    }

    /// Writes `text` to the request's stderr, unless the request has ended: what a warm worker
    /// still had to say when it was stopped after its request goes nowhere. The request is
    /// held open while it writes.
    package func write(_ text: String) {
        request.open.withLock { isOpen in
            if isOpen { RawOutput.write(errorDescriptor, text) }
        }
    }

    /// The request ended: from here on `write` writes nothing. Call before its descriptors close.
    package func end() {
        request.open.withLock { $0 = false }
    }

    /// Whether the request was cancelled: a helper that ends then was killed by the host, so
    /// its end says nothing about its plugin.
    package var isCancelled: Bool { request.cancelled.load(ordering: .acquiring) }

    /// The descriptor that turns readable when the request is cancelled.
    package var cancelDescriptor: Int32 { request.cancelSignal }

    /// Counts `pid` among the children at work for the request; one that starts (or is given a
    /// call) after the request was cancelled is killed at once, as the cancel would have killed
    /// it had it come a moment later.
    package func enlist(_ pid: pid_t) {
        request.live.withLock { pids in
            pids.insert(pid)
            if request.cancelled.load(ordering: .acquiring) { HelperProcess.killGroup(of: pid) }
        }
    }

    /// `pid` was reaped, or is a warm worker whose call ended.
    package func release(_ pid: pid_t) {
        request.live.withLock { _ = $0.remove(pid) }
    }

    /// Cancels the request: kills every helper's process group at work for it, and wakes what
    /// waits on `cancelDescriptor`. Each helper's owner then sees it end by SIGKILL and, as
    /// `isCancelled` says, holds that against no plugin.
    package func cancel() {
        request.live.withLock { pids in
            request.cancelled.store(true, ordering: .releasing)
            pids.forEach(HelperProcess.killGroup(of:))
        }
        var byte: UInt8 = 1
        _ = Glibc.write(request.cancelWrite, &byte, 1)
    }
}
