import Foundation
import Testing
import TestSupport

/// Plugins/Examples/RustTimer, built by cargo offline with std only, and the panic rule: a panic
/// caught at the boundary is a failure with its message; one that is not aborts the worker it
/// runs in, and the host names the plugin and the signal.
@Suite("The Rust example and the panic rule", .timeLimit(.minutes(10)))
struct RustExampleTests {
    static func sandbox(_ plugins: [URL]) -> HostSandbox {
        var sandbox = HostSandbox(pluginPath: plugins)
        sandbox.extraEnvironment = ["TZ": "Europe/Amsterdam", "STANDFIT_NOW": "2026-11-22T13:05:00Z"]
        return sandbox
    }

    @Test("the timer builds, passes plugins check --strict, runs at the host's now and keeps to its range", .needs(.cargo))
    func timer() throws {
        let plugin = try FixturePlugins.rustTimer()
        let sandbox = Self.sandbox([plugin])
        let check = sandbox.run("plugins", "check", "--strict", plugin.path)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(withoutInitTime(check.stdout) == """
            Plugin \(plugin.path)
              id: com.example.timer 1.0.0 ("Timer (Rust example)"), ABI 1.0
              init: N ms
              sha256: \(sha256(of: plugin))
              runs: in a worker process (not trusted; 'standfit-host plugins trust' pins it)
              types:
                com.example.timer.start "Start Timer" (minutes: int = 25; label: string?)
                  icon: timer
                  minutes: from 1 to 180; asks "How many minutes?"
                  phrases: "start a {minutes} minute timer" (en)
                com.example.timer.left "Time Left"
                  icon: hourglass
                  phrases: "how long is left" (en)
              static items:
                com.example.timer.start "Pomodoro" {"label":"Pomodoro","minutes":25}
              dynamic provider: no
            OK: com.example.timer loads, with 2 types and no warnings.

            """, "\(check.stdout)")
        #expect(sandbox.run("run", "left") == ProcessResult(status: 0, stdout: "No timer is running.\n", stderr: ""))
        #expect(sandbox.run("run", "start", "minutes=10", "label=Tea") == ProcessResult(status: 0, stdout: "Timer set for 10 minutes: Tea\n", stderr: ""))
        var later = sandbox
        later.extraEnvironment["STANDFIT_NOW"] = "2026-11-22T13:10:30Z"
        #expect(later.run("run", "left").stdout == "5 minutes left: Tea\n")
        #expect(sandbox.run("run", "start", "minutes=500") == ProcessResult(
            status: 3, stdout: "", stderr: "standfit-host: minutes: expected a number from 1 to 180, got 500.\n"))
        #expect(sandbox.run("list").stdout == "1. Pomodoro — 25 minutes  (com.example.timer.start)\n")
    }

    @Test("a panic caught at the boundary fails the run with its message; an uncaught one aborts only the worker: the plugin and the host are as before", .needs(.rustc))
    func panics() throws {
        let plugin = try FixturePlugins.rustPanics()
        let sandbox = Self.sandbox([plugin])
        let caught = sandbox.run("run", "caught")
        #expect(caught.status == 4)
        #expect(caught.stderr.hasSuffix("standfit-host: Plugin 'com.fixture.panics' failed to run com.fixture.panics.caught: It failed: the caught action went wrong.\n"), "\(caught.stderr)")
        let uncaught = sandbox.run("run", "uncaught")
        #expect(uncaught.status == 4)
        #expect(uncaught.stderr.hasSuffix("standfit-host: Plugin 'com.fixture.panics' crashed with SIGABRT (aborted) while running com.fixture.panics.uncaught; report this to the plugin's author.\n"), "\(uncaught.stderr)")
        // The host and the plugin are untouched: the plugin is listed as before (not
        // quarantined, still run in a worker), and its caught panic fails the same way again,
        // word for word.
        #expect(sandbox.run("plugins") == ProcessResult(status: 0, stdout: """
            com.fixture.panics 1.0.0 (ABI 1.0): Panics
              path: \(plugin.path)
              types: com.fixture.panics.caught, com.fixture.panics.uncaught
              runs: in a worker process

            """, stderr: ""))
        // Rust's panic line names the thread by its id, another each time.
        func withoutThreadID(_ result: ProcessResult) -> ProcessResult {
            ProcessResult(status: result.status, stdout: result.stdout,
                          stderr: result.stderr.replacingOccurrences(of: #"thread '<unnamed>' \([0-9]+\)"#, with: "thread '<unnamed>' (N)", options: .regularExpression))
        }
        #expect(withoutThreadID(sandbox.run("run", "caught")) == withoutThreadID(caught))
    }
}
