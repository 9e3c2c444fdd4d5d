import Foundation

/// Keeping the installed desktop file current, once per request: reading never writes on its
/// own. A change of the stored items during a request (a run's refresh, a provider `list` had
/// to ask, `dynamic set`) only marks the request; when the request is done
/// (`afterRequest`), the file is rewritten once, with the session that marked it first. What
/// the rewrite itself reads (the menu again, a session per other language) marks nothing, so
/// nothing nests, whatever the number of languages. Outside a request (a library caller, a
/// test), a change rewrites the file at once.
///
/// Rationale for `@unchecked Sendable`: `pending` is behind `lock`.
public final class DesktopRewrite: @unchecked Sendable {
    @TaskLocal static var current: DesktopRewrite?

    private let lock = NSLock()
    private var pending: (() -> Void)?
    /// A rewrite under way: what it reads is not marked again.
    private let discards: Bool

    init(discards: Bool = false) {
        self.discards = discards
    }

    /// Runs `body` as one request; at its end, the one rewrite it marked, if any, however it
    /// ended (a command that exits non-zero, such as a refresh with one failing provider, may
    /// still have changed the items).
    public static func afterRequest<T>(_ body: () throws -> T) rethrows -> T {
        let request = DesktopRewrite()
        defer { request.finish() }
        return try $current.withValue(request) { try body() }
    }

    /// The stored items changed: `rewrite` is due (at the end of the request, once).
    static func mark(_ rewrite: @escaping () -> Void) {
        guard let request = current else {
            $current.withValue(DesktopRewrite(discards: true)) { rewrite() }
            return
        }
        guard !request.discards else { return }
        request.lock.withLock { if request.pending == nil { request.pending = rewrite } }
    }

    /// Carries out the rewrite marked, once.
    func finish() {
        guard let rewrite = lock.withLock({ () -> (() -> Void)? in
            defer { pending = nil }
            return pending
        }) else { return }
        DesktopRewrite.$current.withValue(DesktopRewrite(discards: true)) { rewrite() }
    }
}
