import Foundation
import Testing
import TestSupport

/// The fourth hostile-plugin round: the rows of the sandbox table in docs/PLUGINS.md that no
/// test held to yet. A sandboxed plugin that tries to trace or read the memory of the host and
/// the user's shell, to leave its process group, to read another plugin's data or the host's
/// state, cache and settings; one that uses the network, which it may; and one that floods
/// stdout and stderr during a call. Cold and warm, with the same expectations.
@Suite("The hostile plugin zoo, round four", .timeLimit(.minutes(10)))
struct HostilePluginRoundFourTests {
    @Test("a sandboxed handler can neither trace nor read the memory of the host (the warm server, run warm) or the shell that started the command: ptrace and process_vm_readv are refused, /proc/PID/mem cannot be opened")
    func cannotTraceOrReadOtherProcesses() throws {
        let sandbox = try HostSandbox.zoo([FixturePlugins.zoo("trace.so")])
        #expect(sandbox.serveWarmPath() == nil)
        // The shell stays (the command is not its last), so $$ names the host's parent, run cold.
        let ran = sandbox.checkingHandBacks("run com.zoo.trace.run") {
            runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: [
                "-c", "ZOO_SHELL=$$ \"$0\" run com.zoo.trace.run; exit $?", Fixtures.hostBinary.path,
            ], environment: sandbox.environment)
        }
        let refused = "ptrace attach denied (EPERM), ptrace seize denied (EPERM), process_vm_readv denied (EPERM), open /proc/PID/mem denied (EACCES)"
        #expect(ran == ProcessResult(status: 0, stdout: "the host: \(refused); the shell: \(refused)\n", stderr: ""))
    }

    @Test("a sandboxed handler cannot leave its process group: setpgid succeeds without effect, for the worker, on a child it forks and in that child, and setsid is refused; unsandboxed, the child leaves")
    func cannotLeaveItsProcessGroup() throws {
        let sandbox = try HostSandbox.zoo([FixturePlugins.zoo("group.so")])
        #expect(sandbox.run("run", "com.zoo.group.run") == ProcessResult(status: 0, stdout: """
            setpgid(0, 0) allowed, group unchanged; setpgid(child, child) allowed, the child stays in the worker's group; the child's setpgid(0, 0) allowed, it stays in the worker's group; the child's setsid denied (EPERM)

            """, stderr: ""))
        // Without the sandbox the same calls take the child out of the group the host kills
        // (the worker, which leads its session, cannot leave it either way): the filter is
        // what keeps it in.
        sandbox.writeConfig(#"{"sandbox": false}"#)
        #expect(sandbox.run("run", "com.zoo.group.run") == ProcessResult(status: 0, stdout: """
            setpgid(0, 0) denied (EPERM), group unchanged; setpgid(child, child) allowed, the child left the worker's group; the child's setpgid(0, 0) allowed, it left the worker's group; the child's setsid denied (EPERM)

            """, stderr: ""))
    }

    @Test("a sandboxed handler can neither read nor write another plugin's data directory, even through its own, nor read the host's state, registry cache or settings; its own data directory is its own")
    func cannotReachOtherPluginsOrTheHostsFiles() throws {
        let plain = try FixturePlugins.zoo("plain.so")
        let sandbox = try HostSandbox.zoo([FixturePlugins.zoo("pry.so"), plain])
        sandbox.writeConfig(#"{"sandbox": true}"#)
        // The plain plugin's run makes the host's state and registry cache, and the plain
        // plugin's data directory, where it keeps its notes.
        #expect(sandbox.run("run", "com.zoo.plain.run") == ProcessResult(status: 0, stdout: "zoo plain ran\n", stderr: ""))
        let neighbour = sandbox.dataHome.appendingPathComponent("standfit/data/com.zoo.plain")
        try FileManager.default.createDirectory(at: neighbour, withIntermediateDirectories: true)
        let notes = neighbour.appendingPathComponent("notes")
        try Data("plain's notes\n".utf8).write(to: notes)
        let settings = sandbox.configDirectory.appendingPathComponent("config.json")
        // What the plugin is to find refused, not missing.
        for file in [sandbox.dataHome.appendingPathComponent("standfit/state.sqlite"), sandbox.registryCache, settings] {
            try #require(FileManager.default.fileExists(atPath: file.path), "\(file.path) is not there to be read")
        }
        #expect(sandbox.run("run", "com.zoo.pry.run") == ProcessResult(status: 0, stdout: """
            com.zoo.plain's notes: read denied (EACCES), write denied (EACCES); com.zoo.plain's data directory: list denied (EACCES), add a file denied (EACCES); the host's state: read denied (EACCES); the host's registry cache: read denied (EACCES); the host's settings: read denied (EACCES), write denied (EACCES); its own data directory: write allowed, read allowed

            """, stderr: ""))
        #expect(try String(contentsOf: notes, encoding: .utf8) == "plain's notes\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: neighbour.path) == ["notes"])
        #expect(try String(contentsOf: settings, encoding: .utf8) == #"{"sandbox": true}"#)
        #expect(try String(contentsOf: sandbox.dataHome.appendingPathComponent("standfit/data/com.zoo.pry/pry"), encoding: .utf8) == "x")
    }

    @Test("a sandboxed handler uses the network (IP) as any program can: a TCP connection over 127.0.0.1 carries a byte, while a Unix socket is refused")
    func usesTheNetwork() throws {
        let sandbox = try HostSandbox.zoo([FixturePlugins.zoo("network.so")])
        #expect(sandbox.run("run", "com.zoo.network.run") == ProcessResult(status: 0, stdout: """
            TCP socket: allowed; bind to 127.0.0.1:0: allowed; listen: allowed; connect to it: allowed; accept: allowed; a byte sent and received: allowed; Unix socket: denied (EACCES)

            """, stderr: ""))
    }

    /// Line `number` of what "loud.so" writes: 1 KiB with its newline, odd lines on stdout.
    static func loudLine(_ number: Int) -> String {
        let digits = String(number)
        let head = "zoo loud line \(String(repeating: "0", count: 3 - digits.count) + digits) on \(number % 2 == 1 ? "stdout" : "stderr") "
        return head + String(repeating: ".", count: 1023 - head.utf8.count) + "\n"
    }

    @Test("100 KiB a plugin writes to stdout and stderr during a call: the first 64 KiB reach the command's stderr in whole lines, in the order written, then one warning counts the 36 KiB left out; the call answers as usual, and the next call gets 64 KiB again")
    func outputIsCappedPerCall() throws {
        let sandbox = try HostSandbox.zoo([FixturePlugins.zoo("loud.so")])
        let passedOn = (1...64).map(Self.loudLine).joined()
        #expect(passedOn.utf8.count == 64 << 10)
        let warning = "standfit-host: warning: Plugin 'com.zoo.loud' wrote 36864 more bytes to stdout and stderr than the 64 KiB the host passes on; they were left out.\n"
        // Twice: a warm worker counts each call afresh.
        for _ in 0..<2 {
            #expect(sandbox.run("run", "com.zoo.loud.run") == ProcessResult(status: 0, stdout: "zoo loud ran\n", stderr: passedOn + warning))
        }
    }
}
