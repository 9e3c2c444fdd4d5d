import CWarmWire
#if canImport(Glibc)
import Glibc
#endif

/// The messages between the thin client and the server, on a Unix stream socket. Each is a
/// kind byte, a payload length (4 bytes, little-endian) and the payload.
///
/// Rationale: a hand-written framing rather than a serialization library, because the thin
/// client links no Foundation (to start in about a millisecond) and the messages are five
/// fixed shapes; a change of shape changes `WarmWire.protocolVersion`, which is part of the
/// socket's name, so two builds never read each other's messages.
///
///     client                                  server
///     Request (build, argv, environment, ──▶
///              cwd, umask; fds 0, 1, 2)
///                                         ◀── Accepted   (or RunCold: run it yourself)
///     Go                                ──▶               (from here on, never re-run)
///     Cancel(signal)  (Ctrl-C, TERM…)   ──▶
///                                         ◀── Exit(status)
public enum Frame: Equatable, Sendable {
    case request(WarmRequest)
    case accepted
    case runCold
    case go
    case cancel(signal: Int32)
    case exit(status: Int32)

    var kind: UInt8 {
        switch self {
        case .request: UInt8(ascii: "R")
        case .accepted: UInt8(ascii: "A")
        case .runCold: UInt8(ascii: "C")
        case .go: UInt8(ascii: "G")
        case .cancel: UInt8(ascii: "K")
        case .exit: UInt8(ascii: "X")
        }
    }

    /// The frame as bytes.
    public var bytes: [UInt8] {
        var payload = ByteWriter()
        switch self {
        case .request(let request): request.write(to: &payload)
        case .accepted, .runCold, .go: break
        case .cancel(let signal): payload.int32(signal)
        case .exit(let status): payload.int32(status)
        }
        var frame = ByteWriter()
        frame.bytes.append(kind)
        frame.uint32(UInt32(payload.bytes.count))
        frame.bytes += payload.bytes
        return frame.bytes
    }

    /// The frame `kind` with `payload`, or nil when they do not make one.
    static func decode(kind: UInt8, payload: [UInt8]) -> Frame? {
        var reader = ByteReader(payload)
        let frame: Frame?
        switch kind {
        case UInt8(ascii: "R"): frame = WarmRequest.read(from: &reader).map(Frame.request)
        case UInt8(ascii: "A"): frame = .accepted
        case UInt8(ascii: "C"): frame = .runCold
        case UInt8(ascii: "G"): frame = .go
        case UInt8(ascii: "K"): frame = reader.int32().map { .cancel(signal: $0) }
        case UInt8(ascii: "X"): frame = reader.int32().map { .exit(status: $0) }
        default: frame = nil
        }
        return reader.atEnd ? frame : nil
    }
}

/// One command as the client ran it: what a cold run would have read from its own process,
/// and the build the client expects to serve it.
public struct WarmRequest: Equatable, Sendable {
    /// The build (`WarmPlace.build`) of the client's full host. A server of another build,
    /// reached through the socket-activation socket, answers RunCold. It comes first in the
    /// payload, so that a server of any later protocol can still read it.
    public var build = ""
    /// The arguments after the program's name.
    public var arguments: [String]
    /// The whole environment, as `NAME=value` strings.
    public var environment: [String]
    public var workingDirectory: String
    public var umask: UInt32

    public init(arguments: [String], environment: [String], workingDirectory: String, umask: UInt32) {
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.umask = umask
    }

    func write(to writer: inout ByteWriter) {
        writer.string(build)
        writer.uint32(umask)
        writer.string(workingDirectory)
        writer.strings(arguments)
        writer.strings(environment)
    }

    static func read(from reader: inout ByteReader) -> WarmRequest? {
        guard let build = reader.string(), let umask = reader.uint32(), let directory = reader.string(),
              let arguments = reader.strings(), let environment = reader.strings() else { return nil }
        var request = WarmRequest(arguments: arguments, environment: environment, workingDirectory: directory, umask: umask)
        request.build = build
        return request
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        uint32(UInt32(utf8.count))
        bytes += utf8
    }

    mutating func strings(_ values: [String]) {
        uint32(UInt32(values.count))
        for value in values { string(value) }
    }
}

struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { offset == bytes.count }

    mutating func uint32() -> UInt32? {
        guard bytes.count - offset >= 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << UInt32(8 * index) }
        offset += 4
        return value
    }

    mutating func int32() -> Int32? { uint32().map { Int32(bitPattern: $0) } }

    mutating func string() -> String? {
        guard let count = uint32().map(Int.init), bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
    }

    mutating func strings() -> [String]? {
        // Each string takes at least its 4-byte length, which bounds a forged count.
        guard let count = uint32().map(Int.init), count <= (bytes.count - offset) / 4 else { return nil }
        var values: [String] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let value = string() else { return nil }
            values.append(value)
        }
        return values
    }
}
