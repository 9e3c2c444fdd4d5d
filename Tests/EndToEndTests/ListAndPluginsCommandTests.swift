import Foundation
import Testing
import TestSupport

@Suite("standfit-host list and plugins", .timeLimit(.minutes(10)))
struct ListAndPluginsCommandTests {
    let sandbox = HostSandbox()
    let examples = Fixtures.url("Manifests/examples.plist").path
    let appleSample = Fixtures.url("ApplicationShortcuts").path

    @Test("without a manifest, list shows the plugins' default items, each plugin an app of its own")
    func pluginDefaults() {
        #expect(sandbox.run("list") == ProcessResult(status: 0, stdout: """
            Greeter (Swift example) (com.example.greeter)
            1. Greet the World  (com.example.greeter.greet)

            Hello (C example) (com.example.hello)
            2. Say Hello — to the world  (com.example.hello.greet)

            """, stderr: ""))
    }

    @Test("each app's menu: the manifest's items of its types first; the limit counts per app; --all marks what is hidden")
    func manifestOrderAndLimit() {
        #expect(sandbox.run("list", "--manifest", examples, "--define", "GREETEE=Ann") == ProcessResult(status: 0, stdout: """
            Greeter (Swift example) (com.example.greeter)
            1. Greet Ann  (com.example.greeter.greet)
            2. Greet the World  (com.example.greeter.greet)

            Hello (C example) (com.example.hello)
            3. 5K Pace — 25 minutes  (com.example.hello.pace)
            4. Say Hello — to the world  (com.example.hello.greet)

            """, stderr: ""))
        #expect(sandbox.run("list", "--manifest", examples, "--define", "GREETEE=Ann", "--limit", "1", "--all").stdout == """
            Greeter (Swift example) (com.example.greeter)
            1. Greet Ann  (com.example.greeter.greet)
            -  Greet the World  (com.example.greeter.greet)  cut: beyond the limit of 1

            Hello (C example) (com.example.hello)
            2. 5K Pace — 25 minutes  (com.example.hello.pace)
            -  Say Hello — to the world  (com.example.hello.greet)  cut: beyond the limit of 1

            com.example.weather (com.example.weather)
            -  Weather Today  (com.example.weather.today)  pruned: no plugin handles com.example.weather.today

            """)
        // One app's menu alone, by id or by name; a name no app has is refused with the apps there are.
        #expect(sandbox.run("list", "--manifest", examples, "--define", "GREETEE=Ann", "--app", "com.example.hello") == ProcessResult(status: 0, stdout: """
            1. 5K Pace — 25 minutes  (com.example.hello.pace)
            2. Say Hello — to the world  (com.example.hello.greet)

            """, stderr: ""))
        #expect(sandbox.run("list", "--app", "greeter (swift EXAMPLE)").stdout == "1. Greet the World  (com.example.greeter.greet)\n")
        #expect(sandbox.run("rofi", "--dmenu", "--app", "com.example.hello") == ProcessResult(status: 0, stdout: "Say Hello — to the world\n", stderr: ""))
        #expect(sandbox.run("list", "--app", "com.nobody") == ProcessResult(status: 2, stdout: "", stderr: """
            standfit-host: error: No app 'com.nobody' has quick actions here; name one of com.example.greeter (Greeter (Swift example)), com.example.hello (Hello (C example)) (see 'standfit-host list').

            """))
        #expect(sandbox.run("list", "--app", "com.nobody", "--locale", "nl", "--json") == ProcessResult(status: 2, stdout: """
            {
              "code" : "unknown-app",
              "message" : "Er is geen app 'com.nobody' met snelle acties; noem er een van com.example.greeter (Greeter (Swift example)), com.example.hello (Hello (C example)) (zie 'standfit-host list').",
              "status" : "error"
            }

            """, stderr: ""))
    }

    @Test("--limit takes a number of 1 or more; -1 is refused in words, not taken for an option")
    func negativeLimit() {
        // --limit -1 is a value refused in words, not an unknown option.
        #expect(sandbox.run("list", "--limit", "-1") == ProcessResult(status: 64, stdout: "", stderr: """
            Error: --limit must be 1 or more, got -1.
            Usage: standfit-host list [--json] [--verbose] [--manifest <path>] [--define <NAME=VALUE> ...] [--locale <language>] [--require-trusted] [--app <id>] [--all] [--explain] [--limit <limit>]
              See 'standfit-host list --help' for more information.

            """))
    }

    @Test("list --json has every key for every item")
    func json() {
        #expect(sandbox.run("list", "--manifest", examples, "--define", "GREETEE=Ann", "--limit", "1", "--app", "com.example.greeter", "--json") == ProcessResult(status: 0, stdout: """
            [
              {
                "app" : "com.example.greeter",
                "appName" : "Greeter (Swift example)",
                "available" : true,
                "icon" : "person.wave.2",
                "origin" : "\(examples)",
                "rank" : null,
                "source" : "static",
                "subtitle" : null,
                "title" : "Greet Ann",
                "type" : "com.example.greeter.greet",
                "userInfo" : {
                  "name" : "Ann",
                  "times" : 2
                },
                "validUntil" : null,
                "withinLimit" : true
              }
            ]

            """, stderr: ""))
    }

    @Test("an Apple Info.plist, localized from --locale and from LANG")
    func localizedAppleSample() {
        let expected = """
            com.example.apple (com.example.apple)
            -  Zoeken — Zoek een item  (com.example.apple.First)  weggelaten: geen plug-in behandelt com.example.apple.First
            -  Delen — Deel een "item" met één tik  (com.example.apple.Second)  weggelaten: geen plug-in behandelt com.example.apple.Second

            Greeter (Swift example) (com.example.greeter)
            1. Greet the World  (com.example.greeter.greet)

            Hello (C example) (com.example.hello)
            2. Say Hello — to the world  (com.example.hello.greet)

            """
        let define = ["--define", "PRODUCT_BUNDLE_IDENTIFIER=com.example.apple"]
        #expect(sandbox.run(["list", "--all", "--manifest", appleSample, "--locale", "nl"] + define).stdout == expected)
        var dutch = sandbox
        dutch.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        #expect(dutch.run(["list", "--all", "--manifest", appleSample] + define).stdout == expected)
        #expect(sandbox.run(["list", "--all", "--manifest", appleSample, "--locale", "en_US"] + define).stdout == """
            com.example.apple (com.example.apple)
            -  Search — Search for an item  (com.example.apple.First)  pruned: no plugin handles com.example.apple.First
            -  Share — Share an "item"  (com.example.apple.Second)  pruned: no plugin handles com.example.apple.Second

            Greeter (Swift example) (com.example.greeter)
            1. Greet the World  (com.example.greeter.greet)

            Hello (C example) (com.example.hello)
            2. Say Hello — to the world  (com.example.hello.greet)

            """)
    }

    @Test("the default manifest is $XDG_CONFIG_HOME/standfit/Info.plist")
    func defaultLocation() throws {
        try FileManager.default.createDirectory(at: sandbox.configDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.url("Manifests/examples.plist"),
                                         to: sandbox.configDirectory.appendingPathComponent("Info.plist"))
        var sandbox = sandbox
        sandbox.extraEnvironment["GREETEE"] = "Env"
        #expect(sandbox.run("list", "--limit", "1", "--app", "com.example.greeter") == ProcessResult(status: 0, stdout: "1. Greet Env  (com.example.greeter.greet)\n", stderr: ""))
        #expect(sandbox.run("run", "com.example.greeter.greet") == ProcessResult(status: 0, stdout: "Hello, Env. Hello, Env.\n", stderr: ""))
    }

    @Test("a malformed manifest exits 5 naming the file and line")
    func malformedManifest() {
        let path = Fixtures.url("Manifests/malformed.plist").path
        let message = "\(path) is not a valid property list file (close tag on line 8 does not match open tag string); fix the syntax there."
        #expect(sandbox.run("list", "--manifest", path) == ProcessResult(status: 5, stdout: "", stderr: "standfit-host: error: \(message)\n"))
        #expect(sandbox.run("run", "pace", "--manifest", path, "--json") == ProcessResult(status: 5, stdout: """
            {
              "code" : "manifest-invalid",
              "message" : "\(message)",
              "status" : "error"
            }

            """, stderr: ""))
    }

    @Test("an unresolved $(VAR) exits 5 naming it and the way out")
    func unresolvedVariable() {
        #expect(sandbox.run("list", "--manifest", examples) == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: \(examples): UIApplicationShortcutItems[0].UIApplicationShortcutItemTitle uses $(GREETEE), which is not defined; pass --define GREETEE=VALUE or set it in the environment.

            """))
    }

    @Test("a --manifest that does not exist exits 5")
    func missingManifest() {
        #expect(sandbox.run("list", "--manifest", "/nonexistent/Info.plist") == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: Manifest /nonexistent/Info.plist does not exist; pass --manifest with the path of an Info.plist or manifest.json, or of a directory holding one.

            """))
    }

    @Test("plugins lists id, version, ABI, path and types, and the refused with their reasons")
    func plugins() throws {
        var sandbox = sandbox
        let noEntry = try FixturePlugins.url("abi-noentry.so").path
        sandbox.pluginPath = try [Fixtures.cExamplePlugin, FixturePlugins.url("abi-noentry.so")]
        #expect(sandbox.run("plugins") == ProcessResult(status: 0, stdout: """
            com.example.hello 1.0.0 (ABI 1.0): Hello (C example)
              path: \(Fixtures.cExamplePlugin.path)
              types: com.example.hello.greet, com.example.hello.pace
              runs: in a worker process
            refused: \(noEntry)
              Plugin \(noEntry) does not export standfit_plugin_entry_v1; export it with STANDFIT_EXPORT (C) or @_cdecl("standfit_plugin_entry_v1") (Swift).

            """, stderr: ""))
        sandbox.pluginPath = [Fixtures.swiftExamplePlugin]
        #expect(sandbox.run("plugins", "--json").stdout == """
            {
              "plugins" : [
                {
                  "abi" : "1.0",
                  "id" : "com.example.greeter",
                  "name" : "Greeter (Swift example)",
                  "path" : "\(Fixtures.swiftExamplePlugin.path)",
                  "programs" : [

                  ],
                  "runs" : "worker",
                  "trusted" : false,
                  "types" : [
                    "com.example.greeter.greet",
                    "com.example.greeter.tip"
                  ],
                  "version" : "1.0.0",
                  "warnings" : [

                  ]
                }
              ],
              "quarantined" : [

              ],
              "refused" : [

              ]
            }

            """)
    }

    @Test("without STANDFIT_PLUGIN_PATH: the user plugin directory, then the bundled StandFit; the examples beside it are not loaded")
    func defaultSearchPath() throws {
        var sandbox = sandbox
        sandbox.pluginPath = []
        let userPlugins = sandbox.root.appendingPathComponent("data/standfit/plugins")
        try FileManager.default.createDirectory(at: userPlugins, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: FixturePlugins.url("kinds.so"), to: userPlugins.appendingPathComponent("kinds.so"))
        var environment = sandbox.environment
        environment["STANDFIT_PLUGIN_PATH"] = nil
        #expect(sandbox.serveWarmPath() == nil)
        let result = sandbox.checkingHandBacks("plugins --json") {
            runProcess(Fixtures.hostBinary, arguments: ["plugins", "--json"], environment: environment)
        }
        let ids = try JSONDecoder().decode(PluginsDocument.self, from: Data(result.stdout.utf8)).plugins.map(\.id)
        #expect(ids == ["com.fixture.kinds", "com.standfit"])
    }

    @Test("a fresh build's menu is StandFit's: the examples built beside it are not loaded")
    func freshBuildMenu() {
        var sandbox = HostSandbox.standFit()
        sandbox.pluginPath = []
        var environment = sandbox.environment
        environment["STANDFIT_PLUGIN_PATH"] = nil
        #expect(sandbox.serveWarmPath() == nil)
        func host(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) -> ProcessResult {
            sandbox.checkingHandBacks(arguments.joined(separator: " "), sourceLocation: sourceLocation) {
                runProcess(Fixtures.hostBinary, arguments: arguments, environment: environment)
            }
        }
        #expect(host("list") == ProcessResult(status: 0, stdout: """
            1. Log Exercise  (com.standfit.logexercise)

            """, stderr: ""))
        #expect(host("run", "logexercise", "exercise=squats", "count=20") == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(host("list") == ProcessResult(status: 0, stdout: """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 1 day  (com.standfit.viewstreak)
            3. Log Squats — 20 reps  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """, stderr: ""))
        // The examples are one path away.
        environment["STANDFIT_PLUGIN_PATH"] = [Fixtures.standFitPlugin, Fixtures.swiftExamplePlugin, Fixtures.cExamplePlugin]
            .map(\.path).joined(separator: ":")
        #expect(host("run", "pace", "km=5", "minutes=25") == ProcessResult(status: 0, stdout: "5.00 km in 25.00 min is 5:00 min/km\n", stderr: ""))
    }

    struct PluginsDocument: Decodable {
        struct Plugin: Decodable { var id: String }
        var plugins: [Plugin]
    }

    @Test("no plugins and no manifest: an empty list says where to add items")
    func empty() {
        var sandbox = sandbox
        sandbox.pluginPath = []
        #expect(sandbox.run("list") == ProcessResult(status: 0, stdout: "", stderr: """
            standfit-host: No quick actions to show; add items to \(sandbox.configDirectory.path)/Info.plist or install a plugin (see 'standfit-host plugins').

            """))
    }
}
