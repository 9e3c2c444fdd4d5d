import Foundation
import Glibc

/// Reads a file a user named or keeps among their settings (a manifest, a routine, config.json,
/// a strings table, `dynamic set FILE`): only a regular file, and only up to a size, so that a
/// FIFO nobody writes to, `/dev/zero` or a sparse file of gigabytes is refused in a sentence
/// instead of holding the command (or the warm server's thread) for ever or filling its memory.
/// The file is opened once, checked and read through that one descriptor.
public enum UserFile {
    /// Why a file is not read; its `localizedDescription` is the reason, which callers put into
    /// the sentence they already say for a file that cannot be read.
    public struct Refusal: LocalizedError, Sendable {
        /// Said in the language of the sentence it goes into (`why(_:)`).
        public var reason: HostText.Phrase
        public var errorDescription: String? { reason.english }
    }

    /// Why reading failed, as a part of the caller's sentence: the refusal's words, or the
    /// system's (Foundation's for a file that cannot be opened, strerror's), quoted as they are.
    public static func why(_ error: any Error) -> HostText.Phrase {
        (error as? Refusal)?.reason ?? .verbatim(error.localizedDescription)
    }

    /// The bytes of the file at `url`, at most `limit` of them.
    public static func read(_ url: URL, limit: Int) throws -> Data {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        // One that cannot be opened: Foundation's own words for it ("no such file", "permission").
        guard descriptor >= 0 else { return try Data(contentsOf: url) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Refusal(reason: .verbatim(String(cString: strerror(errno)))) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw Refusal(reason: HostText.Phrase("file.notRegular"))
        }
        guard info.st_size <= limit else {
            throw Refusal(reason: HostText.Phrase("file.tooLarge", parts: ["size": size(Int(info.st_size)), "limit": size(limit)]))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= limit {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Refusal(reason: .verbatim(String(cString: strerror(errno)))) }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
        throw Refusal(reason: HostText.Phrase("file.grew", parts: ["limit": size(limit)]))
    }

    /// "16 MiB", "512 KiB", "300 bytes".
    static func size(_ bytes: Int) -> HostText.Phrase {
        bytes >= 1 << 20 ? HostText.Phrase("file.mebibytes", ["count": "\(bytes >> 20)"])
            : bytes >= 1 << 10 ? HostText.Phrase("file.kibibytes", ["count": "\(bytes >> 10)"]) : HostText.Phrase("file.bytes", ["count": "\(bytes)"])
    }

    /// The most a manifest, a strings table or a file of dynamic items may be.
    public static let documentLimit = 16 << 20
    /// The most a routine or config.json may be.
    public static let settingsLimit = 4 << 20
}
