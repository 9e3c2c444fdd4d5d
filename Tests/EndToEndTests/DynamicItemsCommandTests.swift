import Foundation
import Testing
import TestSupport

/// `dynamic set|clear`, `refresh`, `list --explain` and pruning, on the built binary.
@Suite("standfit-host dynamic items", .timeLimit(.minutes(10)))
struct DynamicItemsCommandTests {
    let sandbox: HostSandbox

    /// Throws, and so ends each test of the suite with one issue, when `kinds.so` was not built.
    init() throws {
        sandbox = try HostSandbox(pluginPath: [FixturePlugins.url("kinds.so")])
    }

    @Test("the first list asks a provider never asked; refresh asks again; list reads the stored answer and explains it")
    func refreshAndExplain() {
        #expect(sandbox.run("list") == ProcessResult(status: 0, stdout: """
            1. Echo Seven  (com.fixture.kinds.echo)
            2. Echo Dynamic — en  (com.fixture.kinds.echo)

            """, stderr: ""))
        #expect(sandbox.run("refresh") == ProcessResult(status: 0, stdout: "com.fixture.kinds: 1 item\n", stderr: ""))
        #expect(sandbox.run("list", "--explain") == ProcessResult(status: 0, stdout: """
            Kinds fixture (com.fixture.kinds): its own menu, at most 4 shown
            1. Echo Seven  (com.fixture.kinds.echo)
                 default item of plugin com.fixture.kinds
            2. Echo Dynamic — en  (com.fixture.kinds.echo)
                 dynamic, from plugin com.fixture.kinds's provider, rank 1

            """, stderr: ""))
        // Asked once in Dutch, the provider is asked in both languages from then on.
        _ = sandbox.run("refresh", "--locale", "nl")
        #expect(sandbox.run("list", "--locale", "nl").stdout == "1. Echo Seven  (com.fixture.kinds.echo)\n2. Echo Dynamic — nl  (com.fixture.kinds.echo)\n")
        #expect(sandbox.run("list").stdout == "1. Echo Seven  (com.fixture.kinds.echo)\n2. Echo Dynamic — en  (com.fixture.kinds.echo)\n")
    }

    @Test("an item with a lifetime (a C provider, standfit.item-lifetime/1) is shown until it expires, then its provider is asked again; a provider that fails then loses the expired item, and says so once")
    func itemLifetime() throws {
        let now = 1_795_352_700   // 2026-11-22T13:05:00Z
        let home = try HostSandbox.zoo([FixturePlugins.zoo("provider.so")])
        func at(_ instant: Int, until: Int, fail: Bool = false) -> HostSandbox {
            var sandbox = home
            sandbox.extraEnvironment["STANDFIT_NOW"] = Date(timeIntervalSince1970: TimeInterval(instant)).formatted(.iso8601)
            sandbox.extraEnvironment["ZOO_ITEM_UNTIL"] = "\(until)"
            if fail { sandbox.extraEnvironment["ZOO_PROVIDER_FAIL"] = "1" }
            return sandbox
        }
        let first = at(now, until: now + 3600)
        #expect(first.run("list") == ProcessResult(status: 0, stdout: "1. Zoo item, asked 1 times  (com.zoo.provider.run)\n", stderr: ""))
        // Until it expires, the stored answer is shown and the provider is not asked.
        #expect(at(now + 3599, until: now + 7200).run("list").stdout == "1. Zoo item, asked 1 times  (com.zoo.provider.run)\n")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(first.run("list", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(json.first?["validUntil"] as? String == "2026-11-22T14:05:00Z")
        // From the second it expires on, the provider is asked before anything is shown.
        #expect(at(now + 3600, until: now + 7200).run("list").stdout == "1. Zoo item, asked 2 times  (com.zoo.provider.run)\n")
        // Expired again, and the provider fails: the item is dropped, with one warning.
        let failing = at(now + 7200, until: now + 9000, fail: true)
        #expect(failing.run("list") == ProcessResult(status: 0, stdout: "", stderr: """
            standfit-host: warning: The dynamic provider of plugin 'com.zoo.provider' failed with status 1; its previous items are kept.
            standfit-host: No quick actions to show; add items to \(failing.configDirectory.path)/Info.plist or install a plugin (see 'standfit-host plugins').

            """))
        #expect(failing.run("list") == ProcessResult(status: 0, stdout: "", stderr: """
            standfit-host: No quick actions to show; add items to \(failing.configDirectory.path)/Info.plist or install a plugin (see 'standfit-host plugins').

            """))
        // A run of its plugin asks it again, as before.
        #expect(at(now + 7300, until: now + 9000).run("run", "com.zoo.provider.run").status == 0)
        #expect(at(now + 7300, until: now + 9000).run("list").stdout == "1. Zoo item, asked 3 times  (com.zoo.provider.run)\n")
    }

    @Test("a provider whose plugin changed version answers again before its items are shown; one whose plugin is gone is pruned, and refresh forgets it",
          .needs(.sqlite3))
    func pruning() throws {
        _ = sandbox.run("refresh")
        let state = sandbox.dataHome.appendingPathComponent("standfit/state.sqlite").path
        func versions() -> String {
            runProcess(ExternalTool.sqlite3.url, arguments: [state, "SELECT source, pluginVersion FROM dynamicSource"]).stdout
        }
        #expect(versions() == "com.fixture.kinds|0.1.0\n")
        var upgraded = sandbox
        upgraded.pluginPath = try [FixturePlugins.url("kinds-v2.so")]
        #expect(upgraded.run("list", "--all").stdout == "1. Echo Seven  (com.fixture.kinds.echo)\n2. Echo Dynamic — en  (com.fixture.kinds.echo)\n")
        #expect(versions() == "com.fixture.kinds|0.2.0\n")
        var gone = sandbox
        gone.pluginPath = [Fixtures.cExamplePlugin]
        #expect(gone.run("list", "--all").stdout == """
            Hello (C example) (com.example.hello)
            1. Say Hello — to the world  (com.example.hello.greet)

            com.fixture.kinds (com.fixture.kinds)
            -  Echo Dynamic — en  (com.fixture.kinds.echo)  pruned: plugin com.fixture.kinds, which provided it, is gone

            """)
        #expect(gone.run("refresh").stdout == "com.fixture.kinds: 0 items — its plugin is gone or no longer provides items; its stored items were removed\n")
        #expect(gone.run("list", "--all").stdout == "1. Say Hello — to the world  (com.example.hello.greet)\n")
        // Back again, the provider is one never asked: the first list asks it.
        #expect(sandbox.run("list").stdout == "1. Echo Seven  (com.fixture.kinds.echo)\n2. Echo Dynamic — en  (com.fixture.kinds.echo)\n")
    }

    @Test("a file the command reads that is no regular file (a FIFO nobody writes to, /dev/zero) or too big is refused in a sentence, never read for ever: dynamic set (5), --manifest (5), a routine (a warning; the menu still shows)")
    func filesThatAreNotFiles() throws {
        let fifo = sandbox.root.appendingPathComponent("nobody.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let huge = sandbox.root.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil) && truncate(huge.path, 2 << 30) == 0)
        let refusal = "it is a device, a pipe or a directory, not a regular file"
        for file in [fifo.path, "/dev/zero"] {
            #expect(sandbox.run("dynamic", "set", file) == ProcessResult(status: 5, stdout: "",
                stderr: "standfit-host: error: Cannot read \(file) (\(refusal)); give a readable JSON file or - for standard input.\n"))
            #expect(sandbox.run("list", "--manifest", file) == ProcessResult(status: 5, stdout: "",
                stderr: "standfit-host: error: Cannot read manifest \(file): \(refusal); check that it is a readable file.\n"))
        }
        #expect(sandbox.run("dynamic", "set", huge.path) == ProcessResult(status: 5, stdout: "",
            stderr: "standfit-host: error: Cannot read \(huge.path) (it is 2048 MiB, more than the 16 MiB such a file may be); give a readable JSON file or - for standard input.\n"))
        let routines = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: routines, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: routines.appendingPathComponent("zero.json").path, withDestinationPath: "/dev/zero")
        #expect(sandbox.run("list") == ProcessResult(status: 0, stdout: "1. Echo Seven  (com.fixture.kinds.echo)\n2. Echo Dynamic — en  (com.fixture.kinds.echo)\n",
            stderr: "standfit-host: warning: Shortcut \(routines.path)/zero.json cannot be read (\(refusal)); check its permissions.\n"))
    }

    @Test("dynamic set takes list --json's shape; the script list ranks first; clear empties it")
    func setAndClear() {
        let items = #"""
            [{"type": "com.fixture.kinds.echo", "title": "Echo Nine", "subtitle": "script", "userInfo": {"flag": false, "number": 9}},
             {"type": "com.fixture.kinds.echo", "title": "Seven again", "userInfo": {"flag": true, "number": 7, "note": "from userInfo"}}]
            """#
        #expect(sandbox.run(["dynamic", "set", "-"], stdin: items)
            == ProcessResult(status: 0, stdout: "Stored 2 script items; see 'standfit-host list'.\n", stderr: ""))
        #expect(sandbox.run("list", "--explain").stdout == """
            Kinds fixture (com.fixture.kinds): its own menu, at most 4 shown
            1. Seven again  (com.fixture.kinds.echo)
                 dynamic, from the script list (dynamic set), rank 2; replaces 'Echo Seven' (default item of plugin com.fixture.kinds)
            2. Echo Nine — script  (com.fixture.kinds.echo)
                 dynamic, from the script list (dynamic set), rank 1
            3. Echo Dynamic — en  (com.fixture.kinds.echo)
                 dynamic, from plugin com.fixture.kinds's provider, rank 1

            """)
        // What list --json prints can be fed back as it is.
        let listed = sandbox.run("list", "--json").stdout
        #expect(sandbox.run(["dynamic", "set", "-"], stdin: listed).status == 0)
        // Fed back in menu order, "Seven again" now has rank 1 and ties with the provider's item;
        // the provider's own item, fed back too, is now the script's as well, and shadows its twin.
        #expect(sandbox.run("list").stdout == """
            1. Seven again  (com.fixture.kinds.echo)
            2. Echo Dynamic — en  (com.fixture.kinds.echo)
            3. Echo Nine — script  (com.fixture.kinds.echo)

            """)
        // Running an item with its userInfo; the plugin handled it, so its provider is asked.
        #expect(sandbox.run("run", "com.fixture.kinds.echo", "--user-info", #"{"flag": false, "number": 9}"#).stdout
            == #"flag=false number=9 ratio=0.5 text=[plain] note=NULL provided=0x0f type=com.fixture.kinds.echo locale=en userInfo={"flag":false,"number":9}"# + "\n")
        #expect(sandbox.run("list").stdout == """
            1. Seven again  (com.fixture.kinds.echo)
            2. Echo Dynamic — en  (com.fixture.kinds.echo)
            3. Echo Nine — script  (com.fixture.kinds.echo)

            """)
        #expect(sandbox.run("dynamic", "clear") == ProcessResult(status: 0, stdout: "Cleared the script items.\n", stderr: ""))
        #expect(sandbox.run("list").stdout == "1. Echo Seven  (com.fixture.kinds.echo)\n2. Echo Dynamic — en  (com.fixture.kinds.echo)\n")
    }

    @Test("bad lists are refused whole with the index and the reason", arguments: [
        (#"{"type": "a"}"#, "standard input must hold a JSON array of items, not an object; nothing was changed."),
        (#"[{"title": "No type"}]"#, "standard input: the item at index 0 has no type; nothing was changed."),
        (#"[{"type": "a.b", "title": "Fine"}, {"type": "a.b", "title": "  "}]"#, "standard input: the item at index 1 has a blank title; nothing was changed."),
        (#"[{"type": "a.b"}]"#, "standard input: the item at index 0 has no title; nothing was changed."),
        (#"[{"type": "a.b", "title": "T", "userInfo": [1, 2]}]"#, "standard input: the item at index 0 has a userInfo that is an array; userInfo must be an object of strings, numbers, booleans, arrays and objects; nothing was changed."),
        (#"[{"type": "a.b", "title": "T", "userInfo": {"k": {"deep": null}}}]"#, "standard input: the item at index 0 has null at userInfo.k.deep; userInfo holds strings, numbers, booleans, arrays and objects only; nothing was changed."),
        (#"[{"type": "a.b", "title": "T", "colour": "red"}]"#, "standard input: the item at index 0 has an unknown key 'colour' (the keys are type, title, subtitle, icon, userInfo and validUntil); nothing was changed."),
        ("[{", "standard input is not valid JSON; give a JSON array of items like [{\"type\": \"com.standfit.logexercise\", \"title\": \"Log Squats\"}]. Nothing was changed."),
    ])
    func refused(input: String, message: String) {
        _ = sandbox.run(["dynamic", "set", "-"], stdin: #"[{"type": "com.fixture.kinds.echo", "title": "Kept", "userInfo": {"number": 1}}]"#)
        #expect(sandbox.run(["dynamic", "set", "-"], stdin: input)
            == ProcessResult(status: 5, stdout: "", stderr: "standfit-host: error: \(message)\n"))
        #expect(sandbox.run("list").stdout == """
            1. Echo Seven  (com.fixture.kinds.echo)
            2. Kept  (com.fixture.kinds.echo)
            3. Echo Dynamic — en  (com.fixture.kinds.echo)

            """)
    }

    @Test("a missing file is named; config.json sets the limit; an unknown key is ignored with a warning that says what it probably meant, and doctor lists it")
    func fileAndConfig() throws {
        let missing = sandbox.run("dynamic", "set", "/nonexistent/items.json")
        #expect(missing.status == 5)
        #expect(missing.stderr.hasPrefix("standfit-host: error: Cannot read /nonexistent/items.json ("))
        try FileManager.default.createDirectory(at: sandbox.configDirectory, withIntermediateDirectories: true)
        let config = sandbox.configDirectory.appendingPathComponent("config.json")
        _ = sandbox.run(["dynamic", "set", "-"], stdin: #"[{"type": "com.fixture.kinds.echo", "title": "Second", "userInfo": {"number": 2}}]"#)
        try Data(#"{"menuLimit": 1}"#.utf8).write(to: config)
        #expect(sandbox.run("list").stdout == "1. Echo Seven  (com.fixture.kinds.echo)\n")
        #expect(sandbox.run("list", "--limit", "2").stdout == "1. Echo Seven  (com.fixture.kinds.echo)\n2. Second  (com.fixture.kinds.echo)\n")
        try Data(#"{"menuLimt": 1}"#.utf8).write(to: config)
        // A typo is ignored with a warning that says what it probably meant; the command runs.
        #expect(sandbox.run("list") == ProcessResult(status: 0, stdout: "1. Echo Seven  (com.fixture.kinds.echo)\n2. Second  (com.fixture.kinds.echo)\n3. Echo Dynamic — en  (com.fixture.kinds.echo)\n", stderr: "standfit-host: warning: Unknown setting 'menuLimt' in \(config.path) is ignored (did you mean 'menuLimit'?); the settings are menuLimit, scanTimeout, handlerTimeout, requireTrusted, sandbox, server, serverIdleTimeout, serverWorkers, workerIdleTimeout, suggestionQuietHours, suggestionsPerDay, speechModels.\n"))
        let doctor = sandbox.run("doctor")
        #expect(doctor.status == 1)
        #expect(doctor.stdout.hasSuffix("""
            1 problem:
              - Unknown setting 'menuLimt' in \(config.path) is ignored (did you mean 'menuLimit'?); the settings are menuLimit, scanTimeout, handlerTimeout, requireTrusted, sandbox, server, serverIdleTimeout, serverWorkers, workerIdleTimeout, suggestionQuietHours, suggestionsPerDay, speechModels.

            """))
    }
}
