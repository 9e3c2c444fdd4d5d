import CWarmWire
#if canImport(Glibc)
import Glibc
#endif

/// One end of a client–server connection: whole frames out, whole frames in, descriptors
/// passed alongside.
public final class WireConnection {
    /// The most a frame's payload may hold (a request carries the whole environment).
    public static let payloadLimit = 8 << 20
    /// The most one read takes; a longer frame takes several.
    static let readSize = 16 << 10

    public let descriptor: Int32
    private var buffer: [UInt8] = []
    private var receivedDescriptors: [Int32] = []

    /// What one `receive` gave.
    public enum Received: Equatable {
        case frame(Frame)
        /// The other end closed the connection.
        case end
        case timedOut
        /// Bytes that are not a frame of this protocol (or a frame over the limit).
        case malformed
        /// The connection failed with this error number.
        case failed(Int32)
    }

    /// Takes ownership of `descriptor`.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
        receivedDescriptors.forEach { close($0) }
    }

    /// Sends `frame`, with `descriptors` attached. Returns 0, or an error number.
    @discardableResult
    public func send(_ frame: Frame, descriptors: [Int32] = []) -> Int32 {
        let bytes = frame.bytes
        let status = bytes.withUnsafeBytes { raw in
            descriptors.withUnsafeBufferPointer { fds in
                standfit_wire_send(descriptor, raw.baseAddress, raw.count, fds.baseAddress, Int32(fds.count))
            }
        }
        return status == 0 ? 0 : errno
    }

    /// Whether bytes already read wait to be taken as frames (a poll of the socket would not say so).
    public var hasBufferedBytes: Bool { !buffer.isEmpty }

    /// The descriptors received so far; the caller owns them from here on.
    public func takeDescriptors() -> [Int32] {
        defer { receivedDescriptors = [] }
        return receivedDescriptors
    }

    /// The next frame, waiting at most `timeout` milliseconds for it (-1: for ever).
    public func receive(timeout: Int32) -> Received {
        let deadline = timeout < 0 ? nil : Clock.milliseconds() + Int64(timeout)
        while true {
            if buffer.count >= 5 {
                let length = Int(buffer[1]) | Int(buffer[2]) << 8 | Int(buffer[3]) << 16 | Int(buffer[4]) << 24
                guard length <= WireConnection.payloadLimit else { return .malformed }
                if buffer.count >= 5 + length {
                    let frame = Frame.decode(kind: buffer[0], payload: Array(buffer[5..<(5 + length)]))
                    buffer.removeFirst(5 + length)
                    return frame.map(Received.frame) ?? .malformed
                }
            }
            var remaining: Int32 = -1
            if let deadline {
                remaining = Int32(max(0, min(deadline - Clock.milliseconds(), Int64(Int32.max))))
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, remaining)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            if ready == 0 { return .timedOut }
            // Read into uninitialized memory: a zeroed 64 KiB array per read was a tenth of the
            // client's page faults, in a process that lives a millisecond.
            var fds: (Int32, Int32, Int32, Int32) = (-1, -1, -1, -1)
            var fdCount: Int32 = 0
            let count = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: WireConnection.readSize) { chunk -> Int in
                let count = withUnsafeMutablePointer(to: &fds) { tuple in
                    tuple.withMemoryRebound(to: Int32.self, capacity: 4) {
                        standfit_wire_receive(descriptor, chunk.baseAddress, chunk.count, $0, 4, &fdCount)
                    }
                }
                if count > 0 { buffer.append(contentsOf: chunk[..<count]) }
                return count
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            withUnsafeBytes(of: fds) { receivedDescriptors += $0.bindMemory(to: Int32.self).prefix(Int(fdCount)) }
            if count == 0 { return .end }
        }
    }
}

enum Clock {
    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
