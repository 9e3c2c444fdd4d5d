import CHostSystem
import Foundation
import Glibc
import HostModel
import PluginRuntime
import WarmWire

/// The warm server runs a request in its own process, made to look as the client's did: the
/// client's descriptors 0, 1 and 2 in place of its own, its whole environment (so the time
/// zone, the language and every library that reads a variable see the client's), its working
/// directory and umask. Then `HostRequest.current` is read from the process exactly as a cold
/// run reads it, so both paths build the same request by the same code.
///
/// The server runs one request at a time (its request lock), which is what makes swapping
/// process-wide state sound.
final class RequestScope {
    /// /dev/null, which the server's descriptors 0–2 are between requests.
    private static let null = open("/dev/null", O_RDWR | O_CLOEXEC)
    /// The server's own environment, put back after each request.
    private static let serverEnvironment = ProcessInfo.processInfo.environment
    private let savedUmask: mode_t
    /// Guards descriptors 0–2 against a cancel silencing them while the request ends.
    private let lock = NSLock()
    private var left = false

    /// Makes this process the client's: `descriptors` are its 0, 1 and 2 (closed here once
    /// in place).
    init(_ request: WarmRequest, descriptors: [Int32]) {
        for (target, descriptor) in descriptors.prefix(3).enumerated() {
            dup2(descriptor, Int32(target))
        }
        descriptors.forEach { close($0) }
        RequestScope.setEnvironment(request.environment)
        savedUmask = umask(mode_t(request.umask & 0o777))
        let entered = chdir(request.workingDirectory) == 0
        standfit_stdio_reset()
        HostRequest.current = .fromProcess(workingDirectory: entered ? nil : request.workingDirectory)
    }

    /// Puts the server's own state back: output flushed, descriptors 0–2 on /dev/null.
    func leave() {
        standfit_stdio_flush()
        lock.withLock {
            left = true
            RequestScope.silenceStandardStreams()
        }
        RequestScope.setEnvironment(RequestScope.serverEnvironment.map { "\($0.key)=\($0.value)" })
        umask(savedUmask)
        _ = chdir("/")
        standfit_stdio_reset()
    }

    /// A cancelled request may still be ending: what it writes from here on goes nowhere, and
    /// a prompt waiting on the terminal stops waiting (`LineInput`).
    func silence() {
        lock.withLock {
            guard !left else { return }
            RequestScope.silenceStandardStreams()
        }
    }

    /// Descriptors 0–2 on /dev/null: the server's own between requests.
    static func silenceStandardStreams() {
        for target in Int32(0)...2 { dup2(null, target) }
    }

    private static func setEnvironment(_ entries: [String]) {
        ProcessFacts.replaceEnvironment(with: entries)
    }
}

/// One line from standard input, for prompts: read with read(2) a byte at a time, so nothing
/// past the line is taken from the terminal or pipe, and given up when the warm server cancels
/// the request (Ctrl-C in the client).
enum LineInput {
    /// Readable when the request was cancelled; -1 on the cold path.
    ///
    /// Rationale for `nonisolated(unsafe)`: set by the server before a request runs, under its
    /// request lock.
    nonisolated(unsafe) static var cancelDescriptor: Int32 = -1

    /// The next line without its newline; nil at end of input or when cancelled.
    static func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            var pollers = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: cancelDescriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&pollers, cancelDescriptor >= 0 ? 2 : 1, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if cancelDescriptor >= 0 && pollers[1].revents != 0 { return nil }
            var byte: UInt8 = 0
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if count <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") {
                // As Swift's readLine, a CR before the newline goes too.
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes.append(byte)
        }
    }
}
