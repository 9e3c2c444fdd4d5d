import Foundation
import Logging
import HostModel

/// A swift-log backend writing `standfit-host: warning: message` lines to stderr (`waarschuwing:`
/// in Dutch), with the
/// plugin a line came from when there is one; the warm server's own log goes to its log file
/// (or the stderr it was started with), each line with the time.
struct StderrLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    /// Where lines go: stderr, or the server's log.
    var descriptor: Int32 = STDERR_FILENO
    var timestamps = false

    init(level: Logger.Level, descriptor: Int32 = STDERR_FILENO, timestamps: Bool = false) {
        logLevel = level
        self.descriptor = descriptor
        self.timestamps = timestamps
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let plugin = merged["plugin"].map { "[\($0)] " } ?? ""
        let time = timestamps ? Date().formatted(.iso8601) + " " : ""
        // A warning a person reads is headed in the request's language ("waarschuwing: ");
        // --verbose's lines and the server's log stay as swift-log names their level.
        let level = event.level == .warning && !timestamps
            ? HostText(language: HostRequest.current.language())("warning.prefix") : "\(event.level): "
        let line = "\(time)standfit-host: \(level)\(VisibleText.line("\(plugin)\(event.message)"))\n"
        RawOutput.write(descriptor, line)
    }
}
