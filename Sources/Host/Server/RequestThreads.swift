import Foundation

/// The threads the server serves requests on: kept and used again, a new one started only
/// while every kept one is busy, at most `limit`; beyond that a request waits for a thread
/// (its client, if it waits longer than it allows, runs the command itself).
///
/// Rationale: a pool of blocking threads, not SwiftNIO's event loops, because a request holds
/// its thread for its whole length (its plugin calls to a worker, SQLite, a prompt reading the
/// client's terminal) and takes on the client's directory and umask for that thread alone
/// (`unshare(CLONE_FS)`, `RequestScope`), which non-blocking handlers sharing a few loops
/// cannot do. Starting a thread per connection (and another to watch it) was a visible part of
/// a warm run's cost in the server's profile (`clone3`).
///
/// Rationale for `@unchecked Sendable`: the queue and the counts are behind `condition`.
final class RequestThreads: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []
    private var threads = 0
    private var idle = 0
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `job` on a kept thread, starting one if every kept thread is busy and there is room.
    func run(_ job: @escaping () -> Void) {
        let start = condition.withLock { () -> Bool in
            jobs.append(job)
            condition.signal()
            guard jobs.count > idle, threads < limit else { return false }
            threads += 1
            return true
        }
        if start {
            let thread = Thread { [self] in loop() }
            thread.name = "standfit request"
            thread.start()
        }
    }

    /// How many threads it keeps now, and how many of them wait for a request.
    var count: Int { condition.withLock { threads } }
    var waiting: Int { condition.withLock { idle } }

    private func loop() {
        while true {
            let job = condition.withLock { () -> () -> Void in
                idle += 1
                while jobs.isEmpty { condition.wait() }
                idle -= 1
                return jobs.removeFirst()
            }
            job()
        }
    }
}
