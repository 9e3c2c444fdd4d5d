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
        /// The end of a sentence that starts with "Plugin PATH".
        var message: String
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
            let wayOut = SystemFault.errno(of: error).flatMap(SystemFault.wayOut) ?? "check its permissions"
            return .failure(Problem(message: "cannot be read (\(error.localizedDescription)); \(wayOut)."))
        }
        let actual = sha256(bytes)
        guard actual == expectedSHA256 else {
            return .failure(Problem(message: "changed since you trusted it (its SHA-256 is \(actual), the pinned one \(expectedSHA256)); if you made the change, check it and run 'standfit-host plugins trust \(realPath)' again."))
        }
        let fd = standfit_memfd_create("standfit-plugin")
        guard fd >= 0 else {
            return .failure(Problem(message: "cannot be copied into sealed memory (\(String(cString: strerror(errno)))); it was not loaded."))
        }
        guard RawOutput.write(fd, bytes), standfit_memfd_seal(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            return .failure(Problem(message: "cannot be sealed in memory (\(reason)); it was not loaded."))
        }
        return .success(SealedImage(path: "/proc/self/fd/\(fd)"))
    }
}
