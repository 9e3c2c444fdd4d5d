import Foundation
import Logging
import HostModel

/// A swift-log backend writing `standfit-host: warning: message` lines to stderr, with the
/// plugin a line came from when there is one.
struct StderrLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(level: Logger.Level) {
        logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let plugin = merged["plugin"].map { "[\($0)] " } ?? ""
        let line = "standfit-host: \(event.level): \(VisibleText.line("\(plugin)\(event.message)"))\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
