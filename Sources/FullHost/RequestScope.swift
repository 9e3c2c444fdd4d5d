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
final class RequestScope: @unchecked Sendable {
    /// /dev/null, which a cancelled request's descriptors are made.
    private static let null = open("/dev/null", O_RDWR | O_CLOEXEC)
    let request: HostRequest
    let console: Console
    let link: RequestLink
    /// Whether the client's time zone is known here (`RequestTimeZone`); when it is not, only
    /// commands that show no local time are served.
    let zoneKnown: Bool
    /// Guards the request's descriptors against a cancel silencing them while the request ends.
    private let lock = NSLock()
    private var left = false

    /// Takes on the client's directory and umask on this thread, and reads the request from
    /// what the client sent; `descriptors` are its 0, 1 and 2, owned here from now on. Nil when
    /// this thread cannot have a directory of its own (the command then runs in the client's
    /// own process); the descriptors are closed then.
    init?(_ request: WarmRequest, descriptors: [Int32]) {
        let streams = StandardStreams(input: descriptors[0], output: descriptors[1], error: descriptors[2])
        guard standfit_thread_own_fs() == 0 else {
            descriptors.forEach { close($0) }
            return nil
        }
        umask(mode_t(request.umask & 0o777))
        let entered = chdir(request.workingDirectory) == 0
        (self.request, zoneKnown) = HostRequest.fromClient(request, streams: streams, entered: entered)
        console = Console(streams: streams)
        link = RequestLink(errorDescriptor: streams.error)
    }

    /// Runs `body` as the request: `HostRequest.current`, `Console.current` and
    /// `RequestLink.current` are the request's on this thread meanwhile.
    func run<T>(_ body: () -> T) -> T {
        HostRequest.$current.withValue(request) {
            Console.$current.withValue(console) {
                RequestLink.$current.withValue(link, operation: body)
            }
        }
    }

    /// The request ended: its output flushed and its descriptors closed, and the thread's
    /// directory and umask the server's again (a thread started meanwhile, such as one of
    /// Dispatch's, shares them).
    func leave() {
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
    /// on the client's stderr), and a prompt stops waiting (`LineInput`).
    func cancel(saying sentence: String? = nil) {
        // Silenced first, so that a helper's end by the cancel's SIGKILL is not reported.
        lock.withLock {
            guard !left else { return }
            // Said only when the client's stderr takes it at once: a client that stopped reading
            // (a full pipe) must not hold up the cancel, nor the server's stop.
            var ready = pollfd(fd: request.streams.error, events: Int16(POLLOUT), revents: 0)
            if let sentence, poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLOUT) != 0 {
                RawOutput.write(request.streams.error, "standfit-host: error: \(sentence)\n")
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

/// Standard input, read with read(2) as the request needs it and given up when the warm server
/// cancels the request (Ctrl-C in the client): a line for a prompt, a byte at a time so that
/// nothing past the line is taken from the terminal or pipe, or all of it.
enum LineInput {
    /// All of standard input, up to its end; what was read so far when the request is cancelled.
    static func readToEnd() -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while let count = read(into: &chunk), count > 0 {
            data.append(contentsOf: chunk[..<count])
        }
        return data
    }

    /// The next line without its newline; nil at end of input or when cancelled.
    static func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: [UInt8] = [0]
        while true {
            guard let count = read(into: &byte) else { return nil }
            guard count > 0 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte[0] == UInt8(ascii: "\n") {
                // As Swift's readLine, a CR before the newline goes too.
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes.append(byte[0])
        }
    }

    /// One read of standard input into `buffer` once it is readable: the count (0 at its end or
    /// when it cannot be read), or nil when the request was cancelled.
    private static func read(into buffer: inout [UInt8]) -> Int? {
        let input = Console.current.streams.input
        let cancelDescriptor = RequestLink.current.cancelDescriptor
        while true {
            var pollers = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: cancelDescriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&pollers, cancelDescriptor >= 0 ? 2 : 1, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return 0
            }
            if cancelDescriptor >= 0 && pollers[1].revents != 0 { return nil }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return max(count, 0)
        }
    }
}
