import Foundation
import Testing
import TestSupport

/// The mistakes plugin authors make, each a fixture in `Tests/Fixtures/Mistakes`, and what
/// `plugins check` says about it. The sentences are the ones docs/PLUGIN_GUIDE.md quotes in
/// "Mistakes the validator catches": this test reads them from there, so the guide cannot drift
/// from what the host says, and every fixture must have its row.
@Suite("Mistakes the validator catches", .timeLimit(.minutes(10)))
struct MistakeTests {
    /// One row of the guide's table.
    struct Row: CustomTestStringConvertible, Sendable {
        var fixture: String
        /// What `plugins check` prints for it (part of a line, after the plugin's path).
        var message: String
        /// `plugins check`'s exit status: 4 refused or quarantined, 0 loads with a warning.
        var status: Int32
        var testDescription: String { fixture }
    }

    /// The rows of the table under "## Mistakes the validator catches":
    /// `| n | mistake | `fixture` | `message` | status |`.
    static let rows: [Row] = {
        let guide = (try? String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/PLUGIN_GUIDE.md"), encoding: .utf8)) ?? ""
        guard let section = guide.components(separatedBy: "## Mistakes the validator catches").dropFirst().first else { return [] }
        let body = section.components(separatedBy: "\n## ").first ?? ""
        return body.split(separator: "\n").compactMap { line -> Row? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 7, Int(cells[1]) != nil, let status = Int32(cells[5]) else { return nil }
            func code(_ cell: String) -> String? {
                guard cell.hasPrefix("`"), cell.hasSuffix("`"), cell.count > 2 else { return nil }
                return String(cell.dropFirst().dropLast())
            }
            guard let fixture = code(cells[3]), let message = code(cells[4]) else { return nil }
            return Row(fixture: fixture, message: message, status: status)
        }
    }()

    /// The fixtures in the directory, by the name of the plugin file they build.
    static let fixtures: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Mistakes").path)) ?? []
        let built = files.filter { $0.hasSuffix(".c") && $0 != "good.c" && $0 != "swapped-arguments.c" }.map { String($0.dropLast(2)) }
        return (built + ["static-library", "rust-dylib"]).sorted()
    }()

    static let cRows = rows.filter { $0.fixture != "rust-dylib" }

    @Test("the guide has a row for every mistake fixture, at least 15")
    func everyFixtureListed() {
        #expect(Self.rows.count >= 15)
        #expect(Self.rows.map(\.fixture).sorted() == Self.fixtures)
        #expect(Set(Self.rows.map(\.message)).count == Self.rows.count, "two rows quote the same sentence")
    }

    @Test("plugins check says what the guide quotes, with the guide's exit status", arguments: cRows)
    func says(_ row: Row) throws {
        try expect(row, file: FixturePlugins.mistake("\(row.fixture).so"))
    }

    @Test("a Rust crate built as dylib is told to be a cdylib", .needs(.rustc))
    func rustDylib() throws {
        let row = try #require(Self.rows.first { $0.fixture == "rust-dylib" })
        try expect(row, file: FixturePlugins.rustDylib())
    }

    func expect(_ row: Row, file: URL) {
        let sandbox = HostSandbox(pluginPath: [])
        let check = sandbox.run("plugins", "check", file.path)
        #expect(check.status == row.status, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains(row.message), "\(check.stdout)")
        // A plugin that loads with a warning fails --strict; one that does not load fails as before.
        let strict = sandbox.run("plugins", "check", "--strict", file.path)
        #expect(strict.status == (row.status == 0 ? 1 : row.status))
        // What plugins check --json says is the same sentence.
        let json = sandbox.run("plugins", "check", "--json", file.path)
        let document = try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let said = ((document?["warnings"] as? [String]) ?? []) + [(document?["refusal"] as? String) ?? ""]
        #expect(said.contains { $0.contains(row.message) }, "\(json.stdout)")
    }

    @Test("the good water plugin passes --strict with no warnings")
    func good() throws {
        let good = try FixturePlugins.mistake("good.so")
        let check = HostSandbox(pluginPath: []).run("plugins", "check", "--strict", good.path)
        #expect(check.status == 0)
        #expect(withoutInitTime(check.stdout) == """
            Plugin \(good.path)
              id: com.fixture.water 1.0.0 ("Water"), ABI 1.0
              init: N ms
              sha256: \(sha256(of: good))
              runs: in a worker process (not trusted; 'standfit-host plugins trust' pins it)
              types:
                com.fixture.water.log "Log Water" (ml: int = 250)
                  icon: drop.fill
              static items: none
              dynamic provider: no
            OK: com.fixture.water loads, with 1 type and no warnings.

            """, "\(check.stdout)")
    }

    @Test("a handler whose arguments disagree with STANDFIT_DECLARE_HANDLER does not compile")
    func swappedArguments() {
        let include = Fixtures.packageRoot.appendingPathComponent("Sources/CStandFitABI/include").path
        let output = makeTemporaryDirectory("standfit-swapped").appendingPathComponent("swapped.so")
        let result = runProcess(FixturePlugins.cCompiler, arguments: [
            "-shared", "-fPIC", "-fvisibility=hidden", "-I", include, "-o", output.path,
            Fixtures.url("Mistakes/swapped-arguments.c").path,
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("conflicting types for"), "\(result.stderr)")
        #expect(result.stderr.contains("log_cold"), "\(result.stderr)")
    }
}
