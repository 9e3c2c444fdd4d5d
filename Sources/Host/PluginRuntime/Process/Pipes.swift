import CHostSystem
import Foundation
import Glibc
import Logging
import HostModel

// What the host reads from and writes to a helper's pipes (the scan helper's, a worker's): lines,
// deadlines and the result pipe.

/// Bytes read from a pipe, cut into lines: each byte is looked at once, so taking lines is
/// linear in what was read, however it arrives.
struct LineBuffer {
    /// The most one line may hold.
    let limit: Int
    private var bytes: [UInt8] = []
    /// How far `bytes` is known to hold no newline.
    private var searched = 0

    init(limit: Int) {
        self.limit = limit
    }

    mutating func append(_ chunk: ArraySlice<UInt8>) {
        bytes += chunk
    }

    /// The next whole line, without its newline.
    mutating func takeLine() -> Data? {
        guard let newline = bytes[searched...].firstIndex(of: UInt8(ascii: "\n")) else {
            searched = bytes.count
            return nil
        }
        let line = Data(bytes[..<newline])
        bytes.removeSubrange(...newline)
        searched = 0
        return line
    }

    /// Nothing is held: no line, nor part of one.
    var isEmpty: Bool { bytes.isEmpty }

    /// The line being read is already longer than `limit`.
    var isOverLimit: Bool { bytes.count > limit }
}

/// Lines from a descriptor, each at most `limit` bytes.
final class LineReader {
    let descriptor: Int32
    private var buffer: LineBuffer
    private(set) var timedOut = false
    private(set) var exceededLimit = false

    init(descriptor: Int32, limit: Int = 1 << 30) {
        self.descriptor = descriptor
        buffer = LineBuffer(limit: limit)
    }

    /// The next line without its newline; nil at the end, past `deadline` or past the limit.
    func next(deadline: ContinuousClock.Instant? = nil) -> Data? {
        while true {
            if let line = buffer.takeLine() { return line }
            guard !buffer.isOverLimit else {
                exceededLimit = true
                return nil
            }
            if let deadline {
                guard let milliseconds = Poll.milliseconds(until: deadline) else {
                    timedOut = true
                    return nil
                }
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, milliseconds)
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0 else { continue }
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.append(chunk[..<count])
        }
    }
}

/// Deadlines as poll(2) timeouts.
enum Poll {
    /// Milliseconds from now until `deadline`, rounded up; nil once it has passed.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32? {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return nil }
        return Int32(clamping: remaining.components.seconds * 1000
            + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
    }
}

/// The child's end of the result pipe: one compact JSON document a line.
struct ResultPipe {
    /// Writes `value` as one JSON line. A descriptor the plugin closed or replaced ends the
    /// process with a sentence on stderr (which the host passes on as the plugin's output), not
    /// with a Swift trap and its backtrace: the host then reports how the worker ended.
    ///
    /// Rationale: write(2) rather than FileHandle, whose `write` traps on EBADF or EPIPE.
    func send(_ value: some Encodable) {
        guard var data = try? JSONEncoder().encode(value) else { return }
        data.append(UInt8(ascii: "\n"))
        guard RawOutput.write(HelperProcess.resultDescriptor, data) else {
            RawOutput.write(2, "standfit-host: the plugin closed or replaced the worker's answer descriptor (\(HelperProcess.resultDescriptor)), so the worker cannot answer.\n")
            _exit(70)
        }
    }
}
