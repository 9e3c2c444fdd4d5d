import Foundation
import Glibc
import Testing
import TestSupport
import WarmWire

/// The warm server itself: auto-start, status and stop, per-request facts against a cold run,
/// an unsafe socket directory, a server killed mid-request, and Ctrl-C. Each test manages its
/// own server, whichever path the suite runs on, and leaves none behind.
@Suite("The warm server", .timeLimit(.minutes(10)))
struct WarmServerTests {
    static var hang: URL { get throws { try FixturePlugins.zoo("hang-handler.so") } }

    /// The client run with `sandbox`'s environment as it is (not through the harness's server).
    static func host(_ sandbox: HostSandbox, _ arguments: String...) -> ProcessResult {
        host(sandbox, arguments)
    }

    static func host(_ sandbox: HostSandbox, _ arguments: [String]) -> ProcessResult {
        runProcess(Fixtures.hostBinary, arguments: arguments, environment: sandbox.environment)
    }

    /// `sandbox` with `STANDFIT_SERVER=manual`, once its server is started: its commands go to
    /// that server and never start one.
    static func serving(_ sandbox: HostSandbox) -> HostSandbox {
        var manual = sandbox
        manual.extraEnvironment["STANDFIT_SERVER"] = "manual"
        #expect(sandbox.server.start(environment: manual.environment) == nil)
        return manual
    }

    /// Waits until `condition` holds, for at most `seconds`.
    static func eventually(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        TestSupport.eventually(seconds, condition)
    }

    struct Status: Decodable {
        var running: Bool
        var pid: Int32?
        var requestsServed: Int?
        var socket: String
        var socketActivated: Bool?
    }

    /// A server log's lines as they compare whole: each without its time (its first word); with
    /// `pids`, each "(pid 123" written "(pid N" (for a process whose pid the test cannot know).
    static func logLines(_ log: String, pids: Bool = false) -> [String] {
        log.split(separator: "\n").map { line in
            let text = String(line.split(separator: " ", maxSplits: 1).last ?? "")
            return pids ? text.replacing(#/\(pid [0-9]+/#, with: "(pid N") : text
        }
    }

    /// Where a server of `fullHost` listens with `sandbox`'s environment: its socket and build.
    static func place(_ sandbox: HostSandbox, fullHost: URL = Fixtures.fullHostBinary) throws -> WarmPlace {
        try #require(WarmPlace(fullHost: fullHost.path, environment: { sandbox.environment[$0] }))
    }

    @Test("the warm pass cannot run cold unseen: a server that does not start fails the test's command, and under STANDFIT_SERVER=required a command no server serves exits 69 in a sentence")
    func requiredMode() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "off"
        let status = try JSONDecoder().decode(Status.self, from: Data(Self.host(sandbox, "server", "status", "--json").stdout.utf8))
        #expect(!status.running)
        // The harness's server, made unable to start: what the test sees instead of a cold run.
        #expect(sandbox.startServer(fullHost: URL(fileURLWithPath: "/bin/false"))
                == "the sandbox's warm server exited with status 1 before it listened")
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "required"
        #expect(Self.host(sandbox, "run", "viewstreak") == ProcessResult(status: 69, stdout: "", stderr: """
            standfit-host: error: No warm server served this command, because no server of this build listens on \(status.socket), and STANDFIT_SERVER is 'required'; start one with 'standfit-host serve', or set STANDFIT_SERVER=auto to run cold when none answers.

            """))
        // Said in the user's language (the client has the full host say it), and as one JSON
        // document under --json.
        var dutch = sandbox
        dutch.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        #expect(Self.host(dutch, "run", "viewstreak") == ProcessResult(status: 69, stdout: "", stderr: """
            standfit-host: fout: Geen warme server heeft deze opdracht uitgevoerd, omdat er op \(status.socket) geen server van deze build luistert, en STANDFIT_SERVER is 'required'; start er een met 'standfit-host serve', of zet STANDFIT_SERVER=auto om koud te draaien als er geen antwoordt.

            """))
        #expect(Self.host(sandbox, "run", "viewstreak", "--locale", "nl", "--json") == ProcessResult(status: 69, stdout: """
            {
              "code" : "server-unavailable",
              "message" : "Geen warme server heeft deze opdracht uitgevoerd, omdat er op \(status.socket) geen server van deze build luistert, en STANDFIT_SERVER is 'required'; start er een met 'standfit-host serve', of zet STANDFIT_SERVER=auto om koud te draaien als er geen antwoordt.",
              "status" : "error"
            }

            """, stderr: ""))
        // A server that takes the connection and never accepts: the client says so after the
        // timeout STANDFIT_ACCEPT_TIMEOUT gives it; one that is no number is ignored, with a warning.
        try FileManager.default.createDirectory(atPath: (status.socket as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let listener = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = try #require(UnixAddress.make(status.socket))
        #expect(withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0 && listen(listener, 8) == 0)
        var slow = sandbox
        slow.extraEnvironment["STANDFIT_ACCEPT_TIMEOUT"] = "0.2"
        // Its output goes to a file, not a pipe: the request's descriptors wait in the listener's
        // queue with the request (until a server accepts it, or the listener is closed), and a
        // pipe would see no end of file until then.
        let said = sandbox.root.appendingPathComponent("slow-accept.log")
        let client = try #require(spawnInBackground(Fixtures.hostBinary.path, ["run", "viewstreak"], environment: slow.environment, log: said))
        var waitStatus: Int32 = 0
        #expect(waitpid(client, &waitStatus, 0) == client && waitStatus & 0x7f == 0 && (waitStatus >> 8) & 0xff == 69, "wait status \(waitStatus)")
        #expect(try String(contentsOf: said, encoding: .utf8) == """
            standfit-host: error: No warm server served this command, because the server on \(status.socket) did not accept the request within 0.2 s, and STANDFIT_SERVER is 'required'; start one with 'standfit-host serve', or set STANDFIT_SERVER=auto to run cold when none answers.

            """)
        close(listener)
        unlink(status.socket)
        var unread = sandbox
        unread.extraEnvironment["STANDFIT_SERVER"] = "off"
        unread.extraEnvironment["STANDFIT_ACCEPT_TIMEOUT"] = "soon"
        #expect(Self.host(unread, "run", "viewstreak") == ProcessResult(status: 0, stdout: "No streak yet: log an exercise today to start one.\n", stderr: """
            standfit-host: warning: STANDFIT_ACCEPT_TIMEOUT is 'soon', which is no number of seconds from 0.1 to 600, so it is ignored (a server has 1 s to accept a command); set it to a number such as 5, or unset it.

            """))
        // What the server itself sends back still runs in the client's process: help.
        #expect(Self.serving(sandbox).run("run", "--help").status == 0)
        // Served, it answers as cold would; nothing was started meanwhile.
        #expect(sandbox.run("run", "viewstreak") == ProcessResult(status: 0, stdout: "No streak yet: log an exercise today to start one.\n", stderr: ""))
        // The one request served, by the server started above (help, sent back, is not counted).
        let after = try JSONDecoder().decode(Status.self, from: Data(Self.host(sandbox, "server", "status", "--json").stdout.utf8))
        #expect(after.running && after.pid == sandbox.server.pid && after.requestsServed == 1, "\(after)")
        sandbox.server.stopAll()
    }

    @Test("the command right after the one that started a server is served by it, not run cold beside it (issue 31)")
    func nextCommandWaitsForTheStartingServer() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "auto"
        defer { sandbox.server.stopAll() }
        #expect(Self.host(sandbox, "run", "logexercise", "exercise=squats", "count=20").status == 0)
        // At once, and with no server to fall back from: the client waits for the one starting.
        var required = sandbox
        required.extraEnvironment["STANDFIT_SERVER"] = "required"
        #expect(Self.host(required, "run", "logexercise", "exercise=squats", "count=5")
            == ProcessResult(status: 0, stdout: "Logged 5 squats · +5 XP\n", stderr: ""))
        // The server removed the marker the first command left once it listened.
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.server.socketDirectory.path)
        #expect(!left.contains { $0.hasSuffix(".starting") }, "\(left)")
    }

    @Test("a cold command starts a server in the background; the next is served warm; status and stop")
    func autoStart() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "auto"
        let first = Self.host(sandbox, "run", "logexercise", "exercise=squats", "count=20")
        #expect(first == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(Self.eventually { sandbox.server.listening() }, "no server was started")
        let second = Self.host(sandbox, "run", "logexercise", "exercise=squats", "count=5")
        #expect(second == ProcessResult(status: 0, stdout: "Logged 5 squats · +5 XP\n", stderr: ""))
        let status = Self.host(sandbox, "server", "status", "--json")
        #expect(status.status == 0)
        let document = try JSONDecoder().decode(Status.self, from: Data(status.stdout.utf8))
        #expect(document.running)
        #expect(document.requestsServed == 1)
        let place = try Self.place(sandbox)
        #expect(document.socket == place.socketPath)
        let pid = try #require(document.pid)
        let log = try String(contentsOf: sandbox.root.appendingPathComponent("state/standfit/server.log"), encoding: .utf8)
        #expect(Self.logLines(log) == ["standfit-host: info: Serving \(place.socketPath) (pid \(pid), build \(place.build), idle timeout 900 s)"], "\(log)")
        // The stop counts itself, as the server's log does when it exits.
        #expect(Self.host(sandbox, "server", "stop") == ProcessResult(status: 0, stdout: "Stopped the server (pid \(pid)) after 3 requests.\n", stderr: ""))
        #expect(Self.eventually { kill(pid, 0) != 0 }, "the server did not exit")
        let exited = try String(contentsOf: sandbox.root.appendingPathComponent("state/standfit/server.log"), encoding: .utf8)
        #expect(Self.logLines(exited) == [
            "standfit-host: info: Serving \(place.socketPath) (pid \(pid), build \(place.build), idle timeout 900 s)",
            "standfit-host: info: Exiting: asked to stop (3 requests served)",
        ], "\(exited)")
        #expect(!sandbox.server.listening())
        var manual = sandbox
        manual.extraEnvironment["STANDFIT_SERVER"] = "manual"
        #expect(Self.host(manual, "server", "status") == ProcessResult(status: 1, stdout: """
            No server of this build is running (socket \(document.socket)); the next command starts one unless STANDFIT_SERVER or config.json's "server" is 'off' or 'manual'.

            """, stderr: ""))
        // Both runs are in the log once each.
        #expect(Self.host(manual, "run", "viewstreak").stdout == "Streak: 1 day\nBest streak: 1 day · level 1 · 25 XP\n")
    }

    @Test("a server exits by itself: after serverIdleTimeout without a command, and once idle after its binary was replaced")
    func exitsByItself() throws {
        // Copies of both binaries, so that replacing the full host touches no other test's.
        let copies = makeTemporaryDirectory()
        for binary in [Fixtures.hostBinary, Fixtures.fullHostBinary] {
            try FileManager.default.copyItem(at: binary, to: copies.appendingPathComponent(binary.lastPathComponent))
        }
        let client = copies.appendingPathComponent("standfit-host")
        let full = copies.appendingPathComponent("standfit-host-full")
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "auto"
        let log = sandbox.root.appendingPathComponent("state/standfit/server.log")
        func logged() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        // The copies' own build (the servers' pids, the client's children's, are not known here).
        let place = try Self.place(sandbox, fullHost: full)

        // A cold command starts a server; a second of no command ends it.
        sandbox.writeConfig(#"{"serverIdleTimeout": 1}"#)
        #expect(runProcess(client, arguments: ["run", "viewstreak"], environment: sandbox.environment).status == 0)
        // Its log, not its socket: a server that lives a second may be gone before a busy machine looks.
        #expect(Self.eventually { Self.logLines(logged(), pids: true).contains(
            "standfit-host: info: Serving \(place.socketPath) (pid N, build \(place.build), idle timeout 1 s)") }, "no server was started: \(logged())")
        #expect(Self.eventually(15) { Self.logLines(logged()).contains("standfit-host: info: Exiting: idle for 1 s (0 requests served)") }, "\(logged())")
        #expect(Self.eventually { !sandbox.server.listening() }, "the idle server left its socket")

        // Another server; its binary is replaced (a new file at its path, as an upgrade does):
        // once idle it exits, and the next command starts one of the new build.
        sandbox.writeConfig(#"{"serverIdleTimeout": 30}"#)
        #expect(runProcess(client, arguments: ["run", "viewstreak"], environment: sandbox.environment).status == 0)
        #expect(Self.eventually { sandbox.server.listening() }, "no second server was started")
        let upgrade = copies.appendingPathComponent("standfit-host-full.new")
        try FileManager.default.copyItem(at: Fixtures.fullHostBinary, to: upgrade)
        #expect(rename(upgrade.path, full.path) == 0)
        #expect(Self.eventually(15) { Self.logLines(logged(), pids: true) == [
            "standfit-host: info: Serving \(place.socketPath) (pid N, build \(place.build), idle timeout 1 s)",
            "standfit-host: info: Exiting: idle for 1 s (0 requests served)",
            "standfit-host: info: Serving \(place.socketPath) (pid N, build \(place.build), idle timeout 30 s)",
            "standfit-host: info: Exiting: its binary \(full.path) was replaced (0 requests served)",
        ] }, "\(logged())")
        #expect(Self.eventually { !sandbox.server.listening() }, "the replaced server left its socket")
        var manual = sandbox
        manual.extraEnvironment["STANDFIT_SERVER"] = "manual"
        #expect(runProcess(client, arguments: ["server", "status"], environment: manual.environment).status == 1)
    }

    @Test("each request runs with its own language, time zone, clock and plugin path: warm answers as cold does")
    func perRequestFacts() throws {
        // Two homes given the same commands: one served warm, one run cold. Every answer,
        // logging included, must be the same bytes.
        let sandbox = HostSandbox.standFit(), coldHome = HostSandbox.standFit()
        #expect(sandbox.server.start(environment: sandbox.environment) == nil)
        #expect(sandbox.server.listening())
        var first: [String: ProcessResult] = [:]
        let variants: [[String: String]] = [
            ["LANG": "nl_NL.UTF-8"],
            ["TZ": "Asia/Tokyo", "STANDFIT_NOW": "2026-11-22T23:30:00Z"],
            ["TZ": "America/New_York", "LANG": "en_US.UTF-8"],
            ["STANDFIT_PLUGIN_PATH": Fixtures.cExamplePlugin.path],
        ]
        for variant in variants {
            for arguments in [["run", "logexercise", "exercise=squats", "count=3"], ["run", "viewprogress"], ["list"]] {
                var warm = sandbox, cold = coldHome
                warm.extraEnvironment.merge(variant) { $1 }
                warm.extraEnvironment["STANDFIT_SERVER"] = "manual"
                cold.extraEnvironment.merge(variant) { $1 }
                cold.extraEnvironment["STANDFIT_SERVER"] = "off"
                let coldResult = runProcess(Fixtures.hostBinary, arguments: arguments, environment: cold.environment)
                let warmResult = runProcess(Fixtures.hostBinary, arguments: arguments, environment: warm.environment)
                #expect(warmResult == coldResult, "\(variant) \(arguments)")
                if first[arguments.joined(separator: " ")] == nil { first[arguments.joined(separator: " ")] = warmResult }
            }
        }
        // And what they said is known, not only equal: the first of each, in Dutch.
        #expect(first["run logexercise exercise=squats count=3"] == ProcessResult(status: 0, stdout: """
            3 squats gelogd · +3 XP
            Prestatie behaald: Eerste log

            """, stderr: ""))
        #expect(first["run viewprogress"] == ProcessResult(status: 0, stdout: """
            Deze week, 16 nov – 22 nov 2026
            ma 16  · 0
            di 17  · 0
            wo 18  · 0
            do 19  · 0
            vr 20  · 0
            za 21  · 0
            zo 22  █ 1

            Per oefening
            Squats  █ 1 log, 3 herhalingen

            █ = 1 log

            """, stderr: ""))
        #expect(first["list"] == ProcessResult(status: 0, stdout: """
            1. Oefening loggen  (com.standfit.logexercise)
            2. Reeks bekijken — 1 dag  (com.standfit.viewstreak)
            3. Squats loggen — 3 herhalingen  (com.standfit.logexercise)
            4. Voortgang bekijken  (com.standfit.viewprogress)

            """, stderr: ""))
        let status = Self.host(sandbox, "server", "status", "--json")
        let document = try JSONDecoder().decode(Status.self, from: Data(status.stdout.utf8))
        #expect(document.requestsServed == variants.count * 3)
    }

    @Test("a socket directory others can enter is refused: the command runs cold and says how to fix it")
    func unsafeDirectory() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "auto"
        let directory = sandbox.server.socketDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        chmod(directory.path, 0o755)
        #expect(Self.host(sandbox, "run", "logexercise", "exercise=squats", "count=20") == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: """
            standfit-host: warning: the warm server is not started, because its socket directory \(directory.path) has mode 755, which lets others in; it must be 700; fix it with 'chmod 700 \(directory.path)', or set STANDFIT_SERVER=off to always run cold.

            """))
        var served = sandbox
        served.extraEnvironment["STANDFIT_SERVER"] = "manual"
        let serve = runProcess(Fixtures.fullHostBinary, arguments: ["serve"], environment: served.environment)
        #expect(serve == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: The server cannot start: the socket directory \(directory.path) has mode 755, which lets others in; it must be 700; fix it with 'chmod 700 \(directory.path)' and start the server again.

            """))
        #expect(!sandbox.server.listening())
    }

    @Test("STANDFIT_LOG_LEVEL sets the server log's level: 'warning' logs nothing of a quiet start and stop, a value it does not know is said in the log, which keeps info")
    func logLevel() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        /// The server's stderr lines without their timestamps.
        func serve(_ level: String) -> (status: Int32, lines: [String]) {
            var environment = sandbox.environment
            environment["STANDFIT_LOG_LEVEL"] = level
            let served = runProcess(Fixtures.fullHostBinary, arguments: ["serve", "--idle-timeout", "1"], environment: environment)
            return (served.status, served.stderr.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" })
        }
        let quiet = serve("warning")
        #expect(quiet.status == 0 && quiet.lines == [], "\(quiet)")
        let unknown = serve("loud")
        #expect(unknown.status == 0)
        #expect(unknown.lines.first == "standfit-host: warning: STANDFIT_LOG_LEVEL='loud' is not a log level; the server logs at info (set it to debug, info or warning).",
                "\(unknown)")
        // Its start and its idle exit, at info (the pid is of a process the test did not start itself).
        let place = try Self.place(sandbox)
        #expect(unknown.lines.dropFirst().map { $0.replacing(#/\(pid [0-9]+/#, with: "(pid N") } == [
            "standfit-host: info: Serving \(place.socketPath) (pid N, build \(place.build), idle timeout 1 s)",
            "standfit-host: info: Exiting: idle for 1 s (0 requests served)",
        ], "\(unknown)")
    }

    @Test("a socket directory that is a symbolic link or a file gets the advice that fits it, not chmod")
    func unsafeDirectoryAdvice() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        let directory = sandbox.server.socketDirectory
        try FileManager.default.createSymbolicLink(atPath: directory.path, withDestinationPath: sandbox.root.path)
        #expect(runProcess(Fixtures.fullHostBinary, arguments: ["serve"], environment: sandbox.environment) == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: The server cannot start: the socket directory \(directory.path) is a symbolic link, not a directory; remove the link with 'rm \(directory.path)' (the server makes the directory itself) and start the server again.

            """))
        try FileManager.default.removeItem(at: directory)
        try Data("x".utf8).write(to: directory)
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "auto"
        #expect(Self.host(sandbox, "run", "viewstreak") == ProcessResult(status: 0, stdout: "No streak yet: log an exercise today to start one.\n", stderr: """
            standfit-host: warning: the warm server is not started, because its socket directory \(directory.path) is not a directory; move it aside with 'mv \(directory.path) \(directory.path).old' (the server makes the directory itself), or set STANDFIT_SERVER=off to always run cold.

            """))
        #expect(!sandbox.server.listening())
    }

    @Test("a server killed while it runs a command: the client says so in one sentence and does not run it again")
    func serverKilledMidRequest() throws {
        let sandbox = try HostSandbox.zoo([Self.hang])
        sandbox.writeConfig(#"{"scanTimeout": 30, "handlerTimeout": 30}"#)
        let manual = Self.serving(sandbox)
        let server = try #require(sandbox.server.pid)
        let result = Locked<ProcessResult?>(nil)
        let environment = manual.environment
        let thread = Thread { result.update { $0 = runProcess(Fixtures.hostBinary, arguments: ["run", "com.zoo.hang-handler.run"], environment: environment) } }
        thread.start()
        var workers: [pid_t] = []
        #expect(Self.eventually {
            workers = ProcessTable.children(of: server)
            return !workers.isEmpty
        }, "the server started no worker")
        kill(server, SIGKILL)
        #expect(Self.eventually { result.value != nil })
        #expect(result.value == ProcessResult(status: 4, stdout: "", stderr: """
            standfit-host: error: The standfit-host server (pid \(server)) ended while it ran 'com.zoo.hang-handler.run'; the command was not run again, so check whether it took effect before you repeat it.

            """))
        // The worker dies with its server.
        #expect(Self.eventually(10) { !workers.contains(where: ProcessTable.isAlive) }, "a worker outlived its server")
    }

    @Test("Ctrl-C in the client cancels the request: exit 130, the worker gone, the server serves on", .needs(.tmux))
    func controlC() throws {
        let sandbox = try HostSandbox.zoo([Self.hang, FixturePlugins.zoo("plain.so")])
        sandbox.writeConfig(#"{"scanTimeout": 30, "handlerTimeout": 30}"#)
        let manual = Self.serving(sandbox)
        let server = try #require(sandbox.server.pid)
        let tmux = try TmuxSession(command: manual.shellCommand(["run", "com.zoo.hang-handler.run"]))
        var workers: [pid_t] = []
        #expect(Self.eventually {
            workers = ProcessTable.children(of: server)
            return !workers.isEmpty
        }, "the server started no worker")
        tmux.send("C-c")
        // The terminal echoes the key as ^C; the client says nothing of its own.
        #expect(tmux.wait(for: "EXIT=130") == "^CEXIT=130")
        #expect(Self.eventually(10) { !workers.contains(where: ProcessTable.isAlive) }, "the worker outlived the cancel")
        #expect(Self.host(manual, "run", "com.zoo.plain.run") == ProcessResult(status: 0, stdout: "zoo plain ran\n", stderr: ""))
        #expect(ProcessTable.isAlive(server))
    }

    @Test("SIGTERM and SIGHUP to the client cancel the request as Ctrl-C does: exit 143 and 129 (128 + the signal), the worker gone, nothing said, the server serves on",
          arguments: [(SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func clientSignals(signal: Int32, status expected: Int32) throws {
        let sandbox = try HostSandbox.zoo([Self.hang, FixturePlugins.zoo("plain.so")])
        sandbox.writeConfig(#"{"scanTimeout": 30, "handlerTimeout": 30}"#)
        let manual = Self.serving(sandbox)
        let server = try #require(sandbox.server.pid)
        let log = sandbox.root.appendingPathComponent("client.log")
        let client = try #require(spawnInBackground(Fixtures.hostBinary.path, ["run", "com.zoo.hang-handler.run"], environment: manual.environment, log: log))
        var workers: [pid_t] = []
        #expect(Self.eventually {
            workers = ProcessTable.children(of: server)
            return !workers.isEmpty
        }, "the server started no worker")
        kill(client, signal)
        var status: Int32 = 0
        #expect(waitpid(client, &status, 0) == client)
        // The client exits with the status the server answered, rather than dying of the signal.
        #expect(status & 0x7f == 0 && (status >> 8) & 0xff == expected, "wait status \(status)")
        #expect(try String(contentsOf: log, encoding: .utf8) == "")
        #expect(Self.eventually(10) { !workers.contains(where: ProcessTable.isAlive) }, "the worker outlived the cancel")
        #expect(Self.host(manual, "run", "com.zoo.plain.run") == ProcessResult(status: 0, stdout: "zoo plain ran\n", stderr: ""))
        #expect(ProcessTable.isAlive(server))
    }

    struct WorkerStatus: Decodable {
        struct Worker: Decodable, Equatable {
            var plugin: String
            var language: String
            var pid: Int32
            var busy: Bool
        }
        var workers: Int
        var workerList: [Worker]
    }

    @Test("honest counters (issue 31): a burst of 16 runs over four plugins never has more workers than serverWorkers, and the server counts every request once")
    func burstKeepsTheCap() throws {
        let sandbox = try HostSandbox(pluginPath: [Fixtures.swiftExamplePlugin, Fixtures.cExamplePlugin, Fixtures.waterExamplePlugin,
                                                  FixturePlugins.zoo("plain.so")])
        sandbox.writeConfig(#"{"serverWorkers": 2, "workerIdleTimeout": 120}"#)
        var manual = sandbox
        manual.extraEnvironment["STANDFIT_SERVER"] = "required"
        #expect(sandbox.server.start(environment: manual.environment) == nil)
        defer { sandbox.server.stopAll() }
        let server = try #require(sandbox.server.pid)
        /// The server's warm workers alive now (its children running `handler-worker`).
        @Sendable func workers() -> [pid_t] {
            ProcessTable.children(of: server).filter { pid in
                let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
                return command.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "handler-worker" }
            }
        }
        let types = ["com.example.greeter.greet", "com.example.hello.greet", "com.example.water.today", "com.zoo.plain.run"]
        let environment = manual.environment
        let statuses = Locked<[Int32]>([]), most = Locked(0), running = Locked(true)
        let sampler = Thread {
            while running.value { most.update { $0 = max($0, workers().count) }; usleep(1_000) }
        }
        sampler.start()
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let result = runProcess(Fixtures.hostBinary, arguments: ["run", types[index % types.count]], environment: environment)
            statuses.update { $0.append(result.status) }
        }
        running.update { $0 = false }
        usleep(10_000)
        #expect(statuses.value == Array(repeating: 0, count: 16))
        #expect(most.value <= 2, "\(most.value) workers at once, with serverWorkers 2")
        #expect(most.value >= 1)
        let status = Self.host(manual, "server", "status", "--json")
        let document = try JSONDecoder().decode(WorkerStatus.self, from: Data(status.stdout.utf8))
        #expect(document.workers <= 2 && document.workers == document.workerList.count)
        let counted = try JSONDecoder().decode(Status.self, from: Data(status.stdout.utf8))
        #expect(counted.requestsServed == 16)
    }

    @Test("the vetting the server keeps between commands sees every change at once (issue 31): chmod o+w of a plugin, of its directory, through a hard link elsewhere; the directory moved away and back; a plugin added, one renamed over another, one put in a directory the path names through a symbolic link")
    func keptVettingSeesChanges() throws {
        let base = HostSandbox(pluginPath: [])
        let plugins = base.root.appendingPathComponent("plugins"), elsewhere = base.root.appendingPathComponent("elsewhere")
        for directory in [plugins, elsewhere] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            chmod(directory.path, 0o755)
        }
        chmod(base.root.path, 0o755)
        let hello = plugins.appendingPathComponent("libhello.so")
        try FileManager.default.copyItem(at: Fixtures.cExamplePlugin, to: hello)
        chmod(hello.path, 0o755)
        var sandbox = base
        sandbox.pluginPath = [plugins]
        var manual = sandbox
        manual.extraEnvironment["STANDFIT_SERVER"] = "required"
        #expect(sandbox.server.start(environment: manual.environment) == nil)
        defer { sandbox.server.stopAll() }
        func runs(_ type: String = "com.example.hello.greet") -> ProcessResult { Self.host(manual, "run", type) }
        func refused(_ problem: String, _ type: String = "com.example.hello.greet") -> ProcessResult {
            ProcessResult(status: 2, stdout: "", stderr: "standfit-host: warning: Plugin \(hello.path) \(problem)\nstandfit-host: Unknown shortcut type '\(type)'; run 'standfit-host list --all' to see the types there are.\n")
        }
        let ran = runs()
        #expect(ran.status == 0, "\(ran)")
        #expect(runs() == ran)
        // The plugin itself.
        chmod(hello.path, 0o757)
        #expect(runs() == refused("is writable by others (mode 0757); run 'chmod go-w \(hello.path)' or remove it."))
        chmod(hello.path, 0o755)
        #expect(runs() == ran)
        // Its directory (the trust checks go up to the search-path entry).
        chmod(plugins.path, 0o757)
        #expect(runs() == refused("is in \(plugins.path), which is writable by others (mode 0757); run 'chmod go-w \(plugins.path)' or move the plugin to a directory only you can write to."))
        chmod(plugins.path, 0o755)
        #expect(runs() == ran)
        // The directory moved away and back.
        let moved = base.root.appendingPathComponent("moved")
        #expect(rename(plugins.path, moved.path) == 0)
        #expect(runs().status == 2)
        #expect(rename(moved.path, plugins.path) == 0)
        #expect(runs() == ran)
        // Through a second name in a directory nobody watches: the file's own watch sees it.
        let link = elsewhere.appendingPathComponent("same.so")
        #expect(Glibc.link(hello.path, link.path) == 0)
        chmod(link.path, 0o775)
        #expect(runs() == refused("is writable by its group (mode 0775); run 'chmod go-w \(hello.path)' or remove it."))
        chmod(link.path, 0o755)
        #expect(runs() == ran)
        // A plugin added runs at once; one renamed over another replaces it.
        let greeter = plugins.appendingPathComponent("libgreeter.so")
        try FileManager.default.copyItem(at: Fixtures.swiftExamplePlugin, to: greeter)
        chmod(greeter.path, 0o755)
        #expect(runs("com.example.greeter.greet").status == 0)
        #expect(rename(greeter.path, hello.path) == 0)
        #expect(runs().status == 2)
        #expect(runs("com.example.greeter.greet").status == 0)
        // A search-path entry that is a symbolic link to a directory: a plugin put in that
        // directory runs at once.
        let real = base.root.appendingPathComponent("real"), linked = base.root.appendingPathComponent("linked")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        chmod(real.path, 0o755)
        #expect(symlink(real.path, linked.path) == 0)
        var throughLink = manual
        throughLink.pluginPath = [linked]
        #expect(Self.host(throughLink, "run", "com.example.hello.greet").status == 2)
        let added = real.appendingPathComponent("libhello.so")
        try FileManager.default.copyItem(at: Fixtures.cExamplePlugin, to: added)
        chmod(added.path, 0o755)
        #expect(Self.host(throughLink, "run", "com.example.hello.greet").status == 0)
    }

    @Test("warm workers: one per plugin, kept between commands, each call in its own environment; a crash costs only its worker; the least recently used makes room, and idle ones stop")
    func warmWorkers() throws {
        let plain = try FixturePlugins.zoo("plain.so"), provider = try FixturePlugins.zoo("provider.so")
        let sandbox = try HostSandbox.zoo([plain, provider, FixturePlugins.zoo("crash-handler.so")])
        // Long enough that no worker goes idle between the checks below on a loaded machine.
        sandbox.writeConfig(#"{"serverWorkers": 2, "workerIdleTimeout": 120}"#)
        var manual = sandbox, cold = sandbox
        manual.extraEnvironment["STANDFIT_SERVER"] = "manual"
        cold.extraEnvironment["STANDFIT_SERVER"] = "off"
        #expect(sandbox.server.start(environment: manual.environment) == nil)
        func workers() throws -> [WorkerStatus.Worker] {
            let status = Self.host(manual, "server", "status", "--json")
            let document = try JSONDecoder().decode(WorkerStatus.self, from: Data(status.stdout.utf8))
            #expect(document.workers == document.workerList.count)
            return document.workerList
        }
        /// The same command warm and cold, with `extra` in the environment: the same answer.
        func both(_ extra: [String: String], _ arguments: String...) -> ProcessResult {
            var warm = manual, coldRun = cold
            warm.extraEnvironment.merge(extra) { $1 }
            coldRun.extraEnvironment.merge(extra) { $1 }
            let coldResult = runProcess(Fixtures.hostBinary, arguments: arguments, environment: coldRun.environment)
            let warmResult = runProcess(Fixtures.hostBinary, arguments: arguments, environment: warm.environment)
            #expect(warmResult == coldResult, "\(extra) \(arguments)")
            return warmResult
        }

        #expect(both([:], "run", "com.zoo.plain.run") == ProcessResult(status: 0, stdout: "zoo plain ran\n", stderr: ""))
        let first = try workers()
        #expect(first.map(\.plugin) == ["com.zoo.plain"] && first.map(\.busy) == [false])
        #expect(both([:], "run", "com.zoo.plain.run").status == 0)
        #expect(try workers() == first, "the worker was not kept for the next command")

        // The provider reads ZOO_PROVIDER_FAIL in each call: one worker, each call's environment.
        #expect(both([:], "run", "com.zoo.provider.run").stderr == "")
        let providerWorker = try #require(try workers().first { $0.plugin == "com.zoo.provider" })
        let failing = both(["ZOO_PROVIDER_FAIL": "1"], "run", "com.zoo.provider.run")
        #expect(failing.status == 0)
        #expect(failing.stderr == "standfit-host: warning: The dynamic provider of plugin 'com.zoo.provider' failed with status 1; its previous items are kept.\n")
        #expect(both([:], "run", "com.zoo.provider.run").stderr == "")
        #expect(try workers().first { $0.plugin == "com.zoo.provider" } == providerWorker)
        // A provider that crashes costs its worker: the next call gets a fresh one.
        let crashed = both(["ZOO_PROVIDER_FAIL": "crash"], "run", "com.zoo.provider.run")
        #expect(crashed.status == 0)
        #expect(crashed.stderr == "standfit-host: warning: The dynamic provider of plugin 'com.zoo.provider' crashed with SIGSEGV (segmentation fault) after its action was handled; its previous items are kept.\n")
        #expect(Self.eventually(20) { !ProcessTable.isAlive(providerWorker.pid) }, "the crashed worker is still running")
        #expect(both([:], "run", "com.zoo.provider.run").stderr == "")
        let fresh = try #require(try workers().first { $0.plugin == "com.zoo.provider" })
        #expect(fresh.pid != providerWorker.pid)

        // At most two: a third plugin's worker takes the place of the least recently used
        // (plain's); its handler crashes, which ends only its own worker, in today's words.
        let crash = both([:], "run", "com.zoo.crash-handler.run")
        #expect(crash.status == 4)
        #expect(crash.stderr == "standfit-host: Plugin 'com.zoo.crash-handler' crashed with SIGSEGV (segmentation fault) while running com.zoo.crash-handler.run; report this to the plugin's author.\n")
        #expect(try workers().map(\.plugin) == ["com.zoo.provider"])
        #expect(Self.eventually(20) { !ProcessTable.isAlive(first[0].pid) }, "the evicted worker is still running")
        #expect(ProcessTable.isAlive(try #require(sandbox.server.pid)))

        // Idle for workerIdleTimeout: stopped (a server started anew with 1 s).
        sandbox.server.stopAll()
        #expect(!ProcessTable.isAlive(fresh.pid))
        sandbox.writeConfig(#"{"serverWorkers": 2, "workerIdleTimeout": 1}"#)
        #expect(sandbox.server.start(environment: manual.environment) == nil)
        // The worker the run starts, seen by a sampler from before the run on: a status asked
        // after the run could come a second late on a loaded machine, when it has gone already.
        let server = try #require(sandbox.server.pid)
        let seen = Locked<Set<pid_t>>([]), sampling = Locked(true)
        let sampler = Thread {
            while sampling.value {
                let workers = ProcessTable.children(of: server).filter { pid in
                    let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
                    return command.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "handler-worker" }
                }
                seen.update { $0.formUnion(workers) }
                usleep(1_000)
            }
        }
        sampler.start()
        #expect(both([:], "run", "com.zoo.plain.run").status == 0)
        #expect(Self.eventually(15) { (try? workers())?.isEmpty == true }, "idle workers were not stopped")
        sampling.update { $0 = false }
        #expect(seen.value.count == 1, "the run's worker: \(seen.value)")
        #expect(!seen.value.contains(where: ProcessTable.isAlive), "an idle worker is still running")
    }

    /// Runs per client in `concurrentClients`: 25 by default (sixteen clients still overlap all
    /// the way), 200 with STANDFIT_TEST_HEAVY=1, the load the test was written for.
    static let runsPerClient = ProcessInfo.processInfo.environment["STANDFIT_TEST_HEAVY"] == "1" ? 200 : 25

    @Test("sixteen clients at once, 25 runs each (200 with STANDFIT_TEST_HEAVY=1): every run exits 0 and is logged exactly once", .needs(.sqlite3))
    func concurrentClients() throws {
        let sandbox = HostSandbox.standFit()
        let manual = Self.serving(sandbox)
        let environment = manual.environment
        let failures = Locked<[String]>([])
        let runs = Self.runsPerClient
        DispatchQueue.concurrentPerform(iterations: 16) { client in
            for run in 0..<runs {
                let result = runProcess(Fixtures.hostBinary, arguments: ["run", "logexercise", "exercise=squats", "count=\(client * runs + run + 1)"],
                                        environment: environment)
                if result.status != 0 { failures.update { $0.append("\(client)/\(run): \(result)") } }
            }
        }
        #expect(failures.value.count == 0, "\(failures.value.prefix(3))")
        #expect(sandbox.query(.standFit, "SELECT count(*) FROM log WHERE exercise = 'squats'") == ["\(16 * runs)"])
        #expect(sandbox.query(.standFit, "SELECT count(DISTINCT count) FROM log") == ["\(16 * runs)"])
    }

    @Test("requests run side by side: a command held up by its plugin holds up no other, and each keeps its own directory and umask")
    func sideBySide() throws {
        let plain = try FixturePlugins.zoo("plain.so")
        let sandbox = try HostSandbox.zoo([Self.hang, plain])
        sandbox.writeConfig(#"{"scanTimeout": 30, "handlerTimeout": 30}"#)
        let manual = Self.serving(sandbox)
        let server = try #require(sandbox.server.pid)
        let environment = manual.environment
        let held = Locked<ProcessResult?>(nil)
        let thread = Thread {
            let result = runProcess(Fixtures.hostBinary, arguments: ["run", "com.zoo.hang-handler.run"], environment: environment)
            held.update { $0 = result }
        }
        thread.start()
        #expect(Self.eventually { !ProcessTable.children(of: server).isEmpty }, "the server started no worker")
        // Served while the other command still waits for its plugin (it would for 30 s).
        #expect(runProcess(Fixtures.hostBinary, arguments: ["run", "com.zoo.plain.run"], environment: environment)
                == ProcessResult(status: 0, stdout: "zoo plain ran\n", stderr: ""))
        #expect(held.value == nil, "the held command ended before the other was served")

        // Six commands at once, each from its own directory with its own umask, each writing a
        // file at a relative path: every file lands in its command's directory, made with its umask.
        let masks = ["077", "022", "027", "077", "022", "002"]
        let directories = (0..<masks.count).map { sandbox.root.appendingPathComponent("client\($0)") }
        for directory in directories {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        let results = Locked<[Int: ProcessResult]>([:])
        DispatchQueue.concurrentPerform(iterations: masks.count) { index in
            let result = runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: [
                "-c", "cd \"$1\" && umask \(masks[index]) && exec \"$0\" export desktop --output made/standfit.desktop",
                Fixtures.hostBinary.path, directories[index].path,
            ], environment: environment)
            results.update { $0[index] = result }
        }
        for (index, directory) in directories.enumerated() {
            let made = directory.appendingPathComponent("made")
            #expect(results.value[index] == ProcessResult(status: 0, stdout: "Wrote made/standfit.desktop with 0 actions.\n", stderr: ""))
            #expect(FileManager.default.fileExists(atPath: made.appendingPathComponent("standfit.desktop").path))
            let mode = try FileManager.default.attributesOfItem(atPath: made.path)[.posixPermissions] as? Int
            #expect(mode == 0o777 & ~Int(masks[index], radix: 8)!, "client \(index) (umask \(masks[index]))")
        }
        #expect(!FileManager.default.fileExists(atPath: "/made"))

        // The held command ends with the server, and says so.
        kill(server, SIGTERM)
        #expect(Self.eventually { held.value != nil })
        #expect(held.value == ProcessResult(status: 143, stdout: "", stderr: """
            standfit-host: error: The server was stopped by signal 15 while this command ran, so it was cancelled; run it again.

            """))
    }

    @Test("a client whose output pipe closed early costs the server nothing: it serves on")
    func closedPipe() throws {
        let sandbox = HostSandbox.standFit()
        let manual = Self.serving(sandbox)
        let server = try #require(sandbox.server.pid)
        // The first commands the server runs (nothing has ignored SIGPIPE for it yet), their
        // output and log lines going to a pipe whose reader is gone before they start.
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        var statuses: [Int32] = []
        for arguments in [["--version"], ["list", "--verbose"]] {
            let process = Process()
            process.executableURL = Fixtures.hostBinary
            process.arguments = arguments
            process.environment = manual.environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = pipe.fileHandleForWriting
            process.standardError = pipe.fileHandleForWriting
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationReason == .exit, "\(arguments) was ended by signal \(process.terminationStatus)")
            statuses.append(process.terminationStatus)
        }
        #expect(statuses == [0, 0])
        #expect(ProcessTable.isAlive(server), "the server died of a closed pipe")
        let next = runProcess(Fixtures.hostBinary, arguments: ["server", "status", "--json"], environment: manual.environment)
        #expect(next.status == 0)
        let status = try JSONDecoder().decode(Status.self, from: Data(next.stdout.utf8))
        #expect(status.pid == server)
        // Both were served there, not run cold.
        #expect(status.requestsServed == 2)
    }

    @Test("socket activation: the server a service manager starts on the first command serves it, and a client of another build is sent the cold way", .needs(.systemdSocketActivate, .sqlite3))
    func socketActivation() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        let journal = sandbox.root.appendingPathComponent("journal.log")
        let pid = try #require(sandbox.server.startActivated(environment: sandbox.environment, log: journal))
        defer { sandbox.server.stopAll() }
        let first = Self.host(sandbox, "run", "logexercise", "exercise=squats", "count=20")
        #expect(first == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        func status() throws -> Status {
            let result = Self.host(sandbox, "server", "status", "--json")
            #expect(result.status == 0, "\(result)")
            return try JSONDecoder().decode(Status.self, from: Data(result.stdout.utf8))
        }
        // The service manager's process became the server: same pid, serving the passed socket.
        let served = try status()
        #expect(served.pid == pid)
        #expect(served.socketActivated == true)
        #expect(served.requestsServed == 1)

        // A client of another build (a copy of both binaries is another build): the server
        // sends it the cold way, and it runs the command itself, as it would with no server.
        let other = makeTemporaryDirectory()
        for binary in [Fixtures.hostBinary, Fixtures.fullHostBinary] {
            try FileManager.default.copyItem(at: binary, to: other.appendingPathComponent(binary.lastPathComponent))
        }
        let skewed = runProcess(other.appendingPathComponent("standfit-host"), arguments: ["run", "logexercise", "exercise=squats", "count=5"],
                                environment: sandbox.environment)
        #expect(skewed == ProcessResult(status: 0, stdout: "Logged 5 squats · +5 XP\n", stderr: ""))
        // Only the first status came in since: the skewed run was not served here.
        #expect(try status().requestsServed == 2)
        let log = try String(contentsOf: journal, encoding: .utf8)
        // It also took its build's own socket, so later commands of its build connect there first.
        let build = try Self.place(sandbox).build, otherBuild = try Self.place(sandbox, fullHost: other.appendingPathComponent("standfit-host-full")).build
        #expect(Self.logLines(log).contains(
            "standfit-host: info: Serving \(served.socket) and the socket the service manager passed (pid \(pid), build \(build), idle timeout 120 s)"), "\(log)")
        #expect(Self.logLines(log).contains("standfit-host: info: Handed back to run cold: a client of build \(otherBuild) asked; this server is build \(build)."), "\(log)")
        #expect(sandbox.query(.standFit, "SELECT count FROM log ORDER BY count") == ["5", "20"])

        #expect(Self.host(sandbox, "server", "stop") == ProcessResult(status: 0, stdout: "Stopped the server (pid \(pid)) after 4 requests.\n", stderr: ""))
        #expect(sandbox.server.waitForExit(), "the server did not exit")
    }

    @Test("a connection from another user is refused and logged, and the server serves its own user on", .needs(.setpriv, .python3),
          .enabled(if: getuid() == 0 || ProcessInfo.processInfo.environment["CI"] == "true",
                   "runs a process as another user, which needs root (as CI runs, where it is never skipped)"))
    func anotherUserRefused() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        let log = sandbox.root.appendingPathComponent("server.log")
        #expect(sandbox.server.start(environment: sandbox.environment, log: log) == nil)
        defer { sandbox.server.stopAll() }
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.server.socketDirectory.path)
        let name = try #require(names.first { $0.hasSuffix(".sock") })
        let socket = sandbox.server.socketDirectory.appendingPathComponent(name).path
        // The socket directory keeps other users out; to reach the server's peer check at all,
        // the socket is linked into a directory they can enter and made writable for them.
        let open = makeTemporaryDirectory()
        chmod(open.path, 0o755)
        let link = open.appendingPathComponent("host.sock").path
        #expect(Glibc.link(socket, link) == 0)
        chmod(link, 0o666)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            s.settimeout(5)
            print("closed" if s.recv(16) == b"" else "answered")
            """
        let stranger = runProcess(ExternalTool.setpriv.url,
                                  arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", ExternalTool.python3.path, "-c", script, link],
                                  environment: ["PATH": "/usr/bin:/bin"])
        #expect(stranger == ProcessResult(status: 0, stdout: "closed\n", stderr: ""))
        let words = try String(contentsOf: log, encoding: .utf8)
        // The stranger's pid (python's, under setpriv) is not known here.
        #expect(Self.logLines(words, pids: true).contains("standfit-host: warning: Refused a connection from user 65534 (pid N): this server serves user \(getuid()) only."),
                "\(words)")
        chmod(socket, 0o600)
        #expect(Self.host(sandbox, "run", "logexercise", "exercise=squats", "count=7") == ProcessResult(status: 0, stdout: "Logged 7 squats · +7 XP\nAchievement unlocked: First log\n", stderr: ""))
        let status = try JSONDecoder().decode(Status.self, from: Data(Self.host(sandbox, "server", "status", "--json").stdout.utf8))
        #expect(status.requestsServed == 1)
    }

    @Test("doctor says whether a server of this build is up, and so how plugins run now")
    func doctorSaysServer() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        func line(_ sandbox: HostSandbox) -> String {
            Self.host(sandbox, "doctor").stdout.split(separator: "\n").first { $0.hasPrefix("Warm server: ") }.map(String.init) ?? ""
        }
        let build = try Self.place(sandbox).build
        #expect(line(sandbox) == "Warm server: none of build \(build) is running; none is started (mode 'manual'); 'standfit-host serve' runs one. Run cold, trusted plugins run in-process and the others in worker processes.")
        #expect(sandbox.server.start(environment: sandbox.environment) == nil)
        defer { sandbox.server.stopAll() }
        let pid = try #require(sandbox.server.pid)
        // Its first request: none served before it, and no plugin run yet.
        #expect(line(sandbox) == "Warm server: this command ran in it (pid \(pid), build \(build), 0 requests served, 0 warm workers); every plugin runs in a warm worker, trusted or not.")
        var off = sandbox
        off.extraEnvironment["STANDFIT_SERVER"] = "off"
        #expect(line(off) == "Warm server: running (pid \(pid), build \(build)), but this command ran cold (mode 'off'); commands it serves run every plugin in a warm worker.")
    }

    @Test("server stop ends a server that commands keep reaching: it stops listening at once and exits when they have answered")
    func stopUnderLoad() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        #expect(sandbox.server.start(environment: sandbox.environment) == nil)
        defer { sandbox.server.stopAll() }
        // A shell asking the server for its version without pause: it is never idle. Started as
        // the servers are, holding no descriptor of the test process: a pipe another test's
        // command was being given would otherwise stay open, and that test wait, until it ends.
        let loop = "while :; do '\(Fixtures.hostBinary.path)' --version >/dev/null || echo failed >&2; done"
        let errors = sandbox.root.appendingPathComponent("load.err")
        let shell = try #require(spawnInBackground("/bin/sh", ["-c", loop], environment: sandbox.environment, log: errors))
        defer {
            kill(shell, SIGKILL)
            var status: Int32 = 0
            waitpid(shell, &status, 0)
        }
        // The load reaches the server before it is asked to stop.
        #expect(Self.eventually(10) {
            let result = Self.host(sandbox, "server", "status", "--json")
            let status = try? JSONDecoder().decode(Status.self, from: Data(result.stdout.utf8))
            return (status?.requestsServed ?? 0) >= 5
        }, "the load did not reach the server")
        #expect(Self.host(sandbox, "server", "stop").status == 0)
        #expect(sandbox.server.waitForExit(20), "the server kept serving")
        usleep(200_000)
        // Every command answered: warm before the stop, cold after it.
        #expect((try? String(contentsOf: errors, encoding: .utf8)) == "")
        #expect(!sandbox.server.listening())
    }
}
