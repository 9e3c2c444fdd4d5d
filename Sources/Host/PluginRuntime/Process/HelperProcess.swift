import CHostSystem
import Foundation
import Glibc
import Synchronization
import HostModel

/// A child run of the host's own binary in a hidden mode (`scan-helper`, `handler-worker`), so
/// that plugin code which crashes, hangs or exits takes only the child down.
///
/// The child reads its requests on stdin and writes its answers, one JSON document a line, to
/// a dedicated pipe on descriptor 3: never to stdout, which plugin code may write to. The child
/// leads a session and process group of its own, so that nothing it or a plugin does reaches
/// the caller's group (`kill(0, …)`, the terminal's Ctrl-C), and the host kills that whole group
/// when it is done, so no process a plugin forked outlives the call. The child's stdout and
/// stderr are one pipe the host drains: a plugin's chatter reaches the host's stderr as lines
/// with control characters shown, at most `outputLimit` bytes of it, and a grandchild that
/// keeps the pipe open holds nothing up. The host reads with a deadline and kills a child that
/// misses it.
package final class HelperProcess {
    /// The descriptor the child writes its answers to.
    static let resultDescriptor: Int32 = 3
    /// The most one answer line may hold; a longer one is refused in words, not read forever.
    static let answerLimit = 32 << 20
    /// The most of a child's stdout and stderr the host passes on; the rest is counted.
    static let outputLimit = 64 << 10

    /// The child, which leads its own process group.
    let pid: pid_t
    private var requests: Int32
    let results: Int32
    private(set) var output: Int32
    /// Answer bytes read and not yet returned.
    private(set) var buffer = LineBuffer(limit: HelperProcess.answerLimit)
    private var pendingOutput: [UInt8] = []
    var forwardedOutput = 0
    var droppedOutput = 0
    /// Who the child's output is from, for the sentence about output left out.
    var outputOwner = "A plugin"
    /// The request the child works for now: its output goes to that request's stderr, and a
    /// cancel of that request kills it.
    var link: RequestLink
    private(set) var finished: Termination?

    /// Starts `executable` with `arguments` and hands it `input` on stdin, which stays open for
    /// `send` when `keepInputOpen`. Unless `verbose`, Swift's crash backtracer is off in the
    /// child: the host reports a crash in one sentence, and a plugin author asks for the full
    /// backtrace with --verbose. It works for the request `link` names: its output goes there,
    /// and a cancel of that request kills it.
    init(executable: String, arguments: [String], environment: [String: String], input: Data,
         keepInputOpen: Bool = false, verbose: Bool, link: RequestLink) throws(HelperError) {
        // A child that dies before reading its input must not take the host down with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            var ends: [Int32] = [0, 0]
            guard standfit_pipe_cloexec(&ends) == 0 else {
                let code = errno
                pipes.joined().forEach { close($0) }
                throw HelperError.system("pipe", code)
            }
            pipes.append(ends)
        }
        let (request, answer, chatter) = (pipes[0], pipes[1], pipes[2])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, request[0], 0)
        posix_spawn_file_actions_adddup2(&actions, chatter[1], 1)
        posix_spawn_file_actions_adddup2(&actions, chatter[1], 2)
        posix_spawn_file_actions_adddup2(&actions, answer[1], HelperProcess.resultDescriptor)
        // Nothing else: a descriptor the user's shell left open for the command (`7>>file`)
        // must not reach plugin code.
        _ = standfit_spawn_file_actions_closefrom(&actions, HelperProcess.resultDescriptor + 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        _ = standfit_spawnattr_setsid(&attributes)
        let argv = ([executable] + arguments + (verbose ? ["--verbose"] : [])).map { strdup($0) } + [nil]
        let envp = HelperProcess.environment(environment, verbose: verbose).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(request[0])
        close(answer[1])
        close(chatter[1])
        guard status == 0 else {
            close(request[1]); close(answer[0]); close(chatter[0])
            throw HelperError.system("posix_spawn \(executable)", status)
        }
        pid = child
        self.link = link
        link.enlist(child)
        requests = request[1]
        results = answer[0]
        output = chatter[0]
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        send(input)
        if !keepInputOpen { closeInput() }
    }

    /// Writes `data` to the child's stdin; a child that is gone is not an error here (its end
    /// says why).
    func send(_ data: Data) {
        guard requests >= 0 else { return }
        RawOutput.write(requests, data)
    }

    /// Tells the child there is nothing more to ask.
    func closeInput() {
        guard requests >= 0 else { return }
        close(requests)
        requests = -1
    }

    deinit {
        if finished == nil { stop() }
        closeInput()
        close(results)
        if output >= 0 { close(output) }
    }

    /// The next line the child wrote, waiting until `deadline` at most. Each byte is looked at
    /// once, so reading is linear in the answer's size.
    func nextLine(deadline: ContinuousClock.Instant) -> Read {
        while true {
            if let line = buffer.takeLine() { return .line(line) }
            guard !buffer.isOverLimit else {
                stop()
                return .tooLong
            }
            switch poll(until: deadline, forAnswer: true) {
            case .timedOut: return .timedOut
            case .ready:
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                let count = read(results, &chunk, chunk.count)
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                guard count > 0 else { return .end }
                buffer.append(chunk[..<count])
            }
        }
    }

    private enum PollResult { case ready, timedOut }

    /// Waits until the answer pipe is readable (when `forAnswer`) or `deadline` passes, passing
    /// on the child's output meanwhile.
    private func poll(until deadline: ContinuousClock.Instant, forAnswer: Bool) -> PollResult {
        while true {
            guard let milliseconds = Poll.milliseconds(until: deadline) else { return .timedOut }
            var fds = [pollfd(fd: forAnswer ? results : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
            let ready = Glibc.poll(&fds, 2, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            if fds[1].revents != 0 { drainOutput() }
            if fds[0].revents != 0 { return .ready }
        }
    }

    /// Reads what the child wrote to stdout and stderr so far, and passes it on line by line:
    /// at most 16 chunks at a time, so a child that writes without pause cannot keep the host
    /// here past its deadline; past `outputLimit`, chunks are only counted.
    func drainOutput() {
        guard output >= 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        for _ in 0..<16 {
            let count = read(output, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return }  // EAGAIN: nothing more for now
            if count == 0 {
                close(output)
                output = -1
                flushOutput()
                return
            }
            guard forwardedOutput < HelperProcess.outputLimit else {
                droppedOutput += count
                continue
            }
            for byte in chunk[..<count] {
                pendingOutput.append(byte)
                if byte == UInt8(ascii: "\n") || pendingOutput.count >= 4096 { flushOutput() }
            }
        }
    }

    func flushOutput() {
        guard !pendingOutput.isEmpty else { return }
        defer { pendingOutput.removeAll(keepingCapacity: true) }
        guard forwardedOutput + pendingOutput.count <= HelperProcess.outputLimit else {
            droppedOutput += pendingOutput.count
            return
        }
        forwardedOutput += pendingOutput.count
        var text = VisibleText.lines(String(decoding: pendingOutput, as: UTF8.self))
        if !text.hasSuffix("\n") { text += "\n" }
        link.write(text)
    }

    func reportDroppedOutput() {
        guard droppedOutput > 0 else { return }
        let note = "standfit-host: warning: \(outputOwner) wrote \(droppedOutput) more bytes to stdout and stderr than the \(HelperProcess.outputLimit >> 10) KiB the host passes on; they were left out.\n"
        link.write(note)
        droppedOutput = 0
    }

    /// Kills the child's whole process group (it missed its deadline, or it is done) and reaps
    /// the child.
    func stop() {
        // A child already reaped is not killed again: its pid and group id may be reused.
        guard finished == nil else { return }
        killGroup()
        _ = wait()
        if finished == .some(.signaled(SIGKILL)) { finished = .timedOut }
    }

    private func killGroup() {
        HelperProcess.killGroup(of: pid)
    }

    /// Gives the child until `deadline` to exit after it answered (or closed its pipe), then
    /// kills it: a plugin's exit handlers must not hold the host up either. Whatever the child
    /// leaves behind in its process group is killed, and what it wrote is passed on.
    @discardableResult
    func reap(by deadline: ContinuousClock.Instant) -> Termination {
        if let finished { return finished }
        // Sleeps until the child ends (its pidfd turns readable), passing its output on meanwhile.
        let ended = standfit_pidfd_open(pid)
        defer { if ended >= 0 { close(ended) } }
        while standfit_child_ended(pid) == 0, let milliseconds = Poll.milliseconds(until: deadline) {
            var fds = [pollfd(fd: ended, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
            let ready = Glibc.poll(&fds, 2, ended >= 0 ? milliseconds : min(milliseconds, 2))
            if ready > 0 && fds[1].revents != 0 { drainOutput() }
        }
        guard standfit_child_ended(pid) == 1 else {
            stop()
            return .timedOut
        }
        // The child is a zombie: its pid, and so its group's, cannot be reused until it is reaped.
        killGroup()
        drainOutput()
        return wait()
    }

    /// Waits for the child to end and says how it did.
    @discardableResult
    private func wait() -> Termination {
        if let finished { return finished }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        link.release(pid)
        drainOutput()
        flushOutput()
        reportDroppedOutput()
        let signal = status & 0x7F
        let termination: Termination = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
        finished = termination
        return termination
    }
}
