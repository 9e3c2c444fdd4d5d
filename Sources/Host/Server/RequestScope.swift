import CHostSystem
import Foundation
import Glibc
import HostModel
import PluginRuntime
import WarmWire

/// One request the warm server serves, on the thread that serves it (each connection has its
/// own, and requests run side by side): the client's directory and umask taken on by that
/// thread alone (it unshares its file-system attributes from the rest of the process), and the
/// request, the console on the client's descriptors 0, 1 and 2 and the link for its helpers
/// bound to that thread while the command runs (`run`). The process's own environment,
/// descriptors and directory are never changed, so what one request does cannot reach another.
///
/// Rationale for `@unchecked Sendable`: `left` is behind `lock`; the rest is set in `init`.
package final class RequestScope: @unchecked Sendable {
    /// /dev/null, which a cancelled request's descriptors are made.
    private static let null = open("/dev/null", O_RDWR | O_CLOEXEC)
    package let request: HostRequest
    let console: Console
    let link: RequestLink
    /// The server that serves it.
    let server: WarmServer
    /// Whether the client's time zone is known here (`RequestTimeZone`); when it is not, only
    /// commands that show no local time are served.
    package let zoneKnown: Bool
    /// Guards the request's descriptors against a cancel silencing them while the request ends.
    private let lock = NSLock()
    private var left = false

    /// Takes on the client's directory and umask on this thread, and reads the request from
    /// what the client sent; `descriptors` are its 0, 1 and 2, owned here from now on. Nil when
    /// this thread cannot have a directory of its own (the command then runs in the client's
    /// own process); the descriptors are closed then.
    package init?(_ request: WarmRequest, descriptors: [Int32], client: pid_t? = nil, server: WarmServer) {
        self.server = server
        let streams = StandardStreams(input: descriptors[0], output: descriptors[1], error: descriptors[2])
        guard standfit_thread_own_fs() == 0 else {
            descriptors.forEach { close($0) }
            return nil
        }
        umask(mode_t(request.umask & 0o777))
        let entered = chdir(request.workingDirectory) == 0
        var facts: HostRequest
        (facts, zoneKnown) = HostRequest.fromClient(request, streams: streams, entered: entered)
        facts.clientProcess = client
        self.request = facts
        console = Console(streams: streams)
        link = RequestLink(errorDescriptor: streams.error)
    }

    /// Runs `body` as the request: `HostRequest.current`, `Console.current`,
    /// `RequestLink.current` and `WarmServer.current` are the request's on this thread meanwhile.
    package func run<T>(_ body: () -> T) -> T {
        HostRequest.$current.withValue(request) {
            Console.$current.withValue(console) {
                RequestLink.$current.withValue(link) {
                    WarmServer.$current.withValue(server, operation: body)
                }
            }
        }
    }

    /// The request ended: its output flushed and its descriptors closed, and the thread's
    /// directory and umask the server's again (a thread started meanwhile, such as one of
    /// Dispatch's, shares them).
    package func leave() {
        link.end()
        lock.withLock {
            left = true
            console.close()
            close(request.streams.input)
            close(request.streams.error)
        }
        _ = chdir("/")
        umask(0o022)
    }

    /// Cancels the request (Ctrl-C in the client, the client gone, the server stopping): its
    /// helpers are killed, what it still writes goes nowhere after `sentence` (said as an error
    /// on the client's stderr, in the request's language), and a prompt stops waiting (`LineInput`).
    func cancel(saying sentence: HostText.Phrase? = nil) {
        // Silenced first, so that a helper's end by the cancel's SIGKILL is not reported.
        lock.withLock {
            guard !left else { return }
            // Said only when the client's stderr takes it at once: a client that stopped reading
            // (a full pipe) must not hold up the cancel, nor the server's stop.
            var ready = pollfd(fd: request.streams.error, events: Int16(POLLOUT), revents: 0)
            if let sentence, poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLOUT) != 0 {
                let text = HostText(language: request.language())
                RawOutput.write(request.streams.error, "standfit-host: \(text("error.prefix"))\(text(sentence))\n")
            }
            for descriptor in [request.streams.input, request.streams.output, request.streams.error] {
                dup2(RequestScope.null, descriptor)
                // dup2 clears close-on-exec; for a moment a helper started meanwhile may get
                // /dev/null, nothing of the client's.
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
        }
        link.cancel()
    }
}

