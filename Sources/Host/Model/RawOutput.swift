import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writing to a descriptor without a buffer: every byte, or as many as the reader takes.
///
/// Rationale: `FileHandle.write(_:)` stops the process when the write fails, and a reader that
/// went away (`standfit-host list | head -1`, a client killed) must not take a warm server down;
/// nor does a write error here have anyone left to tell.
public enum RawOutput {
    /// Writes all of `buffer` to `descriptor`, again after a signal or a short write; stops at
    /// the first error. True when every byte was written.
    @discardableResult
    public static func write(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    @discardableResult
    public static func write(_ descriptor: Int32, _ bytes: some ContiguousBytes) -> Bool {
        bytes.withUnsafeBytes { write(descriptor, $0) }
    }

    @discardableResult
    public static func write(_ descriptor: Int32, _ text: String) -> Bool {
        write(descriptor, Array(text.utf8))
    }
}
