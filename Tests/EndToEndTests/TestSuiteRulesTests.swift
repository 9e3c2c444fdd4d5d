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
}
