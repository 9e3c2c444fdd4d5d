import Foundation
import Synchronization
import Testing
import TestSupport

/// Rules the test suite holds itself to (issue 53).
@Suite("The test suite's own rules", .timeLimit(.minutes(10)))
struct TestSuiteRulesTests {
    @Test("every suite has a time limit, so a test that hangs fails by name instead of holding CI until it is killed")
    func everySuiteHasATimeLimit() throws {
        let tests = Fixtures.packageRoot.appendingPathComponent("Tests")
        let files = try #require(FileManager.default.enumerator(atPath: tests.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        var suites = 0
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("@Suite(") {
                suites += 1
                #expect(line.contains(".timeLimit("), "\(file): \(line)")
            }
        }
        #expect(suites > 50)
    }

    @Test("the warm pass proves each command was served: one the server hands back without meaning to (config.json's server mode off) fails the test that ran it, naming the command and the server's reason, whether the test ran it with run or started it itself inside checkingHandBacks; help, handed back by design, does not; without the check this test fails")
    func warmPassCatchesHandBacks() throws {
        var warm = HostSandbox.standFit()
        warm.path = .warm
        // Not "required" (which wins over config.json's mode): empty, so the file's "off" holds.
        warm.extraEnvironment["STANDFIT_SERVER"] = ""
        let sandbox = warm
        try FileManager.default.createDirectory(at: sandbox.configDirectory, withIntermediateDirectories: true)
        try Data(#"{"server": "off"}"#.utf8).write(to: sandbox.configDirectory.appendingPathComponent("config.json"))
        // Served cold after the hand-back, the command itself succeeds: only the check tells.
        withKnownIssue("the check in HostSandbox.run records the hand-back") {
            #expect(sandbox.run("run", "viewstreak") == ProcessResult(status: 0, stdout: "No streak yet: log an exercise today to start one.\n", stderr: """
                standfit-host: warning: STANDFIT_SERVER is '', which names no mode, so it is ignored; set it to auto, manual, off or required, or unset it (config.json's "server" then applies).

                """))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix("The warm server did not serve 'run viewstreak': ")
                && issue.comments.map(\.rawValue).joined().hasSuffix("standfit-host: info: Handed back to run cold: config.json's server mode is off (pid \(Self.pidInLog(sandbox)))")
        }
        // A command a test starts itself (in a shell, in tmux) is checked the same way when it
        // runs inside checkingHandBacks.
        withKnownIssue("checkingHandBacks records the hand-back of a command started by hand") {
            let result = sandbox.checkingHandBacks("run viewstreak (by hand)") {
                runProcess(Fixtures.hostBinary, arguments: ["run", "viewstreak"], environment: sandbox.environment)
            }
            #expect(result.status == 0, "\(result)")
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix("The warm server did not serve 'run viewstreak (by hand)': ")
                && issue.comments.map(\.rawValue).joined().hasSuffix("standfit-host: info: Handed back to run cold: config.json's server mode is off (pid \(Self.pidInLog(sandbox)))")
        }
        // Help runs in the client's own process by design: no issue (an unexpected one fails here).
        #expect(sandbox.run("--help").status == 0)
    }

    @Test("a test that runs an outside program it did not declare with .needs records an issue naming the program and its package; one it declared runs unremarked",
          .needs(.sqlite3))
    func undeclaredToolIsCaught() {
        // Declared (on this test): no issue.
        #expect(ExternalTool.sqlite3.url.path == "/usr/bin/sqlite3")
        // Not declared: the path is given all the same, and the test records why it should not be.
        let said = Mutex<[String]>([])
        withKnownIssue("tmux was used without being declared") {
            _ = ExternalTool.tmux.path
        } matching: { issue in
            said.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        #expect(said.withLock { Set($0) } == ["'undeclaredToolIsCaught()' runs tmux without declaring it: name it in .needs(…) on the test or its suite, or the test fails instead of skipping where tmux is not installed."])
    }

    @Test("a fixture a tool could not build ends the test that asks for it with one issue: the one error it throws names the fixture and gives the tool's words, and nothing after it runs")
    func unbuiltFixtureEndsItsTest() throws {
        // A compiler that fails as a broken toolchain does: in words of its own, with a status.
        let compiler = makeTemporaryDirectory("standfit-failing-compiler").appendingPathComponent("failing-cc")
        try writeProgram("#!/bin/sh\necho 'failing-cc: cannot compile today' >&2\nexit 3\n", to: compiler)
        let said = "The test fixture kinds.so was not built: failing-cc exited with status 3: failing-cc: cannot compile today\n"
        let error = #expect(throws: FixtureNotBuilt.self) {
            try FixturePlugins.compiled("kinds.c", as: "kinds.so", with: compiler)
        }
        #expect(error?.description == said)
        #expect(error?.file == "kinds.so")
        // As a test meets it: the error is its issue, and the test goes no further, so no
        // follow-on failure piles up after it. (The matcher may see an issue more than once.)
        let issues = Mutex<Set<String>>([])
        try withKnownIssue("the fixture was not built") {
            let kinds = try FixturePlugins.compiled("kinds.c", as: "kinds.so", with: compiler)
            Issue.record("not reached: the test went on with \(kinds.path)")
        } matching: { issue in
            let words = issue.error.map { "\($0)" } ?? issue.comments.map(\.rawValue).joined()
            issues.withLock { _ = $0.insert(words) }
            return true
        }
        #expect(issues.withLock { $0 } == [said])
    }

    /// The pid in the server log's last hand-back line.
    static func pidInLog(_ sandbox: HostSandbox) -> String {
        let log = (try? String(contentsOf: sandbox.root.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        guard let line = log.split(separator: "\n").last(where: { $0.contains("Handed back to run cold: config.json") }),
              let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { return "?" }
        return String(line[line.index(open, offsetBy: "(pid ".count)..<close])
    }
}

