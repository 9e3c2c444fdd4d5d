import CHostSystem
import Crypto
import Foundation
import HostModel

/// A plugin's bytes, read once into a sealed memory file after their SHA-256 matched the pin:
/// `dlopen("/proc/self/fd/N")` then maps exactly the bytes that were checked, and nothing can
/// change them, whatever happens to the file on disk afterwards.
package struct SealedImage {
    /// `/proc/self/fd/N`, for `dlopen`. The descriptor stays open for the life of the process,
    /// like the plugin it holds.
    var path: String

    struct Problem: Error {
        /// The end of a sentence that starts with "Plugin PATH" (`plugin.problem`).
        var words: HostText.Phrase
    }

    /// The SHA-256 of `data`, as lowercase hex.
    package static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// The SHA-256 of the file at `path`, as lowercase hex.
    package static func sha256(ofFile path: String) throws -> String {
        sha256(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func make(realPath: String, expectedSHA256: String) -> Result<SealedImage, Problem> {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: realPath))
        } catch {
            let wayOut = SystemFault.errno(of: error).flatMap(SystemFault.wayOut) ?? HostText.Phrase("plugin.wayOut.permissions")
            return .failure(Problem(words: HostText.Phrase("plugin.unreadable", ["error": error.localizedDescription], parts: ["wayOut": wayOut])))
        }
        let actual = sha256(bytes)
        guard actual == expectedSHA256 else {
            return .failure(Problem(words: HostText.Phrase("plugin.sealed.changed", ["actual": actual, "pinned": expectedSHA256, "realPath": realPath])))
        }
        let fd = standfit_memfd_create("standfit-plugin")
        guard fd >= 0 else {
            return .failure(Problem(words: HostText.Phrase("plugin.sealed.copy", ["error": String(cString: strerror(errno))])))
        }
        guard RawOutput.write(fd, bytes), standfit_memfd_seal(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            return .failure(Problem(words: HostText.Phrase("plugin.sealed.seal", ["error": reason])))
        }
        return .success(SealedImage(path: "/proc/self/fd/\(fd)"))
    }
}
