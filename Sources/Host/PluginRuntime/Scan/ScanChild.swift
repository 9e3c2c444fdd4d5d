import CHostSystem
import Foundation
import Glibc
import Logging
import HostModel

/// One plugin's scan in a forked child of the supervisor.
struct ScanChild {
    let pid: pid_t
    let answer: Int32
    let go: Int32
    let paths: HostPaths

    /// Forks the child, which loads the plugin, writes its `ScanResult` as one line to a pipe of
    /// its own and exits. The child leads a process group of its own (so the supervisor can
    /// kill whatever it forks), and keeps none of the supervisor's pipes to the host.
    static func start(_ candidate: PluginCandidate, paths: HostPaths, language: String, sandbox: Bool,
                      logger: Logger) -> Result<ScanChild, HelperError> {
        // The answer pipe, and a pipe on which the supervisor says "go" once the host knows the
        // child's pid: a plugin that kills the supervisor at once is then still blamed by name.
        var ends: [Int32] = [0, 0], go: [Int32] = [0, 0]
        guard standfit_pipe_cloexec(&ends) == 0 else { return .failure(.system("pipe", errno)) }
        guard standfit_pipe_cloexec(&go) == 0 else {
            let code = errno
            close(ends[0]); close(ends[1])
            return .failure(.system("pipe", code))
        }
        let supervisor = getpid()
        ScanTrace.clear()
        let pid = fork()
        if pid < 0 {
            let code = errno
            (ends + go).forEach { close($0) }
            return .failure(.system("fork", code))
        }
        if pid == 0 {
            ScanTrace.beginNoting()
            setpgid(0, 0)
            _ = standfit_die_with_parent(supervisor)
            close(ends[0])
            close(go[1])
            close(HelperProcess.resultDescriptor)
            var byte: UInt8 = 0
            while read(go[0], &byte, 1) < 0 && errno == EINTR {}
            close(go[0])
            let null = open("/dev/null", O_RDONLY)
            if null >= 0 {
                dup2(null, 0)
                if null != 0 { close(null) }
            } else {
                close(0)
            }
            // A plugin's scan has no data directory yet (its id is known only once it loaded).
            if sandbox { Sandbox.enter(.forPlugin(candidate, paths: paths, dataDirectory: nil), logger: logger) }
            let result: ScanResult = switch PluginImage.open(candidate, paths: paths, logger: logger, language: language,
                                                             hasDataDirectory: !sandbox) {
            case .success(let plugin): .loaded(plugin.record)
            case .failure(let refusal): .refused(refusal.sentence)
            }
            var data = (try? JSONEncoder().encode(result)) ?? Data()
            data.append(UInt8(ascii: "\n"))
            RawOutput.write(ends[1], data)
            // What the plugin printed is in stdio's buffers; its exit handlers are not run.
            fflush(nil)
            _exit(0)
        }
        close(ends[1])
        close(go[0])
        // The parent sets the group too, so that killing it works even before the child ran.
        setpgid(pid, pid)
        return .success(ScanChild(pid: pid, answer: ends[0], go: go[1], paths: paths))
    }

    /// Runs, once in the supervisor, the Swift code every child runs around the plugin, so that
    /// the runtime's type metadata and conformance caches are filled before the first fork and
    /// each child inherits them: without this, every child looked them up again, and a first
    /// scan of 100 plugins spent most of its time there (perf: swift_getTypeByMangledName and
    /// conformance scans under JSONEncoder and FileManager in each child).
    static func warmUp(_ candidate: PluginCandidate, paths: HostPaths, sandbox: Bool) {
        let parameter = ParameterSpec(name: "n", kind: .int64, defaultValue: .int64(1), domain: .choices([]))
        let record = PluginRecord(
            id: "warm.up", name: "", version: "", abiMajor: 1, abiMinor: 0,
            actions: [ActionRecord(type: "warm.up", title: "", parameters: [parameter], phrases: [Phrase(language: nil, template: "")])],
            staticItems: [ShortcutItem(type: "warm.up", title: "", userInfo: ["k": .string("")], source: .static, origin: "")],
            hasProvider: false, entities: [EntityRecord(id: "warm.up", title: "")], warnings: [], initMilliseconds: 0)
        let refusal = HostText.Phrase("plugin.problem", ["path": ""], parts: ["problem": HostText.Phrase("plugin.elf.empty")])
        for result in [ScanResult.loaded(record), .refused(refusal)] {
            if let data = try? JSONEncoder().encode(result) { _ = try? JSONDecoder().decode(ScanResult.self, from: data) }
        }
        let clock = ContinuousClock()
        _ = clock.now - clock.now
        guard sandbox else { return }
        let grant = Sandbox.Grant.forPlugin(candidate, paths: paths, dataDirectory: nil)
        try? FileManager.default.createDirectory(at: grant.temporary.deletingLastPathComponent(),
                                                 withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Lets the child load its plugin.
    func proceed() {
        var byte: UInt8 = 1
        _ = write(go, &byte, 1)
        close(go)
    }

    /// Waits for the child's answer, at most `timeout` seconds, kills its process group, reaps
    /// it, and says what the scan found or how the plugin made it fail.
    func finish(timeout: Double, index: Int) -> ScanHelper.Message {
        defer { close(answer) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        let reader = LineReader(descriptor: answer, limit: HelperProcess.answerLimit)
        let line = reader.next(deadline: deadline)
        // A child that answered exits at once; one that did not is stopped now.
        if line != nil { _ = standfit_wait_ended(pid, 1000) }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        Sandbox.removeTemporary(of: pid, paths: paths)
        if let line {
            guard let result = try? JSONDecoder().decode(ScanResult.self, from: line) else {
                return ScanHelper.Message(done: index, fault: HostText.Phrase("plugin.fault.unreadableAnswer"))
            }
            return ScanHelper.Message(done: index, result: result)
        }
        if reader.exceededLimit {
            return ScanHelper.Message(done: index, fault: HostText.Phrase("plugin.fault.longAnswer", ["mebibytes": "\(HelperProcess.answerLimit >> 20)"]))
        }
        let signal = status & 0x7F
        let how: HostText.Phrase = if reader.timedOut {
            HelperProcess.Termination.timedOut.words(timeout: timeout)
        } else if signal != 0 {
            HelperProcess.Termination.signaled(signal).words(timeout: timeout)
        } else {
            HelperProcess.Termination.exited((status >> 8) & 0xFF).words(timeout: timeout)
        }
        return ScanHelper.Message(done: index, fault: how, place: ScanTrace.lastPlace())
    }
}
