import Foundation
import HostDesktop

/// The matches of the desktop's latest searches, by id, for GNOME's `GetResultMetas` (which
/// names results by the ids a result set gave): the most recent 256.
///
/// Rationale for `@unchecked Sendable`: every access is behind `lock`.
final class SearchResults: @unchecked Sendable {
    private let lock = NSLock()
    private var matches: [String: DesktopSearch.Match] = [:]
    private var order: [String] = []
    static let limit = 256

    func remember(_ found: [DesktopSearch.Match]) {
        lock.withLock {
            for match in found {
                if matches.updateValue(match, forKey: match.id) == nil { order.append(match.id) }
            }
            while order.count > Self.limit { matches.removeValue(forKey: order.removeFirst()) }
        }
    }

    /// The matches of `ids` remembered, in their order; an id not remembered (the server
    /// restarted between the calls) is left out, as GNOME leaves out a result without a meta.
    func metas(_ ids: [String]) -> [DesktopSearch.Match] {
        lock.withLock { ids.compactMap { matches[$0] } }
    }
}
