import CHostSystem
import Glibc
import HostModel

/// Where the command being served writes: its results to its standard output through a C stdio
/// stream, buffered as a process's stdout is (by line on a terminal, in blocks otherwise), and
/// its errors and questions to its standard error unbuffered; it reads answers from its
/// standard input.
///
/// A cold process's console is its own descriptors 0–2 (stdout's stream is the one in-process
/// plugins write to as well, so their lines and the host's keep their order). The warm server
/// runs commands side by side, each on a thread of its own with a console on its client's
/// descriptors (`Console.$current.withValue`), so no command writes where another's output goes.
///
/// Rationale for `@unchecked Sendable`: a console is used by the one thread that serves its
/// command; its stream is that thread's alone.
package final class Console: @unchecked Sendable {
    /// The console of the command this thread serves.
    @TaskLocal package static var current = Console()

    package let streams: StandardStreams
    private let output: UnsafeMutablePointer<FILE>
    /// Whether `output` was opened here (and is closed by `close`).
    private let ownsOutput: Bool
    /// The output descriptor when no stream could be opened on it (it is not open for
    /// writing): closed by `close`, with the request's other descriptors.
    private let unadopted: Int32?

    /// This process's own descriptors 0–2.
    private init() {
        streams = StandardStreams()
        output = standfit_stdout()
        ownsOutput = false
        unadopted = nil
    }

    /// A console on `streams`, whose output descriptor its stream now owns (`close` closes it).
    package init(streams: StandardStreams) {
        self.streams = streams
        if let stream = fdopen(streams.output, "w") {
            output = stream
            unadopted = nil
        } else {
            // Not open for writing: what a process writes to such a stdout is lost, and so is this.
            output = fopen("/dev/null", "we")!
            unadopted = streams.output
        }
        ownsOutput = true
    }

    private init(streams: StandardStreams, sharing console: Console) {
        self.streams = streams
        output = console.output
        ownsOutput = false
        unadopted = nil
    }

    /// This console with its errors sent to `descriptor` instead (its output is this one's).
    package func sendingErrors(to descriptor: Int32) -> Console {
        var streams = streams
        streams.error = descriptor
        return Console(streams: streams, sharing: self)
    }

    /// Writes `text` to standard output.
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = fwrite(bytes.baseAddress, 1, bytes.count, output)
        }
    }

    /// Writes `text` and a newline to standard output, as `print` does.
    package func print(_ text: String, terminator: String = "\n") {
        write(text + terminator)
    }

    /// Writes `text` to standard error at once.
    package func error(_ text: String) {
        RawOutput.write(streams.error, text)
    }

    /// What standard output holds back, written now.
    package func flush() {
        fflush(output)
    }

    /// Flushes standard output and closes it (the warm server's consoles, when the command ends).
    package func close() {
        if ownsOutput { fclose(output) } else { fflush(output) }
        if let unadopted { Glibc.close(unadopted) }
    }
}
