import Foundation
import Testing
import TestSupport

/// What the README promises that no other test holds it to: every `--json` error code, and that a
/// cold command never loads libsystemd.
@Suite("The README's promises", .timeLimit(.minutes(10)))
struct ReadmeClaimsTests {
    /// What `--json` prints when the command cannot start: its code, exit 5, nothing on stderr.
    static func errorCode(_ result: ProcessResult) throws -> String? {
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr == "", "\(result)")
        struct Document: Decodable { var status: String; var code: String; var message: String }
        let document = try JSONDecoder().decode(Document.self, from: Data(result.stdout.utf8))
        #expect(document.status == "error")
        #expect(!document.message.isEmpty)
        return document.code
    }

    @Test("each --json error code the README lists comes with exit 5 and one document")
    func jsonErrorCodes() throws {
        let sandbox = HostSandbox.standFit()
        let root = sandbox.root
        let missing = root.appendingPathComponent("none.plist").path
        #expect(try Self.errorCode(sandbox.run("list", "--json", "--manifest", missing)) == "manifest-not-found")
        #expect(try Self.errorCode(sandbox.run("list", "--json", "--manifest", Fixtures.url("Manifests/malformed.plist").path)) == "manifest-invalid")
        #expect(try Self.errorCode(sandbox.run("list", "--json", "--manifest", Fixtures.url("Manifests/examples.plist").path)) == "variable-unresolved")

        // A strings table that is neither UTF-8 nor UTF-16.
        let manifestDirectory = root.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: manifestDirectory.appendingPathComponent("en.lproj"), withIntermediateDirectories: true)
        let manifest = manifestDirectory.appendingPathComponent("Info.json")
        try Data(#"{"UIApplicationShortcutItems": [{"UIApplicationShortcutItemType": "com.example.x", "UIApplicationShortcutItemTitle": "X"}]}"#.utf8)
            .write(to: manifest)
        try Data([0xC3, 0x28, 0xA0]).write(to: manifestDirectory.appendingPathComponent("en.lproj/InfoPlist.strings"))
        #expect(try Self.errorCode(sandbox.run("list", "--json", "--locale", "en", "--manifest", manifest.path)) == "strings-invalid")

        #expect(try Self.errorCode(sandbox.run(["dynamic", "set", "-", "--json"], stdin: #"{"type": "a"}"#)) == "dynamic-items-invalid")
        #expect(try Self.errorCode(sandbox.run("plugins", "trust", root.appendingPathComponent("none.so").path, "--json")) == "plugin-untrustworthy")
        let occupied = root.appendingPathComponent("occupied")
        try FileManager.default.createDirectory(at: occupied, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: occupied.appendingPathComponent("notes.txt"))
        #expect(try Self.errorCode(sandbox.run("plugins", "new", "com.test.water", occupied.path, "--language", "c", "--json")) == "io")

        sandbox.writeConfig(#"{"menuLimit": "four"}"#)
        #expect(try Self.errorCode(sandbox.run("list", "--json")) == "config-invalid")
        sandbox.writeConfig("{}")
        // A state that is no database (replaced while no server has it open).
        sandbox.server.stopAll()
        let state = sandbox.dataHome.appendingPathComponent("standfit/state.sqlite")
        try FileManager.default.createDirectory(at: state.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a database\n".utf8).write(to: state)
        #expect(try Self.errorCode(sandbox.run("list", "--json")) == "state")
    }

    @Test("the --json error codes with a status of their own: schedule-invalid (3), unknown-schedule (2), backup-invalid (5); each one document on stdout, word for word, nothing on stderr",
          .needs(.systemdAnalyze))
    func jsonErrorCodesWithTheirStatus() throws {
        let sandbox = HostSandbox.standFit()
        let notes = sandbox.root.appendingPathComponent("notes.txt")
        try Data("hello\n".utf8).write(to: notes)
        func document(_ code: String, _ message: String) -> String {
            "{\n  \"code\" : \"\(code)\",\n  \"message\" : \"\(message)\",\n  \"status\" : \"error\"\n}\n"
        }
        #expect(sandbox.run("schedule", "add", "every morning", "viewstreak", "--json") == ProcessResult(status: 3, stdout: document("schedule-invalid",
            "'every morning' is not a time systemd reads; give a calendar expression such as 'Mon..Fri 07:00', 'daily' or '*-*-* 09,13,17:00' (systemd.time(7), 'Calendar Events')."), stderr: ""))
        #expect(sandbox.run("schedule", "remove", "99", "--json") == ProcessResult(status: 2, stdout: document("unknown-schedule",
            "There is no schedule 99; there are none ('standfit-host schedule add' makes one)."), stderr: ""))
        #expect(sandbox.run("restore", notes.path, "--json") == ProcessResult(status: 5, stdout: document("backup-invalid",
            "\(notes.path) is not a standfit-host backup; give a file 'standfit-host backup' wrote."), stderr: ""))
    }

    @Test("a cold command never loads libsystemd: only the server (and --notify's notification) opens sd-bus")
    func coldCommandsLeaveSystemdAlone() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "off"
        let trace = makeTemporaryDirectory("standfit-ld-trace")
        sandbox.extraEnvironment["LD_DEBUG"] = "files"
        sandbox.extraEnvironment["LD_DEBUG_OUTPUT"] = trace.appendingPathComponent("ld").path
        // Cold on either pass, and no server started meanwhile (its libsystemd would be traced too).
        for arguments in [["run", "logexercise", "exercise=squats", "count=20"], ["list"], ["doctor"]] {
            #expect(runProcess(Fixtures.hostBinary, arguments: arguments, environment: sandbox.environment).status == 0)
        }
        let traces = try FileManager.default.contentsOfDirectory(atPath: trace.path).map {
            try String(contentsOf: trace.appendingPathComponent($0), encoding: .utf8)
        }
        // The full host ran (and loaded its libraries), and none of them was libsystemd.
        #expect(traces.contains { $0.contains("libsqlite3") })
        #expect(!traces.contains { $0.contains("libsystemd") })
    }
}
