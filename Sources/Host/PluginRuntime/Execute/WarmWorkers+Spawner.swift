import Foundation

/// A thread that lives as long as the process and starts the warm workers.
///
/// Rationale: the kernel kills a child whose parent *thread* ends when the child asked for
/// PR_SET_PDEATHSIG, as every helper does so that it dies with a killed host; the server runs
/// each request on a thread of its own, which ends with the request, while a warm worker must
/// outlive it. Dispatch's threads come and go too, hence a plain thread of our own.
///
/// Rationale for `@unchecked Sendable`: `jobs` is behind `condition`.
final class Spawner: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    /// Starts its thread now, from the thread that makes the workers (the server's main
    /// thread): a thread shares the directory and umask of the thread that started it, and a
    /// request's thread has the client's.
    init() {
        Thread.detachNewThread { [self] in loop() }
    }

    /// Runs `body` on the spawner's thread and returns what it returned.
    func run<T>(_ body: @escaping () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        condition.lock()
        jobs.append {
            result = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return result!
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
