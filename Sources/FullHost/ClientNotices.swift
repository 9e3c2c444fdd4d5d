import Foundation
import HostModel
import WarmWire

/// What the thin client has to tell the user (`ClientNotice`), said here in the user's language:
/// the client execs the full host with the notice on its line, since it has no tables.
enum ClientNotices {
    /// Says the notice on `arguments`, the full host's line, when it is one (in the language of
    /// the client's own line's `--locale`, as one JSON document under its `--json`): its status.
    static func say(_ arguments: [String]) -> Int32? {
        guard let notice = ClientNotice.read(arguments) else { return nil }
        let original = notice.original.prefix { $0 != "--" }
        let language = HostRequest.current.language(locale: Usage.locale(in: notice.original))
        Output.report(error(status: notice.status, key: notice.key, values: notice.values), json: original.contains("--json"), language: language)
        return notice.status
    }

    /// The notice for `reason` as the host's error.
    static func error(_ reason: ClientNotice.Reason) -> HostError {
        let notice = ClientNotice(reason)
        return error(status: notice.status, key: notice.phrase.key, values: notice.phrase.values)
    }

    /// A notice's sentence as the host's error: each `part.NAME` value is the key of a phrase
    /// that fills `{NAME}`, said with the other values.
    private static func error(status: Int32, key: String, values: [String: String]) -> HostError {
        let plain = values.filter { !$0.key.hasPrefix("part.") }
        var parts: [String: HostText.Phrase] = [:]
        for (name, value) in values where name.hasPrefix("part.") {
            parts[String(name.dropFirst("part.".count))] = HostText.Phrase(value, plain)
        }
        return HostError(status == 4 ? .serverLost : .serverUnavailable, key: key, plain, parts: parts)
    }
}
