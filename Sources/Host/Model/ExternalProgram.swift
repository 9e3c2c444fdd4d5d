import Foundation

/// A program of the user's system the host runs for a command (`systemctl`, `systemd-analyze`,
/// SoX), found on the request's PATH and run in the request's environment.
///
/// Every run is bounded: it has a deadline, keeps at most so much of its output, and ends with
/// its request (the request's cancel descriptor turns readable). It runs in a process group of
/// its own, and whatever ends it (its deadline, too much output, the cancel) kills that whole
/// group, so nothing it started outlives the command.
///
/// Rationale: posix_spawn and poll by hand rather than Foundation's `Process` or
/// swift-subprocess: the wait must watch the program's pipes, its deadline and the request's
/// cancel descriptor in one `poll`, and the kill must reach the program's whole group; neither
/// library waits on a descriptor of the caller's, and this is the one place that runs programs.
public enum ExternalProgram {
    /// What a run may take.
    public struct Limits: Sendable {
        /// Seconds from the start after which the program is killed.
        public var seconds: Double
        /// The most of its output kept; past it the program is killed.
        public var outputBytes: Int
        /// A descriptor that turns readable when the request is cancelled; the program is killed then.
        public var cancel: Int32?

        public init(seconds: Double = 30, outputBytes: Int = 1 << 20, cancel: Int32? = nil) {
            self.seconds = seconds
            self.outputBytes = outputBytes
            self.cancel = cancel
        }
    }

    /// How a run ended.
    public enum Ending: Equatable, Sendable {
        /// It exited (or died of a signal of its own) before any limit.
        case exited
        /// Its deadline came first; it was killed.
        case deadline
        /// It wrote more than `outputBytes`; it was killed.
        case outputLimit
        /// Its request was cancelled; it was killed.
        case cancelled
        /// No executable file of its name is on `PATH`: it is not installed (status 127).
        case notFound
        /// It is there but could not be started (the system's reason: a wrong binary, too
        /// many processes, no memory); status 127.
        case notStarted(String)
    }

    /// What it came to: status 127 when it is not there (as a shell says).
    public struct Result: Sendable {
        public var status: Int32
        public var output: Data
        /// Its standard error (its first 64 KiB); empty when it was asked to share the output.
        public var errors: Data
        public var ending: Ending = .exited
    }

    /// Runs `program` with `arguments`, its input `input` (a descriptor, kept by the caller)
    /// or empty; with `mergingErrors`, its errors go to `output` too.
    public static func run(_ program: String, _ arguments: [String], environment: [String: String], input: Int32? = nil,
                           mergingErrors: Bool = false, limits: Limits = Limits()) -> Result {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(program)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { return Result(status: 127, output: Data(), errors: Data(), ending: .notFound) }
        func notStarted(_ code: Int32) -> Result {
            Result(status: 127, output: Data(), errors: Data(), ending: .notStarted(String(cString: strerror(code))))
        }
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        // [0] is read here, [1] is the program's.
        // Close-on-exec from the start, so no program another thread starts meanwhile holds an
        // end open (pipe2 is hidden behind _GNU_SOURCE; a socket pair is a pipe here).
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &output) == 0 else { return notStarted(errno) }
        if !mergingErrors && socketpair(AF_UNIX, kind, 0, &errors) != 0 {
            let code = errno
            close(output[0]); close(output[1])
            return notStarted(code)
        }
        let null = input == nil ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, input ?? null, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, mergingErrors ? output[1] : errors[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var defaults = sigset_t(), empty = sigset_t()
        sigemptyset(&empty)
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        if null >= 0 { close(null) }
        close(output[1])
        if !mergingErrors { close(errors[1]) }
        guard spawned == 0 else {
            close(output[0])
            if !mergingErrors { close(errors[0]) }
            return spawned == ENOENT ? Result(status: 127, output: Data(), errors: Data(), ending: .notFound) : notStarted(spawned)
        }
        let deadline = Date().addingTimeInterval(limits.seconds)
        var result = collect(pid: pid, output: output[0], errors: mergingErrors ? nil : errors[0], limits: limits, deadline: deadline)
        close(output[0])
        if !mergingErrors { close(errors[0]) }
        // Its output ended; the program itself may not have (it closed its descriptors and runs
        // on): it is given what is left of its deadline, and the cancel still ends it.
        if result.ending == .exited { result.ending = waitForExit(pid, deadline: deadline, cancel: limits.cancel) }
        result.status = reap(pid, killing: result.ending != .exited)
        return result
    }

    /// Waits, without reaping, until `pid` has exited (`.exited`), its deadline passed, or its
    /// request was cancelled.
    private static func waitForExit(_ pid: pid_t, deadline: Date, cancel: Int32?) -> Ending {
        while true {
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | WNOHANG) == 0, info._sifields._sigchld.si_pid == pid { return .exited }
            if errno == ECHILD { return .exited }
            if deadline.timeIntervalSinceNow <= 0 { return .deadline }
            var polled = cancel.map { [pollfd(fd: $0, events: Int16(POLLIN), revents: 0)] } ?? []
            // Rationale: a short poll rather than a pidfd, which Foundation's Glibc module does not name.
            if poll(&polled, nfds_t(polled.count), 10) > 0 { return .cancelled }
        }
    }

    /// Reads the program's output and errors until both end, or a limit ends it.
    private static func collect(pid: pid_t, output: Int32, errors: Int32?, limits: Limits, deadline: Date) -> Result {
        var result = Result(status: 0, output: Data(), errors: Data())
        var open: [Int32] = [output] + (errors.map { [$0] } ?? [])
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                result.ending = .deadline
                break
            }
            var polled = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if let cancel = limits.cancel { polled.append(pollfd(fd: cancel, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&polled, nfds_t(polled.count), Int32(min(left * 1000, 60_000)) + 1)
            if ready < 0 && errno == EINTR { continue }
            if let cancel = limits.cancel, polled.last?.fd == cancel, polled.last!.revents != 0 {
                result.ending = .cancelled
                break
            }
            for entry in polled where entry.fd != limits.cancel && entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count <= 0 {
                    open.removeAll { $0 == entry.fd }
                } else if entry.fd == output {
                    result.output.append(contentsOf: buffer[0..<count])
                } else if result.errors.count < 65536 {
                    result.errors.append(contentsOf: buffer[0..<min(count, 65536 - result.errors.count)])
                }
            }
            if result.output.count > limits.outputBytes {
                result.output = result.output.prefix(limits.outputBytes)
                result.ending = .outputLimit
                break
            }
        }
        return result
    }

    /// Waits for `pid` (killed first when `killing`) and ends what is left of its group before
    /// reaping it, while its number still names that group; answers its status as a shell would
    /// (128 + the signal that ended it).
    private static func reap(_ pid: pid_t, killing: Bool) -> Int32 {
        if killing { kill(-pid, SIGKILL) }
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
        // Reaped by someone else (no caller here does): its end is unknown, so it is no success.
        guard reaped == pid else { return 127 }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
