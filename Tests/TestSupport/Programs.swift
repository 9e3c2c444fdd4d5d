import Foundation

/// Writes `text` to `url` as a program (mode 755) through a child process, so that the test
/// process never holds the file open for writing.
///
/// Rationale: a file this process wrote cannot be run while any process holds it open for
/// writing (execve fails with ETXTBSY, "Text file busy"), and a child another test starts at the
/// same moment inherits the writing descriptor until its own exec. Written by `sh`, the only
/// writer is a process that has exited before the program is run. (A full run met the race once.)
public func writeProgram(_ text: String, to url: URL) throws {
    let result = runProcess(URL(fileURLWithPath: "/bin/sh"),
                            arguments: ["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh", url.path], stdin: text)
    guard result.status == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path,
                                                       NSLocalizedDescriptionKey: "could not write the program \(url.path): \(result.stderr)"])
    }
}
