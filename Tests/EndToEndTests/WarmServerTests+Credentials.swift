import Foundation
import Glibc
import Testing
import TestSupport

/// The server acts with its clients' credentials (issue 50): a client that has fewer groups than
/// the server (it dropped one) is not served, so it cannot read through the server a file its
/// own groups keep from it.
extension WarmServerTests {
    @Test("a client without the group a file needs cannot have the server read it: say --audio of a group-only recording is refused as cold refuses it, and served for a client in the group",
          .needs(.setpriv, .espeak, .sox, .pocketsphinx, .pocketsphinxEnglish),
          .enabled(if: getuid() == 0 || ProcessInfo.processInfo.environment["CI"] == "true",
                   "runs the server and the client as another user, which needs root (as CI runs, where it is never skipped)"))
    func clientCredentials() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        let nobody: uid_t = 65534, group: gid_t = 4242
        // A recording only group 4242 may read.
        let audio = sandbox.root.appendingPathComponent("private.wav")
        #expect(runProcess(ExternalTool.espeak.url, arguments: ["-v", "en-us", "-w", audio.path, "log twenty squats"]).status == 0)
        // The sandbox is the user's (nobody's) home; the recording root's, in group 4242.
        let everything = FileManager.default.enumerator(atPath: sandbox.root.path).map { Array($0).compactMap { $0 as? String } } ?? []
        for path in [sandbox.root.path] + everything.map({ sandbox.root.appendingPathComponent($0).path }) {
            #expect(lchown(path, nobody, nobody) == 0)
        }
        #expect(chown(audio.path, 0, group) == 0 && chmod(audio.path, 0o640) == 0)
        // The server as nobody in group 4242 (its log is root's file, opened before it drops).
        let server = sandbox.root.appendingPathComponent("server-as-nobody")
        try writeProgram("#!/bin/sh\nexec \(ExternalTool.setpriv.path) --reuid=\(nobody) --regid=\(nobody) --groups=\(group) \(Fixtures.fullHostBinary.path) \"$@\"\n",
                         to: server)
        let log = sandbox.root.appendingPathComponent("server.log")
        #expect(sandbox.server.start(environment: sandbox.environment, log: log, fullHost: server) == nil, "\(sandbox.logs("server.log"))")
        defer { sandbox.server.stopAll() }
        func asNobody(_ groups: [String], _ arguments: String..., stdin: String? = nil) -> ProcessResult {
            runProcess(ExternalTool.setpriv.url, arguments: ["--reuid=\(nobody)", "--regid=\(nobody)"] + groups + [Fixtures.hostBinary.path] + arguments,
                       environment: sandbox.environment, stdin: stdin)
        }
        // Cold, and through the server, the client without the group is refused alike.
        #expect(asNobody(["--clear-groups"], "say", "--audio", audio.path, "--yes") == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: error: The audio file \(audio.path) cannot be read (Permission denied); check its name and permissions.\n"))
        let words = try String(contentsOf: log, encoding: .utf8)
        // The client's pid (setpriv's, become the host's) is not known here.
        #expect(Self.logLines(words, pids: true).contains(
            "standfit-host: info: Handed back to run cold: a client (pid N) whose credentials are not this server's asked: its supplementary groups differ (without [\(group)]); it runs its command with its own."),
                "\(words)")
        // A client in the group is served, and logs.
        #expect(asNobody(["--groups=\(group)"], "say", "--audio", audio.path, stdin: "y\n") == ProcessResult(status: 0,
            stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: "Heard: log twenty squat\nLog 20 squat? [y/N] "))
        let status = try JSONDecoder().decode(Status.self, from: Data(asNobody(["--groups=\(group)"], "server", "status", "--json").stdout.utf8))
        #expect(status.requestsServed == 1)
    }

    @Test("the bus hand-over joins only a bus of this user's: a server the bus starts (serve --dbus-activated) asks the running one to take another user's bus (a dbus-daemon run as nobody): refused; a socket that accepts and never answers: given up within seconds; server take-bus typed by hand is refused (69); the server serves on",
          .needs(.setpriv, .dbusDaemon, .python3),
          .enabled(if: getuid() == 0 || ProcessInfo.processInfo.environment["CI"] == "true",
                   "runs a bus as another user, which needs root (as CI runs, where it is never skipped)"))
    func takeBusVerified() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        let log = sandbox.root.appendingPathComponent("server.log")
        #expect(sandbox.server.start(environment: sandbox.environment, log: log) == nil)
        defer { sandbox.server.stopAll() }
        let pid = try #require(sandbox.server.pid)
        // Nobody's session bus, in a directory of nobody's.
        let stranger = HostSandbox.standFit()
        #expect(chown(stranger.root.path, 65534, 65534) == 0)
        let foreign = try #require(SessionBus(sandbox: stranger, user: 65534), "nobody's bus did not start")
        defer { foreign.stop() }
        // What the bus runs when it activates the host: a server of this build, which finds the
        // socket taken and asks its server to take the bus it was started for.
        func activated(_ address: String) -> ProcessResult {
            var environment = sandbox.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = address
            return runProcess(Fixtures.fullHostBinary, arguments: ["serve", "--dbus-activated"], environment: environment)
        }
        func serverLog() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        #expect(activated(foreign.address).status == 0)
        #expect(Self.logLines(serverLog()).contains(
            "standfit-host: warning: Not on the session bus: the bus at \(foreign.address) is not run by this user (uid \(getuid())), so it is not joined; the desktop front door is closed (commands are not affected)."),
                "\(serverLog())")
        #expect(!serverLog().contains("Refused server take-bus"), "\(serverLog())")
        // A socket of this user's that accepts and never answers.
        let silent = sandbox.root.appendingPathComponent("silent.sock").path
        let script = "import socket, sys, time\ns = socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\ns.listen(8)\nheld = []\nwhile True:\n    held.append(s.accept())\n"
        let listener = try #require(spawnInBackground(ExternalTool.python3.path, ["-c", script, silent], environment: ["PATH": "/usr/bin:/bin"], log: nil, ownGroup: true))
        defer { endGroup(listener) }
        #expect(TestSupport.eventually(10) { FileManager.default.fileExists(atPath: silent) })
        #expect(activated("unix:path=\(silent)").status == 0)
        // The running server's 5 s and the activated one's own 5 s (was 90 s each), as the
        // log says it; no clock is read here.
        #expect(Self.logLines(serverLog()).contains(
            "standfit-host: warning: Not on the session bus: the bus at unix:path=\(silent) did not answer within 5 s, so it is not joined; the desktop front door is closed (commands are not affected)."),
                "\(serverLog())")
        // Typed by hand (or sent by any process that is not an activated server of this build).
        var environment = sandbox.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(silent)"
        #expect(runProcess(Fixtures.hostBinary, arguments: ["server", "take-bus"], environment: environment) == ProcessResult(status: 69, stdout: "",
            stderr: "standfit-host: error: server take-bus is the hand-over between two servers of this build, asked only by the one the session bus starts ('serve --dbus-activated'); there is nothing to run by hand: the bus starts that server itself.\n"))
        // The pid of the client typed by hand is not known here.
        #expect(Self.logLines(serverLog()).contains { $0.replacing(#/from pid [0-9]+:/#, with: "from pid N:")
            == "standfit-host: warning: Refused server take-bus from pid N: only a server of this build that the session bus started asks it." },
                "\(serverLog())")
        #expect(kill(pid, 0) == 0)
        #expect(WarmServerTests.host(sandbox, "run", "viewstreak").status == 0)
    }
}
