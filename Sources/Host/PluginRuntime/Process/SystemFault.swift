import Foundation
import Glibc
import HostModel

/// The way out of a failed system call, in words: a file the host cannot open because the
/// process has too many open, or because memory ran out, is not fixed by rebuilding the plugin
/// or by changing permissions, so the sentence must not say so.
enum SystemFault {
    /// What to do about `code` (an errno), or nil when the caller's own advice fits.
    static func wayOut(errno code: Int32) -> HostText.Phrase? {
        switch code {
        case EMFILE, ENFILE: HostText.Phrase("plugin.wayOut.files")
        case ENOMEM: HostText.Phrase("plugin.wayOut.memory")
        case EACCES, EPERM: HostText.Phrase("plugin.wayOut.permissions")
        case EIO: HostText.Phrase("plugin.wayOut.disk")
        default: nil
        }
    }

    /// The errno a message such as dlerror()'s names by its text, when it names one of those
    /// `wayOut` knows. The dynamic linker reports "failed to map segment from shared object"
    /// when mmap runs out of memory.
    static func errno(in message: String) -> Int32? {
        if message.contains("failed to map segment") { return ENOMEM }
        return [EMFILE, ENFILE, ENOMEM, EACCES, EPERM, EIO].first { message.contains(String(cString: strerror($0))) }
    }

    /// The errno behind a Foundation file error, when it carries one.
    static func errno(of error: any Error) -> Int32? {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        return nil
    }
}
