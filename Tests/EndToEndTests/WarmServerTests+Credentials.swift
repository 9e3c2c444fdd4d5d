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
        try "#!/bin/sh\nexec \(ExternalTool.setpriv.path) --reuid=\(nobody) --regid=\(nobody) --groups=\(group) \(Fixtures.fullHostBinary.path) \"$@\"\n"
            .write(to: server, atomically: true, encoding: .utf8)
        chmod(server.path, 0o755)
        let log = sandbox.root.appendingPathComponent("server.log")
        #expect(sandbox.server.start(environment: sandbox.environment, log: log, fullHost: server) == nil, "\(sandbox.logs("server.log"))")
        defer { sandbox.server.stopAll() }
        func asNobody(_ groups: [String], _ arguments: String...) -> ProcessResult {
            runProcess(ExternalTool.setpriv.url, arguments: ["--reuid=\(nobody)", "--regid=\(nobody)"] + groups + [Fixtures.hostBinary.path] + arguments,
                       environment: sandbox.environment)
        }
        // Cold, and through the server, the client without the group is refused alike.
        #expect(asNobody(["--clear-groups"], "say", "--audio", audio.path, "--yes") == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: error: The audio file \(audio.path) cannot be read (Permission denied); check its name and permissions.\n"))
        let words = try String(contentsOf: log, encoding: .utf8)
        #expect(words.contains("whose credentials are not this server's asked: its supplementary groups differ (without [\(group)]); it runs its command cold, with its own."), "\(words)")
        // A client in the group is served, and logs.
        #expect(asNobody(["--groups=\(group)"], "say", "--audio", audio.path, "--yes") == ProcessResult(status: 0,
            stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: "Heard: log twenty squat\n"))
        let status = try JSONDecoder().decode(Status.self, from: Data(asNobody(["--groups=\(group)"], "server", "status", "--json").stdout.utf8))
        #expect(status.requestsServed == 1)
    }
}
