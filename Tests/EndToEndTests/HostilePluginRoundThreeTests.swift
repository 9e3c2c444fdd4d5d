import Foundation
import Synchronization
import Testing
import TestSupport

/// The third hostile-plugin round (issue 37): plugins that try to reach the user's services
/// (the warm server's socket, the session bus) and drive the host through them, that write on
/// the host's answer descriptor, change their environment in place, keep files in TMPDIR, or
/// use a descriptor the user's shell left open. Cold and warm, with the same expectations.
@Suite("The hostile plugin zoo, round three", .timeLimit(.minutes(10)))
struct HostilePluginRoundThreeTests {
    static var escape: URL { get throws { try FixturePlugins.zoo("escape.so") } }
    static var escapeInit: URL { get throws { try FixturePlugins.zoo("escape-init.so") } }

    /// What the host says when plugin code started it, with the process number left out.
    static let refusal = "standfit-host: error: This command was started by plugin code (process N runs the host's plugins), and plugins may not drive the host; run standfit-host from your own shell, a launcher or the desktop."

    /// `text` with every run of digits after "process " made "N".
    static func withoutPIDs(_ text: String) -> String {
        text.replacingOccurrences(of: #"process [0-9]+"#, with: "process N", options: .regularExpression)
    }

    /// `sandbox` with the plugin's attack: `plugins trust` on its own file through the client.
    static func attacking(_ sandbox: HostSandbox, trusting plugin: URL) -> HostSandbox {
        var sandbox = sandbox
        sandbox.extraEnvironment["ZOO_HOST_COMMAND"] = "'\(Fixtures.hostBinary.path)' plugins trust '\(plugin.path)' 2>&1"
        return sandbox
    }


    @Test("a sandboxed handler can open no Unix socket (no server, no bus), no io_uring, cannot stop reaping or hide, cannot run the host, and gets no descriptor the shell left open")
    func sandboxedHandlerCannotEscape() throws {
        let escape = try Self.escape
        let sandbox = Self.attacking(HostSandbox.zoo([escape]), trusting: escape)
        let victim = sandbox.root.appendingPathComponent("victim.txt")
        try Data().write(to: victim)
        // Its log in server.log, where the check for hand-backs reads.
        #expect(sandbox.serveWarmPath() == nil)
        let ran = sandbox.checkingHandBacks("run com.zoo.escape.run") {
            runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: [
                "-c", "\"$0\" run com.zoo.escape.run 7>>\"$1\"", Fixtures.hostBinary.path, victim.path,
            ], environment: sandbox.environment)
        }
        // A plugin that declared no program can start none, not even the shell.
        #expect(ran == ProcessResult(status: 0, stdout: """
            descriptor 7: Bad file descriptor; unix socket: denied (EACCES); io_uring: denied (EPERM); stop reaping: denied (EPERM); undumpable: denied (EPERM); host command: the shell did not start

            """, stderr: ""))
        #expect(try Data(contentsOf: victim).isEmpty)
        #expect(sandbox.run("plugins") == ProcessResult(status: 0, stdout: FixturePlugins.zooListing("escape", escape), stderr: ""))
    }

    @Test("a sandboxed plugin executes only the programs it declared (and never one it wrote); `plugins` shows them, and a bad declaration is refused with a warning")
    func executesOnlyDeclaredPrograms() throws {
        let undeclared = try FixturePlugins.zoo("exec.so"), declared = try FixturePlugins.zoo("exec-declared.so")
        let sandbox = HostSandbox.zoo([undeclared, declared])
        #expect(sandbox.run("run", "com.zoo.exec.run") == ProcessResult(status: 0, stdout: """
            nothing declared; /bin/true: denied (EACCES); /bin/echo: denied (EACCES); a copy in TMPDIR: denied (EACCES)

            """, stderr: ""))
        #expect(sandbox.run("run", "com.zoo.exec-declared.run") == ProcessResult(status: 0, stdout: """
            declared /bin/true: 0; /bin/true: exit 0; /bin/echo: denied (EACCES); a copy in TMPDIR: denied (EACCES)

            """, stderr: ""))
        #expect(sandbox.run("plugins") == ProcessResult(status: 0, stdout: FixturePlugins.zooListing("exec", undeclared) + """
            com.zoo.exec-declared 0.1.0 (ABI 1.0): Zoo exec-declared
              path: \(declared.path)
              types: com.zoo.exec-declared.run
              runs: in a worker process
              programs: /bin/true

            """, stderr: ""))
        #expect(withoutInitTime(sandbox.run("plugins", "check", declared.path).stdout) == """
            Plugin \(declared.path)
              id: com.zoo.exec-declared 0.1.0 ("Zoo exec-declared"), ABI 1.0
              init: N ms
              sha256: \(sha256(of: declared))
              runs: in a worker process (not trusted; 'standfit-host plugins trust' pins it)
              programs: /bin/true (all it may execute when sandboxed)
              types:
                com.zoo.exec-declared.run "Run exec-declared"
              static items: none
              dynamic provider: no
            OK: com.zoo.exec-declared loads, with 1 type and no warnings.

            """)
        // A directory is no program: declaring /usr/bin grants nothing beneath it.
        let directory = try FixturePlugins.zoo("exec-declared-directory.so")
        #expect(HostSandbox.zoo([directory]).run("run", "com.zoo.exec-declared-directory.run")
            == ProcessResult(status: 0, stdout: """
                declared /usr/bin: 0; /bin/true: denied (EACCES); /bin/echo: denied (EACCES); a copy in TMPDIR: denied (EACCES)

                """, stderr: ""))
        // A path that is not absolute is refused, and said each time the plugin is used.
        let bad = try FixturePlugins.zoo("exec-declared-bad.so")
        let warning = "standfit-host: warning: Plugin 'com.zoo.exec-declared-bad' (\(bad.path)) loads without a registration the host refused, because its init returned STANDFIT_OK regardless (have it return the failing call's status): declare_program was given 'relative/true', which is no absolute path of at most 1024 bytes without control characters; declare the program by its full path, such as /usr/bin/notify-send.\n"
        #expect(HostSandbox.zoo([bad]).run("run", "com.zoo.exec-declared-bad.run") == ProcessResult(status: 0, stdout: """
            declared /bin/true: 0, relative/true: -1; /bin/true: exit 0; /bin/echo: denied (EACCES); a copy in TMPDIR: denied (EACCES)

            """, stderr: warning))
    }

    @Test("unsandboxed, a handler that runs the host is refused by the server and by the cold command: it stays untrusted")
    func unsandboxedHandlerIsRefused() throws {
        let escape = try Self.escape
        var sandbox = Self.attacking(HostSandbox.zoo([escape]), trusting: escape)
        // The plugin's own client is handed back (and refuses itself cold), by intent.
        sandbox.coldRunsExpected = true
        sandbox.writeConfig(#"{"scanTimeout": 5, "handlerTimeout": 5, "sandbox": false}"#)
        let log = sandbox.root.appendingPathComponent("server.log")
        if HostPath.current == .warm { #expect(sandbox.server.start(environment: sandbox.environment, log: log) == nil) }
        let ran = sandbox.run("run", "com.zoo.escape.run")
        #expect(ran.status == 0)
        #expect(ran.stderr == "")
        #expect(Self.withoutPIDs(ran.stdout).hasSuffix("; host command: exit 5: \(Self.refusal)\n"), "\(ran)")
        #expect(sandbox.run("plugins") == ProcessResult(status: 0, stdout: FixturePlugins.zooListing("escape", escape), stderr: ""))
        if HostPath.current == .warm {
            // The server refused the plugin's client first; the client then ran cold and refused itself.
            let log = try String(contentsOf: log, encoding: .utf8)
            #expect(Self.withoutPIDs(log).contains("standfit-host: warning: Handed back to run cold: pid "), "\(log)")
            #expect(Self.withoutPIDs(log).contains(" was started by plugin code (process N runs the host's plugins), and plugins may not drive the host.\n"), "\(log)")
        }
    }

    @Test("under --json the refusal of a command plugin code started is one document with the code started-by-plugin, exit 5 (docs/JSON.md)")
    func startedByPluginAsJSON() throws {
        let escape = try Self.escape
        var sandbox = HostSandbox.zoo([escape])
        // The command's whole answer on one line (the plugin reports the last line it read),
        // and its exit status kept.
        sandbox.extraEnvironment["ZOO_HOST_COMMAND"] = "out=$('\(Fixtures.hostBinary.path)' plugins trust '\(escape.path)' --json 2>&1); status=$?; printf '%s\\n' \"$out\" | tr -d '\\n'; echo; exit $status"
        sandbox.coldRunsExpected = true
        sandbox.writeConfig(#"{"scanTimeout": 5, "handlerTimeout": 5, "sandbox": false}"#)
        let ran = sandbox.run("run", "com.zoo.escape.run")
        let document = #"{  "code" : "started-by-plugin",  "message" : "This command was started by plugin code (process N runs the host's plugins), and plugins may not drive the host; run standfit-host from your own shell, a launcher or the desktop.",  "status" : "error"}"#
        #expect(ran.status == 0 && ran.stderr == "" && Self.withoutPIDs(ran.stdout).hasSuffix("; host command: exit 5: \(document)\n"), "\(ran)")
    }

    @Test("init, sandboxed or not, cannot escape during the scan 'list' triggers, nor trust itself")
    func initCannotEscape() throws {
        let escapeInit = try Self.escapeInit
        let sandboxed = Self.attacking(HostSandbox.zoo([escapeInit]), trusting: escapeInit)
        let scanned = sandboxed.run("plugins")
        #expect(scanned == ProcessResult(status: 0, stdout: FixturePlugins.zooListing("escape-init", escapeInit), stderr: """
            zoo escape in init: descriptor 7: Bad file descriptor; unix socket: denied (EACCES); io_uring: denied (EPERM); stop reaping: denied (EPERM); undumpable: denied (EPERM); host command: the shell did not start

            """))
        var unsandboxed = Self.attacking(HostSandbox.zoo([escapeInit]), trusting: escapeInit)
        // The plugin's own client is handed back (and refuses itself cold), by intent.
        unsandboxed.coldRunsExpected = true
        unsandboxed.writeConfig(#"{"scanTimeout": 5, "handlerTimeout": 5, "sandbox": false}"#)
        let listed = unsandboxed.run("list")
        #expect(listed.status == 0)
        #expect(Self.withoutPIDs(listed.stderr).hasPrefix("zoo escape in init: descriptor 7: Bad file descriptor; unix socket: allowed; "), "\(listed)")
        #expect(Self.withoutPIDs(listed.stderr).contains("; host command: exit 5: \(Self.refusal)\n"), "\(listed)")
        #expect(unsandboxed.run("plugins") == ProcessResult(status: 0, stdout: FixturePlugins.zooListing("escape-init", escapeInit), stderr: ""))
    }

    @Test("a line a plugin writes on the host's answer descriptor fails its own call, and the next call gets its own answer")
    func strayAnswerLine() throws {
        let stray = try FixturePlugins.zoo("stray-answer.so"), plain = try FixturePlugins.zoo("plain.so")
        let sandbox = HostSandbox.zoo([stray, plain])
        let failed = ProcessResult(status: 4, stdout: "", stderr: """
            standfit-host: Plugin 'com.zoo.stray-answer' wrote a line of its own on the host's answer descriptor (3) while running com.zoo.stray-answer.run; report this to the plugin's author.

            """)
        #expect(sandbox.run("run", "com.zoo.stray-answer.run") == failed)
        #expect(sandbox.run("run", "com.zoo.stray-answer.run") == failed)
        #expect(sandbox.run("run", "com.zoo.plain.run") == ProcessResult(status: 0, stdout: "zoo plain ran\n", stderr: ""))
        if HostPath.current == .warm {
            // The worker that wrote it is gone; only the plain plugin's stays.
            let status = sandbox.run("server", "status")
            #expect(!status.stdout.contains("com.zoo.stray-answer"), "\(status)")
            #expect(status.stdout.contains("  com.zoo.plain (en): pid "))
        }
    }

    @Test("each call sees the command's environment, even after a plugin wrote into it in place")
    func environmentWrittenInPlace() throws {
        var sandbox = try HostSandbox.zoo([FixturePlugins.zoo("env-in-place.so")])
        sandbox.extraEnvironment["ZOO_IN_PLACE"] = "abc"
        for _ in 0..<3 {
            #expect(sandbox.run("run", "com.zoo.env-in-place.run") == ProcessResult(status: 0, stdout: "ZOO_IN_PLACE was abc\n", stderr: ""))
        }
    }

    @Test("a sandboxed plugin's TMPDIR is set on every call and empty at its start")
    func temporaryDirectoryPerCall() throws {
        let sandbox = try HostSandbox.zoo([FixturePlugins.zoo("temp-file.so")])
        for _ in 0..<3 {
            #expect(sandbox.run("run", "com.zoo.temp-file.run") == ProcessResult(status: 0, stdout: "TMPDIR set; mkstemp: ok; held before: nothing\n", stderr: ""))
        }
        sandbox.server.stopAll()
        let temporaries = sandbox.root.appendingPathComponent("cache/standfit/sandbox")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporaries.path) == [])
    }

    @Test("a sentence longer than any phrase is refused at once in one sentence, not matched word by word")
    func longSentence() {
        let sandbox = HostSandbox.standFit()
        let sentence = Array(repeating: "log", count: 20_000).joined(separator: " ")
        #expect(sandbox.run("say", sentence) == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: That sentence has 20000 words and 79999 bytes; phrases such as "log 20 squats" are at most 64 words and 1024 bytes, so say it shorter or run the action with 'standfit-host run'.

            """))
        #expect(sandbox.run("say", "log 20 squats") == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
    }

    @Test("the warm server never runs more workers than serverWorkers: calls beyond wait their turn")
    func workerCapHolds() throws {
        let slow = try FixturePlugins.zoo("slow.so")
        var sandbox = HostSandbox.zoo([slow])
        sandbox.writeConfig(#"{"scanTimeout": 5, "handlerTimeout": 20, "serverWorkers": 2}"#)
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        let served = sandbox
        #expect(served.server.start(environment: served.environment) == nil)
        #expect(served.server.listening(), "the server did not start")
        #expect(served.run("plugins").status == 0)
        let outcomes = Mutex<[ProcessResult]>([])
        let peak = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 7) { index in
            if index == 6 {
                // Meanwhile, the server's own count, looked at repeatedly.
                for _ in 0..<40 {
                    let status = served.run("server", "status")
                    if let line = status.stdout.split(separator: "\n").first(where: { $0.hasPrefix("Workers: ") }),
                       let count = Int(line.dropFirst("Workers: ".count).prefix { $0.isNumber }) {
                        peak.withLock { $0 = max($0, count) }
                    }
                    usleep(20_000)
                }
                return
            }
            let result = served.run("run", "com.zoo.slow.run")
            outcomes.withLock { $0.append(result) }
        }
        #expect(outcomes.withLock { $0 } == Array(repeating: ProcessResult(status: 0, stdout: "zoo slow ran\n", stderr: ""), count: 6))
        #expect(peak.withLock { $0 } <= 2)
        #expect(peak.withLock { $0 } >= 1)
        // And the processes themselves: the server's children (started by any of its threads).
        let server = try #require(sandbox.server.pid)
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server)/task")
        let children = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(server)/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ")
        }
        #expect(children.count <= 2, "the server has \(children.count) children")
    }

    @Test("server stop is bounded while a call hangs: the call is cancelled after the grace, the server and its worker end")
    func stopIsBounded() throws {
        let hang = try FixturePlugins.zoo("hang-handler.so")
        var sandbox = HostSandbox.zoo([hang])
        // The plugin's own limit is far beyond the server's grace, so only the stop ends the call.
        sandbox.writeConfig(#"{"scanTimeout": 5, "handlerTimeout": 600}"#)
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        let served = sandbox
        #expect(served.server.start(environment: served.environment) == nil)
        #expect(served.server.listening(), "the server did not start")
        let server = try #require(served.server.pid)
        let call = Mutex<ProcessResult?>(nil)
        let thread = Thread { call.withLock { $0 = served.run("run", "com.zoo.hang-handler.run") } }
        thread.start()
        #expect(eventually(20) { !ProcessTable.children(of: server).isEmpty }, "the hanging call never reached a worker")
        let workers = ProcessTable.children(of: server)
        #expect(served.run("server", "stop").status == 0)
        // Well before the plugin's 600 s: the grace is 10 s.
        #expect(eventually(60) { call.withLock { $0 } != nil }, "the hanging call outlived the server's stop")
        #expect(call.withLock { $0 } == ProcessResult(status: 143, stdout: "", stderr: """
            standfit-host: error: The server was asked to stop and this command was still running after 10 s, so it was cancelled; run it again.

            """))
        #expect(eventually(20) { !ProcessTable.isAlive(server) }, "the server outlived its stop")
        #expect(!workers.contains(where: ProcessTable.isAlive), "a worker outlived the server")
        served.server.stopAll()
    }
}
