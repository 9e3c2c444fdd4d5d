import Foundation
import Testing
@testable import StandFitHost

/// Reads never write on their own (issue 36): a request that changes the stored items several
/// times (and in several languages) rewrites the installed desktop file once, at its end.
@Suite("The desktop file is rewritten once per request", .timeLimit(.minutes(10)))
struct DesktopRewriteTests {
    final class Counter: @unchecked Sendable {
        var runs: [String] = []
    }

    @Test("marks during a request run the first rewrite once, at its end; what the rewrite marks is not run again")
    func oncePerRequest() {
        let counter = Counter()
        DesktopRewrite.afterRequest {
            DesktopRewrite.mark { counter.runs.append("first") }
            DesktopRewrite.mark { counter.runs.append("second") }
            // Nothing yet: the request is not done.
            #expect(counter.runs.isEmpty)
        }
        #expect(counter.runs == ["first"])
        // A rewrite that reads (a session per language) and finds the items changed marks
        // again: that is not carried out, however deep.
        counter.runs = []
        DesktopRewrite.afterRequest {
            DesktopRewrite.mark {
                counter.runs.append("rewrite")
                DesktopRewrite.mark { counter.runs.append("nested") }
            }
        }
        #expect(counter.runs == ["rewrite"])
        // A request that fails after changing the items (a refresh with one failing provider
        // exits non-zero) still rewrites, once.
        counter.runs = []
        struct Failed: Error {}
        #expect(throws: Failed.self) {
            try DesktopRewrite.afterRequest {
                DesktopRewrite.mark { counter.runs.append("after a failure") }
                throw Failed()
            }
        }
        #expect(counter.runs == ["after a failure"])
        // A request that changed nothing rewrites nothing.
        counter.runs = []
        DesktopRewrite.afterRequest {}
        #expect(counter.runs.isEmpty)
    }

    @Test("outside a request, a change rewrites at once, and what that rewrite marks is not run")
    func outsideRequest() {
        let counter = Counter()
        DesktopRewrite.mark {
            counter.runs.append("now")
            DesktopRewrite.mark { counter.runs.append("nested") }
        }
        #expect(counter.runs == ["now"])
    }
}
