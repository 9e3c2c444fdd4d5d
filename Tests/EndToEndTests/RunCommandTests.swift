import Foundation
import Testing
import TestSupport

/// `standfit-host run`, as a user runs it: the built binary, real plugins, exact output.
@Suite("standfit-host run", .timeLimit(.minutes(10)))
struct RunCommandTests {
    let sandbox = HostSandbox()

    @Test("help for a subcommand names the whole command, and 'help' is no subcommand of a group")
    func subcommandHelp() {
        let help = sandbox.run("run", "--help")
        #expect(help.status == 0)
        // The whole usage line (the page around it is ArgumentParser's layout at the width).
        #expect(help.stdout.split(separator: "\n", omittingEmptySubsequences: false).contains("USAGE: standfit-host run [<options>] <type> [<name=value> ...]"),
                "\(help)")
        // Laid out for the client's terminal width (COLUMNS here, stdout being a pipe), warm too.
        var wide = sandbox
        wide.extraEnvironment["COLUMNS"] = "200"
        let wideHelp = wide.run("run", "--help")
        #expect(wideHelp.status == 0)
        #expect(wideHelp.stdout.split(separator: "\n").count < help.stdout.split(separator: "\n").count, "\(wideHelp)")
        let group = sandbox.run("plugins", "help")
        #expect(group.status == 64)
        #expect(group.stderr == """
            Error: Unexpected argument 'help'
            Usage: standfit-host plugins show [--json] [--verbose] [--require-trusted]
              See 'standfit-host plugins show --help' for more information.

            """, "\(group)")
    }

    @Test("a line that cannot be read, under --json, is one JSON document (code usage, the usage error in the line's language) with exit 64; after -- a --json is a value")
    func usageErrorAsJSON() {
        #expect(sandbox.run("run", "--json") == ProcessResult(status: 64, stdout: """
            {
              "code" : "usage",
              "message" : "Error: Missing expected argument '<type>'\\nHelp:  <type>  The shortcut type to run.\\nUsage: standfit-host run [<options>] <type> [<name=value> ...]\\n  See 'standfit-host run --help' for more information.",
              "status" : "error"
            }

            """, stderr: ""))
        let dutch = sandbox.run("list", "--bogus", "--json", "--locale", "nl")
        #expect(dutch.status == 64 && dutch.stdout.hasPrefix("{\n  \"code\" : \"usage\",\n  \"message\" : \"Fout: Onbekende optie '--bogus'"), "\(dutch)")
        // After --, --json is a value, not the option: the usage error is text on stderr.
        let after = sandbox.run("run", "--bogus", "--", "viewstreak", "--json")
        #expect(after.status == 64 && after.stdout.isEmpty && after.stderr.hasPrefix("Error: Unknown option '--bogus'\n"), "\(after)")
    }

    @Test("a handled Swift action prints its dialog and exits 0")
    func handledSwift() {
        #expect(sandbox.run("run", "com.example.greeter.greet", "name=Ada", "times=2", "excited=true")
            == ProcessResult(status: 0, stdout: "Hello, Ada! Hello, Ada!\n", stderr: ""))
    }

    @Test("a handled C action, by its last component, with --json")
    func handledCJSON() {
        #expect(sandbox.run("run", "pace", "km=5", "minutes=27.5", "--json") == ProcessResult(status: 0, stdout: """
            {
              "data" : {
                "minutesPerKm" : 5.5
              },
              "message" : "5.00 km in 27.50 min is 5:30 min/km",
              "plugin" : "com.example.hello",
              "status" : "handled",
              "type" : "com.example.hello.pace"
            }

            """, stderr: ""))
    }

    @Test("a plugin's static item supplies userInfo the arguments can override")
    func userInfoThenArguments() {
        #expect(sandbox.run("run", "com.example.hello.greet").stdout == "Hello, world!\n")
        #expect(sandbox.run("run", "com.example.hello.greet", "name=Bea").stdout == "Hello, Bea!\n")
    }

    @Test("an unknown type exits 2 with did-you-mean suggestions")
    func unknownType() {
        #expect(sandbox.run("run", "com.example.greeter.gret") == ProcessResult(
            status: 2, stdout: "",
            stderr: "standfit-host: Unknown shortcut type 'com.example.greeter.gret'; did you mean com.example.greeter.greet (Greet) or com.example.hello.greet (Say Hello)?\n"))
        #expect(sandbox.run("run", "pase", "--json") == ProcessResult(status: 2, stdout: """
            {
              "message" : "Unknown shortcut type 'pase'; did you mean com.example.hello.pace (Running Pace)?",
              "status" : "unknown-type",
              "suggestions" : [
                "com.example.hello.pace"
              ],
              "type" : "pase"
            }

            """, stderr: ""))
    }

    @Test("an ambiguous last component exits 2 and lists the candidates")
    func ambiguous() {
        #expect(sandbox.run("run", "greet") == ProcessResult(
            status: 2, stdout: "",
            stderr: "standfit-host: Shortcut type 'greet' is ambiguous: it matches com.example.greeter.greet, com.example.hello.greet; run one of them by its full type.\n"))
    }

    @Test("a parameter of the wrong kind exits 3 naming it")
    func badParameter() {
        #expect(sandbox.run("run", "com.example.greeter.greet", "name=Ada", "times=ten") == ProcessResult(
            status: 3, stdout: "", stderr: "standfit-host: times: expected an integer, got 'ten'.\n"))
    }

    @Test("a missing required parameter exits 3, and --json names it")
    func missingParameter() {
        #expect(sandbox.run("run", "tip") == ProcessResult(
            status: 3, stdout: "",
            stderr: "standfit-host: Missing required parameter 'amount' for com.example.greeter.tip; pass amount=VALUE.\n"))
        #expect(sandbox.run("run", "tip", "--json") == ProcessResult(status: 3, stdout: """
            {
              "message" : "Missing required parameter 'amount' for com.example.greeter.tip; pass amount=VALUE.",
              "needsValue" : "amount",
              "parameter" : "amount",
              "plugin" : "com.example.greeter",
              "status" : "invalid-input",
              "type" : "com.example.greeter.tip"
            }

            """, stderr: ""))
    }

    @Test("an unknown parameter and a bare word exit 3")
    func unknownParameterAndBareWord() {
        #expect(sandbox.run("run", "tip", "amount=10", "peeple=2") == ProcessResult(
            status: 3, stdout: "",
            stderr: "standfit-host: Unknown parameter 'peeple' for com.example.greeter.tip (did you mean 'people'?); it takes amount, percent, people.\n"))
        #expect(sandbox.run("run", "tip", "10") == ProcessResult(
            status: 3, stdout: "",
            stderr: "standfit-host: Argument '10' is not of the form name=value; write each parameter as NAME=VALUE.\n"))
    }

    @Test("a value outside @Parameter(range:) is refused by the host; a handler's own invalid-input names its parameter")
    func handlerInvalidInput() {
        #expect(sandbox.run("run", "com.example.greeter.greet", "name=Ada", "times=9") == ProcessResult(
            status: 3, stdout: "", stderr: "standfit-host: times: expected a number from 1 to 5, got 9.\n"))
        #expect(sandbox.run("run", "com.example.greeter.greet", "name=Ada", "times=5").stdout
            == "Hello, Ada. Hello, Ada. Hello, Ada. Hello, Ada. Hello, Ada.\n")
        #expect(sandbox.run("run", "tip", "amount=-1", "--json") == ProcessResult(status: 3, stdout: """
            {
              "message" : "amount: expected 0 or more, got -1.0",
              "parameter" : "amount",
              "plugin" : "com.example.greeter",
              "status" : "invalid-input",
              "type" : "com.example.greeter.tip"
            }

            """, stderr: ""))
    }

    @Test("declined exits 1, a plugin failure or a bad status exits 4")
    func declinedAndFailed() throws {
        var sandbox = sandbox
        sandbox.pluginPath = try [FixturePlugins.url("kinds.so")]
        #expect(sandbox.run("run", "status", "code=1", "message=Not today.")
            == ProcessResult(status: 1, stdout: "", stderr: "standfit-host: Not today.\n"))
        #expect(sandbox.run("run", "status", "code=3", "message=Disk full.") == ProcessResult(
            status: 4, stdout: "", stderr: "standfit-host: Plugin 'com.fixture.kinds' failed to run com.fixture.kinds.status: Disk full.\n"))
        #expect(sandbox.run("run", "status", "code=42", "--json").status == 4)
    }

    @Test("a handler learns whether its data is shown (standfit.reply/1): only --json shows it")
    func dataShownOnlyUnderJSON() throws {
        var sandbox = sandbox
        sandbox.pluginPath = try [FixturePlugins.url("kinds.so")]
        #expect(sandbox.run("run", "shown") == ProcessResult(status: 0, stdout: "shows data: 0\n", stderr: ""))
        #expect(sandbox.run("run", "shown", "--json") == ProcessResult(status: 0, stdout: """
            {
              "data" : {
                "shown" : 1
              },
              "message" : "shows data: 1",
              "plugin" : "com.fixture.kinds",
              "status" : "handled",
              "type" : "com.fixture.kinds.shown"
            }

            """, stderr: ""))
    }

    @Test("the manifest's fallback type handles unknown types")
    func fallback() throws {
        var sandbox = sandbox
        sandbox.pluginPath = try [FixturePlugins.url("kinds.so")]
        let manifest = Fixtures.url("Manifests/fallback.json").path
        // It says so, and exits 6: a typo does not pass for the action asked for.
        #expect(sandbox.run("run", "com.nowhere.thing", "--manifest", manifest) == ProcessResult(
            status: 6, stdout: "fallback for com.nowhere.thing (unknown shortcut)\n",
            stderr: "standfit-host: No plugin handles 'com.nowhere.thing'; ran the manifest's fallback com.fixture.kinds.fallback.\n"))
        #expect(sandbox.run("run", "com.nowhere.thing", "--manifest", manifest, "--locale", "nl").stderr
            == "standfit-host: Geen plug-in voert 'com.nowhere.thing' uit; de terugval van het manifest, com.fixture.kinds.fallback, is uitgevoerd.\n")
        #expect(sandbox.run("run", "com.nowhere.thing", "--manifest", manifest, "--json") == ProcessResult(status: 6, stdout: """
            {
              "fallback" : "com.fixture.kinds.fallback",
              "message" : "fallback for com.nowhere.thing (unknown shortcut)",
              "plugin" : "com.fixture.kinds",
              "status" : "fallback",
              "type" : "com.nowhere.thing"
            }

            """, stderr: ""))
        // A typo is not donated; the fallback's own type runs as asked, without the note.
        #expect(sandbox.run("donations").stdout == "No runs are recorded yet; every handled run is.\n")
        #expect(sandbox.run("run", "com.fixture.kinds.fallback", "--manifest", manifest).stderr == "")
        #expect(sandbox.run("run", "echo", "--manifest", manifest).stdout
            == #"flag=true number=12 ratio=0.5 text=[from manifest] note=NULL provided=0x0f type=com.fixture.kinds.echo locale=en userInfo={"flag":"yes","number":12,"text":"from manifest"}"# + "\n")
    }

    @Test("a broken plugin on the path is reported and the others still run")
    func brokenPluginDoesNotStopOthers() throws {
        var sandbox = sandbox
        let broken = sandbox.root.appendingPathComponent("broken.so")
        try Data(String(repeating: "not a library\n", count: 8).utf8).write(to: broken)
        sandbox.pluginPath = try [broken, FixturePlugins.url("abi-major2.so"), Fixtures.cExamplePlugin]
        let major2 = try FixturePlugins.url("abi-major2.so").path
        #expect(sandbox.run("run", "pace", "km=10", "minutes=50") == ProcessResult(status: 0, stdout: "10.00 km in 50.00 min is 5:00 min/km\n", stderr: """
            standfit-host: warning: Plugin \(broken.path) is not a shared library (it does not start with an ELF header); rebuild it as a shared library for this machine or remove it from the plugin path.
            standfit-host: warning: Plugin \(major2) was built for ABI 2.x; this host speaks 1.x; rebuild it against standfit_plugin.h 1.0.

            """))
    }

    @Test("usage errors exit 64")
    func usage() {
        let result = sandbox.run("run")
        #expect(result.status == 64)
        #expect(result.stderr == """
            Error: Missing expected argument '<type>'
            Help:  <type>  The shortcut type to run.
            Usage: standfit-host run [<options>] <type> [<name=value> ...]
              See 'standfit-host run --help' for more information.

            """)
        #expect(sandbox.run("run", "pace", "--define", "NOEQUALS").stderr == """
            Error: --define 'NOEQUALS' is not of the form NAME=VALUE; write it as e.g. --define PRODUCT_BUNDLE_IDENTIFIER=com.example.app.
            Usage: standfit-host run [<options>] <type> [<name=value> ...]
              See 'standfit-host run --help' for more information.

            """)
    }
}
