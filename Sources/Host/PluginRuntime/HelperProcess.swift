import CHostSystem
import Foundation
import HostModel

/// A child run of the host's own binary in a hidden mode (`scan-helper`, `handler-worker`), so
/// that plugin code which crashes, hangs or exits takes only the child down.
///
/// The child reads its request on stdin and writes its answers, one JSON document a line, to
/// a dedicated pipe on descriptor 3: never to stdout, which plugin code may write to. The
/// child's stdout goes to the host's stderr, so that a plugin's chatter stays visible without
/// mixing into a command's output. The host reads with a deadline and kills a child that
/// misses it.
final class HelperProcess {
    /// The descriptor the child writes its answers to.
    static let resultDescriptor: Int32 = 3

    let pid: pid_t
    private let results: Int32
    private var buffer: [UInt8] = []
    private var finished: Termination?

    /// How a child ended.
    enum Termination: Equatable {
        case exited(Int32)
        case signaled(Int32)
        /// Killed by the host when it missed its deadline.
        case timedOut
    }

    /// What one read of the result pipe gave.
    enum Read {
        case line(Data)
        /// The child closed the pipe: it finished or died.
        case end
        case timedOut
    }

    /// Starts `executable` with `arguments` and hands it `input` on stdin. Unless `verbose`,
    /// Swift's crash backtracer is off in the child: the host reports a crash in one sentence,
    /// and a plugin author asks for the full backtrace with --verbose.
    init(executable: String, arguments: [String], environment: [String: String], input: Data,
         verbose: Bool) throws(HelperError) {
        // A child that dies before reading its input must not take the host down with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var request: [Int32] = [0, 0], answer: [Int32] = [0, 0]
        guard standfit_pipe_cloexec(&request) == 0 else { throw HelperError.system("pipe", errno) }
        guard standfit_pipe_cloexec(&answer) == 0 else {
            close(request[0]); close(request[1])
            throw HelperError.system("pipe", errno)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, request[0], 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        posix_spawn_file_actions_adddup2(&actions, answer[1], HelperProcess.resultDescriptor)
        let argv = ([executable] + arguments + (verbose ? ["--verbose"] : [])).map { strdup($0) } + [nil]
        var environment = environment
        if !verbose { environment["SWIFT_BACKTRACE"] = "enable=no" }
        environment[HelperProcess.parentVariable] = String(getpid())
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
        close(request[0])
        close(answer[1])
        guard status == 0 else {
            close(request[1]); close(answer[0])
            throw HelperError.system("posix_spawn \(executable)", status)
        }
        pid = child
        results = answer[0]
        input.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(request[1], bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }  // the child is gone; its end says why
                offset += count
            }
        }
        close(request[1])
    }

    /// Names the host's pid in the child's environment, for `dieWithParent()`.
    static let parentVariable = "STANDFIT_HELPER_PARENT"

    /// The child's side, first thing in a hidden mode: dies when the host that started it dies.
    /// A host killed with SIGKILL cannot kill its helper; without this, a helper scanning a
    /// plugin that hangs, or a worker running a hanging handler, would stay forever (reparented
    /// to init), and a worker could finish an action after its host was killed.
    static func dieWithParent(environment: [String: String]) {
        guard let text = environment[parentVariable], let parent = pid_t(text) else { return }
        _ = standfit_die_with_parent(parent)
    }

    deinit {
        if finished == nil {
            kill(pid, SIGKILL)
            _ = wait()
        }
        close(results)
    }

    /// The next line the child wrote, waiting until `deadline` at most.
    func nextLine(deadline: ContinuousClock.Instant) -> Read {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return .line(line)
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return .timedOut }
            let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
            var poller = pollfd(fd: results, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: milliseconds))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(results, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .end }
            buffer += chunk[..<count]
        }
    }

    /// Kills the child (it missed its deadline) and reaps it.
    func stop() {
        kill(pid, SIGKILL)
        _ = wait()
        finished = .timedOut
    }

    /// Gives the child until `deadline` to exit after it answered (or closed its pipe), then
    /// kills it: a plugin's exit handlers must not hold the host up either.
    @discardableResult
    func reap(by deadline: ContinuousClock.Instant) -> Termination {
        if let finished { return finished }
        while ContinuousClock.now < deadline {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return record(status) }
            if reaped < 0 && errno != EINTR { break }
            usleep(1000)
        }
        stop()
        return .timedOut
    }

    /// Waits for the child to end and says how it did.
    @discardableResult
    func wait() -> Termination {
        if let finished { return finished }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return record(status)
    }

    private func record(_ status: Int32) -> Termination {
        let signal = status & 0x7F
        let termination: Termination = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
        finished = termination
        return termination
    }
}

/// Why a helper could not be started.
enum HelperError: Error, CustomStringConvertible {
    case system(String, Int32)

    var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}

extension HelperProcess.Termination {
    /// How the child ended, as words that follow a plugin's name: "crashed with SIGSEGV
    /// (segmentation fault)", "exited with status 3", "timed out after 5 s".
    func describe(timeout: Double) -> String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let number): "crashed with \(Signal.describe(number))"
        case .timedOut: "timed out after \(Seconds.format(timeout)) s"
        }
    }
}

/// Names of the signals a faulty plugin dies of.
enum Signal {
    static func describe(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGILL: "SIGILL", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
            SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGSYS: "SIGSYS", SIGPIPE: "SIGPIPE",
        ]
        let name = names[number] ?? "signal \(number)"
        guard let text = strsignal(number) else { return name }
        return "\(name) (\(String(cString: text).lowercased()))"
    }
}

/// Seconds as people write them: "5", "0.5".
package enum Seconds {
    package static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
