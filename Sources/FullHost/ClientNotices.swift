import Foundation
import HostModel
import WarmWire

/// What the thin client has to tell the user (`ClientNotice`), said here in the user's language:
/// the client execs the full host with the notice on its line, since it has no tables.
enum ClientNotices {
    /// Says the notice on `arguments`, the full host's line, when it is one (in the language of
    /// the client's own line's `--locale`, as one JSON document under its `--json`): its status.
    static func say(_ arguments: [String]) -> Int32? {
        guard let (notice, original) = ClientNotice.read(arguments) else { return nil }
        let line = original.prefix { $0 != "--" }
        let language = HostRequest.current.language(locale: Usage.locale(in: original))
        Output.report(error(notice), json: line.contains("--json"), language: language)
        return notice.status
    }

    /// The notice for `reason` as the host's error.
    static func error(_ reason: ClientNotice.Reason) -> HostError {
        error(ClientNotice(reason))
    }

    /// A notice's sentence as the host's error: each `part.NAME` value is the key of a phrase
    /// that fills `{NAME}`, said with the other values.
    private static func error(_ notice: ClientNotice) -> HostError {
        let (key, values) = notice.phrase
        let plain = values.filter { !$0.key.hasPrefix("part.") }
        var parts: [String: HostText.Phrase] = [:]
        for (name, value) in values where name.hasPrefix("part.") {
            parts[String(name.dropFirst("part.".count))] = HostText.Phrase(value, plain)
        }
        return HostError(notice.status == 4 ? .serverLost : .serverUnavailable, key: key, plain, parts: parts)
    }
}
