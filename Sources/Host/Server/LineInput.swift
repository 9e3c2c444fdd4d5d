import Foundation
import Glibc
import PluginRuntime

/// Standard input, read with read(2) as the request needs it and given up when the warm server
/// cancels the request (Ctrl-C in the client): a line for a prompt, a byte at a time so that
/// nothing past the line is taken from the terminal or pipe, or all of it.
package enum LineInput {
    /// All of standard input, up to its end; what was read so far when the request is cancelled.
    package static func readToEnd() -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while let count = read(into: &chunk), count > 0 {
            data.append(contentsOf: chunk[..<count])
        }
        return data
    }

    /// The next line without its newline; nil at end of input or when cancelled.
    package static func readLine() -> String? {
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
