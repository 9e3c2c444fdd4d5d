import Foundation
import Testing
import TestSupport

/// `plugins new ID --language c|swift|rust`: what it writes, on both paths, since the warm server
/// writes it in the client's working directory. `ScaffoldBuildTests` builds it.
@Suite("plugins new: a plugin in C, Swift or Rust that builds, checks and runs", .timeLimit(.minutes(10)))
struct ScaffoldTests {
    static let sdk = Fixtures.packageRoot.appendingPathComponent("SDK/standfit-plugin-sdk")

    /// A sandbox whose working directory is a fresh directory, where `plugins new` writes.
    static func sandbox() -> (HostSandbox, URL) {
        let sandbox = HostSandbox(pluginPath: [])
        let work = sandbox.root.appendingPathComponent("work")
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return (sandbox, work)
    }

    /// Runs `plugins new` from `work`.
    static func new(_ sandbox: HostSandbox, in work: URL, _ arguments: [String],
                    sourceLocation: SourceLocation = #_sourceLocation) -> ProcessResult {
        // The command runs from `work`: `cd` in a shell, so the warm server sees that directory too.
        let command = ([Fixtures.hostBinary.path, "plugins", "new"] + arguments).map(shellQuoted).joined(separator: " ")
        #expect(sandbox.serveWarmPath() == nil, sourceLocation: sourceLocation)
        return sandbox.checkingHandBacks((["plugins", "new"] + arguments).joined(separator: " "), sourceLocation: sourceLocation) {
            runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "cd \(shellQuoted(work.path)) && exec \(command)"],
                       environment: sandbox.environment)
        }
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Builds the skeleton in `directory` with `tool` and its arguments.
    static func build(_ tool: URL, _ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment.merge(FixturePlugins.compilerEnvironment) { $1 }
        environment.merge(extra) { $1 }
        let command = ([tool.path] + arguments).map(shellQuoted).joined(separator: " ")
        return runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "cd \(shellQuoted(directory.path)) && exec \(command) 2>&1"],
                          environment: environment)
    }

    /// Checks and runs the built plugin at `product`.
    static func checkAndRun(_ sandbox: HostSandbox, product: URL, id: String) {
        var sandbox = sandbox
        sandbox.pluginPath = [product]
        let check = sandbox.run("plugins", "check", "--strict", product.path)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.hasSuffix("OK: \(id) loads, with 1 type and no warnings.\n"), "\(check.stdout)")
        #expect(sandbox.run("run", "greet", "name=Ada", "times=2") == ProcessResult(status: 0, stdout: "Hello, Ada! Hello, Ada!\n", stderr: ""))
        // Run by name, the type takes its one static item's userInfo.
        #expect(sandbox.run("run", "greet") == ProcessResult(status: 0, stdout: "Hello, Ada!\n", stderr: ""))
        #expect(sandbox.run("run", "greet", "times=3", "name=world").stdout == "Hello, world! Hello, world! Hello, world!\n")
        #expect(sandbox.run("run", "greet", "times=50") == ProcessResult(
            status: 3, stdout: "", stderr: "standfit-host: times: expected a number from 1 to 10, got 50.\n"))
        #expect(sandbox.run("list").stdout == "1. Greet Ada  (\(id).greet)\n")
    }

    @Test("what it writes for each language, and the sentence that says so")
    func writes() throws {
        let (sandbox, work) = Self.sandbox()
        let c = Self.new(sandbox, in: work, ["com.test.water", "--language", "c", "--sdk", Self.sdk.path])
        #expect(c == ProcessResult(status: 0, stdout: "Wrote com.test.water in c to \(work.path)/water; build it there with 'make', then 'standfit-host plugins check --strict libwater.so'.\n", stderr: ""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("water").path).sorted()
            == [".gitignore", "Makefile", "README.md", "water.c"])
        let swift = Self.new(sandbox, in: work, ["com.test.step-counter", "--language", "swift", "mine", "--sdk", Self.sdk.path, "--json"])
        #expect(swift.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(swift.stdout.utf8)) as? [String: Any])
        #expect(document["files"] as? [String] == ["Package.swift", "Sources/StepCounter/StepCounter.swift", "plugin.exports", "README.md", ".gitignore"])
        #expect(document["product"] as? String == "\(work.path)/mine/.build/debug/libStepCounter.so")
        #expect(document["build"] as? String == "swift build")
        let rust = Self.new(sandbox, in: work, ["com.test.timer", "--language", "rust", "--sdk", Self.sdk.path])
        #expect(rust.status == 0)
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("timer/src/lib.rs").path))
    }

    @Test("a bad id, a directory in the way and a missing SDK are refused, naming them, and nothing is written")
    func refusals() throws {
        let (sandbox, work) = Self.sandbox()
        let badID = Self.new(sandbox, in: work, ["Water Tracker", "--language", "c"])
        #expect(badID.status == 64)
        #expect(badID.stderr == """
            Error: 'Water Tracker' is not a reverse-DNS plugin id; give one such as com.yourname.water (letters, digits, '-' and '_', separated by dots).
            Usage: standfit-host plugins new [--json] [--verbose] <id> --language <language> [<dir>] [--sdk <path>]
              See 'standfit-host plugins new --help' for more information.

            """)
        let occupied = work.appendingPathComponent("water")
        try FileManager.default.createDirectory(at: occupied, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: occupied.appendingPathComponent("notes.txt"))
        #expect(Self.new(sandbox, in: work, ["com.test.water", "--language", "c", "--sdk", Self.sdk.path]) == ProcessResult(
            status: 5, stdout: "", stderr: "standfit-host: error: \(occupied.path) already exists and is not an empty directory; give another directory, or remove it first.\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied.path) == ["notes.txt"])
        let noSDK = Self.new(sandbox, in: work, ["com.test.other", "--language", "c", "--sdk", work.path])
        #expect(noSDK.status == 5)
        #expect(noSDK.stderr == "standfit-host: error: --sdk \(work.path) is not a standfit-host plugin SDK (it has no Package.swift and Sources/CStandFitABI/include/standfit_plugin.h); give the SDK directory of a standfit-host source tree (SDK/standfit-plugin-sdk) or installation (share/standfit-host/sdk).\n")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("other").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path) == ["water"])
    }

    @Test("without --sdk it finds the SDK of the source tree it was built in")
    func findsSDK() throws {
        let (sandbox, work) = Self.sandbox()
        let result = Self.new(sandbox, in: work, ["com.test.water", "--language", "c", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(document["sdk"] as? String == Self.sdk.path)
    }
}

/// What `plugins new` writes, built with its own build file for each language: it passes
/// `plugins check --strict` and runs. The builds do not depend on how the host runs, so
/// Scripts/test runs this suite on the cold pass only.
@Suite("plugins new: the C, Rust and Swift skeletons build, check and run", .timeLimit(.minutes(10)))
struct ScaffoldBuildTests {
    @Test("C: make builds it, make check passes, and it runs", .needs(.make))
    func c() {
        let (sandbox, work) = ScaffoldTests.sandbox()
        #expect(ScaffoldTests.new(sandbox, in: work, ["com.test.water", "--language", "c", "--sdk", ScaffoldTests.sdk.path]).status == 0)
        let directory = work.appendingPathComponent("water")
        let made = ScaffoldTests.build(ExternalTool.make.url, [], in: directory)
        #expect(made.status == 0, "\(made.stdout)")
        let checked = ScaffoldTests.build(ExternalTool.make.url, ["check", "STANDFIT_HOST=\(Fixtures.hostBinary.path)"], in: directory,
                                 environment: sandbox.environment)
        #expect(checked.status == 0, "\(checked.stdout)")
        ScaffoldTests.checkAndRun(sandbox, product: directory.appendingPathComponent("libwater.so"), id: "com.test.water")
    }

    @Test("Rust: cargo builds it offline, and it checks and runs", .needs(.cargo))
    func rust() {
        let (sandbox, work) = ScaffoldTests.sandbox()
        #expect(ScaffoldTests.new(sandbox, in: work, ["com.test.water", "--language", "rust", "--sdk", ScaffoldTests.sdk.path]).status == 0)
        let directory = work.appendingPathComponent("water")
        let built = ScaffoldTests.build(ExternalTool.cargo.url, ["build", "--offline", "--quiet"], in: directory)
        #expect(built.status == 0, "\(built.stdout)")
        ScaffoldTests.checkAndRun(sandbox, product: directory.appendingPathComponent("target/debug/libwater.so"), id: "com.test.water")
    }

    @Test("Swift: swift build resolves the SDK alone, and it checks and runs")
    func swift() throws {
        let (sandbox, work) = ScaffoldTests.sandbox()
        #expect(ScaffoldTests.new(sandbox, in: work, ["com.test.water", "--language", "swift", "--sdk", ScaffoldTests.sdk.path]).status == 0)
        let directory = work.appendingPathComponent("water")
        let swiftc = try #require(FixturePlugins.swiftCompiler, "no swiftc in /opt/swift/usr/bin or on PATH")
        let swift = swiftc.deletingLastPathComponent().appendingPathComponent("swift")
        let built = ScaffoldTests.build(swift, ["build"], in: directory)
        #expect(built.status == 0, "\(built.stdout)")
        // It resolved the SDK and nothing of the host: no GRDB, swift-crypto or ArgumentParser.
        let checkouts = directory.appendingPathComponent(".build/checkouts")
        let resolved = (try? FileManager.default.contentsOfDirectory(atPath: checkouts.path)) ?? []
        #expect(resolved.isEmpty, "\(resolved)")
        ScaffoldTests.checkAndRun(sandbox, product: directory.appendingPathComponent(".build/debug/libWater.so"), id: "com.test.water")
    }
}
