import Foundation
import Testing
import TestSupport

/// Plugins/Examples/WaterC, the C example of everything beyond handlers: a range the host checks,
/// an invalid input that names its parameter, the data directory, the host's clock, an entity,
/// phrases and a dynamic provider.
@Suite("The C water example", .timeLimit(.minutes(10)))
struct WaterExampleTests {
    /// Sunday 22 November 2026, 14:05 in Amsterdam.
    static func sandbox() -> HostSandbox {
        var sandbox = HostSandbox(pluginPath: [Fixtures.waterExamplePlugin])
        sandbox.extraEnvironment = ["TZ": "Europe/Amsterdam", "STANDFIT_NOW": "2026-11-22T13:05:00Z"]
        return sandbox
    }

    @Test("it passes plugins check --strict")
    func checks() {
        let check = Self.sandbox().run("plugins", "check", "--strict", Fixtures.waterExamplePlugin.path)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(withoutInitTime(check.stdout) == """
            Plugin \(Fixtures.waterExamplePlugin.path)
              id: com.example.water 1.0.0 ("Water (C example)"), ABI 1.0
              init: N ms
              sha256: \(sha256(of: Fixtures.waterExamplePlugin))
              runs: in a worker process (not trusted; 'standfit-host plugins trust' pins it)
              types:
                com.example.water.log "Log Water" (ml: int = 250; drink: string = water; at: string?)
                  subtitle: "A glass, a cup, a bottle"
                  icon: drop.fill
                  ml: from 50 to 2000; asks "How much, in ml?"
                  drink: values of entity com.example.water.drink
                  phrases: "drink {ml} ml of {drink}" (en), "log {ml} ml" (en)
                com.example.water.today "Water Today"
                  icon: chart.bar
                  phrases: "how much water today" (en)
              entities: com.example.water.drink "Drink"
              static items:
                com.example.water.log "Log a Glass" {"drink":"water","ml":250}
              dynamic provider: yes
            OK: com.example.water loads, with 2 types and no warnings.

            """)
    }

    @Test("a glass is logged in the data directory, at the host's now, and shown as today's total")
    func logs() throws {
        let sandbox = Self.sandbox()
        #expect(sandbox.run("run", "com.example.water.log", "ml=330", "drink=green tea")
            == ProcessResult(status: 0, stdout: "Logged 330 ml of tea · 330 ml today\n", stderr: ""))
        #expect(sandbox.run("say", "drink 250 ml of espresso").stdout == "Logged 250 ml of coffee · 580 ml today\n")
        // Backfilled this morning: still today. STANDFIT_NOW is 14:05 local.
        #expect(sandbox.run("run", "com.example.water.log", "ml=100", "at=08:30").stdout == "Logged 100 ml of water · 680 ml today\n")
        #expect(sandbox.run("run", "com.example.water.today", "--json").stdout == """
            {
              "data" : {
                "today" : 680
              },
              "message" : "680 ml today",
              "plugin" : "com.example.water",
              "status" : "handled",
              "type" : "com.example.water.today"
            }

            """)
        let log = try String(contentsOf: sandbox.dataHome.appendingPathComponent("standfit/data/com.example.water/water.log"), encoding: .utf8)
        // 2026-11-22 13:05:00 UTC is 1795352700; 08:30 in Amsterdam (UTC+1) is 07:30 UTC.
        #expect(log == "1795352700 330 tea\n1795352700 250 coffee\n1795332600 100 water\n")
        // The next day (in Amsterdam) starts from nothing.
        var tomorrow = sandbox
        tomorrow.extraEnvironment["STANDFIT_NOW"] = "2026-11-22T23:30:00Z"
        #expect(tomorrow.run("run", "com.example.water.today").stdout == "0 ml today\n")
    }

    @Test("a value outside the range the plugin declared is refused by the host, naming the parameter; the plugin's own refusal names its own")
    func refusals() {
        let sandbox = Self.sandbox()
        #expect(sandbox.run("run", "com.example.water.log", "ml=5000", "--json") == ProcessResult(status: 3, stdout: """
            {
              "message" : "ml: expected a number from 50 to 2000, got 5000.",
              "parameter" : "ml",
              "plugin" : "com.example.water",
              "status" : "invalid-input",
              "type" : "com.example.water.log"
            }

            """, stderr: ""))
        #expect(sandbox.run("run", "com.example.water.log", "at=25:00", "--json") == ProcessResult(status: 3, stdout: """
            {
              "message" : "at: expected a time of day such as 14:30, got \\"25:00\\".",
              "parameter" : "at",
              "plugin" : "com.example.water",
              "status" : "invalid-input",
              "type" : "com.example.water.log"
            }

            """, stderr: ""))
        #expect(sandbox.run("run", "com.example.water.log", "drink=soda") == ProcessResult(
            status: 3, stdout: "", stderr: "standfit-host: drink: no drink is called 'soda'; choose one of water, tea, coffee.\n"))
    }

    @Test("once something is logged, the provider offers the last glass, true until midnight")
    func provides() {
        let sandbox = Self.sandbox()
        #expect(sandbox.run("list").stdout == "1. Log a Glass — 250 ml of water  (com.example.water.log)\n")
        #expect(sandbox.run("run", "com.example.water.log", "ml=330", "drink=tea").status == 0)
        #expect(sandbox.run("list").stdout == """
            1. Log a Glass — 250 ml of water  (com.example.water.log)
            2. Log 330 ml of tea — 330 ml today  (com.example.water.log)

            """)
        // After midnight in Amsterdam the item has expired and is asked for again: "0 ml today".
        var tomorrow = sandbox
        tomorrow.extraEnvironment["STANDFIT_NOW"] = "2026-11-22T23:30:00Z"
        #expect(tomorrow.run("list").stdout == """
            1. Log a Glass — 250 ml of water  (com.example.water.log)
            2. Log 330 ml of tea — 0 ml today  (com.example.water.log)

            """)
    }
}
