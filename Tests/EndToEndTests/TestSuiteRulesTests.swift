import Foundation
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

    @Test("the warm pass proves each command was served: one the server hands back without meaning to (config.json's server mode off) fails the test that ran it, naming the command and the server's reason; help, handed back by design, does not; without the check this test fails")
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
        // Help runs in the client's own process by design: no issue (an unexpected one fails here).
        #expect(sandbox.run("--help").status == 0)
    }

    /// The pid in the server log's last hand-back line.
    static func pidInLog(_ sandbox: HostSandbox) -> String {
        let log = (try? String(contentsOf: sandbox.root.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        guard let line = log.split(separator: "\n").last(where: { $0.contains("Handed back to run cold: config.json") }),
              let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { return "?" }
        return String(line[line.index(open, offsetBy: "(pid ".count)..<close])
    }
}

