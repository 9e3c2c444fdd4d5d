import Foundation
import Testing
import TestSupport

/// The second hostile-plugin zoo (issue 20): plugins that forge the scan helper's answers, kill
/// what they can reach, fork children that hold pipes, smuggle terminal escapes, claim the
/// bundled plugin's types, answer with megabytes, and crash their provider after a handled
/// action. Each case checks exit status, exact words, the data and that no process is left.
@Suite("The hostile plugin zoo, round two", .timeLimit(.minutes(10)), .needs(.sqlite3))
struct HostilePluginRoundTwoTests {
    static var plain: URL { get throws { try FixturePlugins.zoo("plain.so") } }
    static var plainListing: String { get throws { FixturePlugins.zooListing("plain", try Self.plain) } }

    static func quarantined(_ path: String, _ how: String) -> String {
        "Plugin \(path) \(how) while it was loaded and initialised; it is quarantined until the file changes, so fix or remove it (or run 'standfit-host plugins rescan' to try it again)."
    }

    @Test("a plugin writing forged answer records during its scan is blamed alone: garbage quarantines it, a forged record breaking the rules is refused, the plugins after it load")
    func forgedScanAnswers() throws {
        let garbage = try FixturePlugins.zoo("forge-garbage.so"), record = try FixturePlugins.zoo("forge-record.so")
        let plain = try Self.plain
        var sandbox = HostSandbox.zoo([garbage, record, plain, Fixtures.standFitPlugin])
        // StandFit's answer depends on the time of day (an early-bird achievement): a fixed one.
        sandbox.extraEnvironment = ["TZ": "Europe/Amsterdam", "STANDFIT_NOW": "2026-11-22T13:05:00Z"]
        let expected = """
            com.zoo.plain 0.1.0 (ABI 1.0): Zoo plain
              path: \(plain.path)
              types: com.zoo.plain.run
              runs: in a worker process
            com.standfit 1.0.0 (ABI 1.0): StandFit
              path: \(Fixtures.standFitPlugin.path)
              types: com.standfit.logexercise, com.standfit.loglast, com.standfit.viewstreak, com.standfit.viewprogress, com.standfit.undo, com.standfit.redo, com.standfit.history, com.standfit.deletelog, com.standfit.editlog, com.standfit.achievements, com.standfit.export, com.standfit.import, com.standfit.addexercise, com.standfit.renameexercise, com.standfit.hideexercise, com.standfit.setgoal, com.standfit.goalreminder
              runs: in the host's process (trusted; in a worker when the warm server runs it)
            quarantined: \(garbage.path)
              \(Self.quarantined(garbage.path, "wrote a scan answer the host cannot read"))
            refused: \(record.path)
              Plugin \(record.path) gave a scan answer that breaks the rules of registration (it has action type 'com.zoo.forged\\n$(touch /tmp/forged)', which registering would not accept), so it wrote the answer itself; it is refused until the file changes, so fix or remove it.

            """
        let first = sandbox.run("plugins")
        #expect(first.stdout == expected)
        #expect(first.status == 0)
        // The verdicts are cached with the file: the second look runs no plugin code and agrees.
        #expect(sandbox.run("plugins").stdout == expected)
        #expect(sandbox.run("run", "com.zoo.plain.run").stdout == "zoo plain ran\n")
        let logged = sandbox.run("run", "logexercise", "exercise=squats", "count=5")
        #expect(logged.status == 0)
        #expect(logged.stdout == "Logged 5 squats · +5 XP\nAchievement unlocked: First log\n")
        #expect(sandbox.stateIntegrity() == "ok")
    }

    @Test("a plugin that kills the scan helper during init: the sandbox refuses the signal; without it, the plugin is quarantined by name and the plugins after it are scanned")
    func killsItsScanHelper() throws {
        let killer = try FixturePlugins.zoo("kill-parent.so")
        let plain = try Self.plain, plainListing = try Self.plainListing
        let sandboxed = HostSandbox.zoo([killer, plain])
        // Refused the signal, it loads as any plugin does, and the one after it too.
        #expect(sandboxed.run("plugins") == ProcessResult(status: 0, stdout: """
            com.zoo.kill-parent 0.1.0 (ABI 1.0): Zoo kill-parent
              path: \(killer.path)
              types: com.zoo.kill-parent.run
              runs: in a worker process

            """ + plainListing, stderr: ""))
        let sandbox = HostSandbox.zoo([killer, plain])
        sandbox.writeConfig(#"{"sandbox": false}"#)
        #expect(sandbox.run("plugins") == ProcessResult(status: 0, stdout: plainListing + """
            quarantined: \(killer.path)
              \(Self.quarantined(killer.path, "ended the scan helper that loaded it (crashed with SIGKILL (killed))"))

            """, stderr: ""))
        #expect(sandbox.run("run", "com.zoo.plain.run").stdout == "zoo plain ran\n")
    }

    @Test("a plugin that kills the host while it is scanned: the sandbox refuses the signal; without it, the next command quarantines the plugin and works")
    func killsTheHost() throws {
        let killer = try FixturePlugins.zoo("kill-host.so")
        let plain = try Self.plain, plainListing = try Self.plainListing
        var sandboxed = HostSandbox.zoo([killer, plain])
        sandboxed.extraEnvironment["ZOO_MARK"] = sandboxed.root.appendingPathComponent("killed-once").path
        // Refused the signal, it loads as any plugin does, and the one after it too.
        #expect(sandboxed.run("plugins") == ProcessResult(status: 0, stdout: """
            com.zoo.kill-host 0.1.0 (ABI 1.0): Zoo kill-host
              path: \(killer.path)
              types: com.zoo.kill-host.run
              runs: in a worker process

            """ + plainListing, stderr: ""))
        var sandbox = HostSandbox.zoo([killer, plain])
        sandbox.writeConfig(#"{"sandbox": false}"#)
        // The fixture kills only while this file is missing: were it not quarantined, the second
        // scan would load it. (The sandbox above gives it no place to write the file.)
        sandbox.extraEnvironment["ZOO_MARK"] = sandbox.root.appendingPathComponent("killed-once").path
        let killed = sandbox.run("plugins")
        if HostPath.current == .warm {
            // The plugin killed the warm server that scanned it; the client says so, and does
            // not run the command again.
            #expect(killed.status == 4)
            // Its pid, which varies, as N.
            #expect(killed.stderr.replacing(#/\(pid [0-9]+\)/#, with: "(pid N)")
                    == "standfit-host: error: The standfit-host server (pid N) ended while it ran 'plugins'; the command was not run again, so check whether it took effect before you repeat it.\n", "\(killed)")
            // The killed server is gone before the next command: one still dying can accept a
            // connection on its listening socket for a moment after the client's closed, and the
            // next command would find nobody there (seen under load).
            #expect(sandbox.server.waitForExit(10))
        } else {
            #expect(killed.status == SIGKILL)
        }
        #expect(killed.stdout == "")
        let next = sandbox.run("plugins")
        #expect(next == ProcessResult(status: 0, stdout: plainListing + """
            quarantined: \(killer.path)
              Plugin \(killer.path) was being scanned when the host was killed, so it is taken to have killed it; it is quarantined until the file changes, so fix or remove it (or run 'standfit-host plugins rescan' to try it again).

            """, stderr: ""))
        #expect(sandbox.run("run", "com.zoo.plain.run").stdout == "zoo plain ran\n")
        let cache = sandbox.root.appendingPathComponent("cache/standfit").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasPrefix("scan-in-progress") } == [])
    }

    @Test("a handler's kill(0, SIGTERM) reaches only its worker: the user's script goes on")
    func killsItsGroup() throws {
        let sandbox = try HostSandbox.zoo([FixturePlugins.zoo("kill-group.so")])
        #expect(sandbox.serveWarmPath() == nil)
        let script = sandbox.checkingHandBacks("run com.zoo.kill-group.run") {
            runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: [
                "-c", "\"$0\" run com.zoo.kill-group.run; echo \"the script went on after exit $?\"", Fixtures.hostBinary.path,
            ], environment: sandbox.environment)
        }
        #expect(script == ProcessResult(status: 0, stdout: "the script went on after exit 4\n", stderr: """
            standfit-host: Plugin 'com.zoo.kill-group' crashed with SIGTERM (terminated) while running com.zoo.kill-group.run; report this to the plugin's author.

            """))
    }

    @Test("children a plugin forks in init or in its handler are killed with their helper and hold no pipe open")
    func forkedChildren() throws {
        var sandbox = try HostSandbox.zoo([FixturePlugins.zoo("fork-init.so"), FixturePlugins.zoo("fork-handler.so")])
        // Without the sandbox, so that the fixture can write its children's pids where the test reads them.
        sandbox.writeConfig(#"{"sandbox": false}"#)
        let pidFile = sandbox.root.appendingPathComponent("pids")
        sandbox.extraEnvironment["ZOO_PIDFILE"] = pidFile.path
        #expect(sandbox.run("plugins").status == 0)
        // A pipeline ends when the run does: nothing the plugin forked holds its stderr.
        let piped = sandbox.checkingHandBacks("run com.zoo.fork-handler.run") {
            runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: [
                "-c", "\"$0\" run com.zoo.fork-handler.run 2>&1 | cat", Fixtures.hostBinary.path,
            ], environment: sandbox.environment)
        }
        #expect(piped == ProcessResult(status: 0, stdout: "zoo fork-handler ran\n", stderr: ""))
        let pids = try String(contentsOf: pidFile, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
        // One child from fork-init's init in its scan, one from fork-handler's handler.
        #expect(pids.count == 2)
        for pid in pids { #expect(ProcessProbe.isGone(pid), "process \(pid) forked by a plugin is still running") }
    }

    @Test("names, titles, subtitles and messages with terminal escapes, CR, LF and bidi overrides are shown, not obeyed; --json stays exact")
    func escapesAreShown() throws {
        let escapes = try FixturePlugins.zoo("escapes.so")
        let sandbox = HostSandbox.zoo([escapes])
        #expect(sandbox.run("plugins") == ProcessResult(status: 0, stdout: """
            com.zoo.escapes 0.1.0 (ABI 1.0): Zoo \\u{202e}escapes
              path: \(escapes.path)
              types: com.zoo.escapes.run
              runs: in a worker process

            """, stderr: ""))
        #expect(sandbox.run("list") == ProcessResult(status: 0, stdout: """
            1. Run \\x1b]0;pwned\\x07escapes\\nfake line — \\x1b[2J\\rcleared  (com.zoo.escapes.run)

            """, stderr: ""))
        #expect(sandbox.run("run", "com.zoo.escapes.run") == ProcessResult(status: 0, stdout: "zoo \\x1b[31mred\\x1b[0m\\rran \\u{9b}2J\n", stderr: ""))
        let json = sandbox.run("list", "--json")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(items.first?["title"] as? String == "Run \u{1B}]0;pwned\u{07}escapes\nfake line")
        #expect(items.first?["subtitle"] as? String == "\u{1B}[2J\rcleared")
        let run = sandbox.run("run", "com.zoo.escapes.run", "--json")
        let outcome = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(outcome["message"] as? String == "zoo \u{1B}[31mred\u{1B}[0m\rran \u{9B}2J")
    }

    @Test("a user plugin cannot take the bundled plugin's types or id: it is refused naming both, and StandFit answers")
    func bundledWins() throws {
        let type = try FixturePlugins.zoo("impostor-type.so"), id = try FixturePlugins.zoo("impostor-id.so")
        // The impostors come first on the path, where they used to win.
        var sandbox = HostSandbox.zoo([type, id, Fixtures.standFitPlugin])
        sandbox.extraEnvironment = ["TZ": "Europe/Amsterdam", "STANDFIT_NOW": "2026-11-22T13:05:00Z"]
        let plugins = sandbox.run("plugins")
        #expect(plugins.status == 0)
        #expect(plugins.stdout == """
            com.standfit 1.0.0 (ABI 1.0): StandFit
              path: \(Fixtures.standFitPlugin.path)
              types: com.standfit.logexercise, com.standfit.loglast, com.standfit.viewstreak, com.standfit.viewprogress, com.standfit.undo, com.standfit.redo, com.standfit.history, com.standfit.deletelog, com.standfit.editlog, com.standfit.achievements, com.standfit.export, com.standfit.import, com.standfit.addexercise, com.standfit.renameexercise, com.standfit.hideexercise, com.standfit.setgoal, com.standfit.goalreminder
              runs: in the host's process (trusted; in a worker when the warm server runs it)
            refused: \(type.path)
              Plugin \(type.path) ('com.zoo.impostor-type') registers shortcut type 'com.standfit.logexercise', which belongs to the bundled plugin 'com.standfit' (\(Fixtures.standFitPlugin.path)); a plugin that is not bundled cannot take a bundled plugin's types, so remove it or change its type.
            refused: \(id.path)
              Plugin \(id.path) has id 'com.standfit', which the bundled plugin at \(Fixtures.standFitPlugin.path) uses; a plugin that is not bundled cannot take a bundled plugin's id, so remove it or change its id.

            """)
        let run = sandbox.run("run", "logexercise", "exercise=squats", "count=3")
        #expect(run.status == 0)
        #expect(run.stdout == "Logged 3 squats · +3 XP\nAchievement unlocked: First log\n")
        // StandFit logged it: its undo finds the entry.
        #expect(sandbox.run("run", "undo").stdout == "Removed 3 squats logged at 14:05 · −3 XP\nAchievement taken back: First log\n")
    }

    @Test("a provider that crashes or fails after its action was handled: the run stands (exit 0), the provider is warned about, the previous items stay")
    func providerFaultAfterAction() throws {
        var sandbox = try HostSandbox.zoo([FixturePlugins.zoo("provider.so")])
        let item = "1. Zoo item  (com.zoo.provider.run)\n"
        #expect(sandbox.run("run", "com.zoo.provider.run") == ProcessResult(status: 0, stdout: "zoo provider ran\n", stderr: ""))
        #expect(sandbox.run("list").stdout == item)
        sandbox.extraEnvironment["ZOO_PROVIDER_FAIL"] = "crash"
        #expect(sandbox.run("run", "com.zoo.provider.run") == ProcessResult(status: 0, stdout: "zoo provider ran\n", stderr: """
            standfit-host: warning: The dynamic provider of plugin 'com.zoo.provider' crashed with SIGSEGV (segmentation fault) after its action was handled; its previous items are kept.

            """))
        sandbox.extraEnvironment["ZOO_PROVIDER_FAIL"] = "status"
        #expect(sandbox.run("run", "com.zoo.provider.run") == ProcessResult(status: 0, stdout: "zoo provider ran\n", stderr: """
            standfit-host: warning: The dynamic provider of plugin 'com.zoo.provider' failed with status 1; its previous items are kept.

            """))
        #expect(sandbox.run("list").stdout == item)
        // Each handled run was recorded once.
        #expect(sandbox.run("donations").stdout.split(separator: "\n").count == 3)
    }

    @Test("valid JSON data nested 100,000 deep is refused naming the depth limit, not called invalid")
    func deepJSON() throws {
        let sandbox = try HostSandbox.zoo([FixturePlugins.zoo("deep-json.so")])
        #expect(sandbox.run("run", "com.zoo.deep-json.run") == ProcessResult(status: 4, stdout: "", stderr: """
            standfit-host: Plugin 'com.zoo.deep-json' attached data nested deeper than 512 levels (the most the host reads) while running com.zoo.deep-json.run; report this to the plugin's author.

            """))
    }

    @Test("a 10 MB answer is read whole; one past the limit is refused naming the limit")
    func bigAnswers() throws {
        var sandbox = try HostSandbox.zoo([FixturePlugins.zoo("big-message.so")])
        sandbox.writeConfig(#"{"scanTimeout": 5, "handlerTimeout": 20}"#)
        sandbox.extraEnvironment["ZOO_BIG_MESSAGE"] = "10000000"
        let big = sandbox.run("run", "com.zoo.big-message.run")
        #expect(big.status == 0)
        #expect(big.stdout.utf8.count == 10_000_001)
        #expect(big.stderr == "")
        sandbox.extraEnvironment["ZOO_BIG_MESSAGE"] = "40000000"
        #expect(sandbox.run("run", "com.zoo.big-message.run") == ProcessResult(status: 4, stdout: "", stderr: """
            standfit-host: Plugin 'com.zoo.big-message' answered from its worker with more than 32 MiB (the most the host reads) while running com.zoo.big-message.run; report this to the plugin's author.

            """))
    }

    @Test("6,000 actions register within the scan timeout, and a sentence that eight adjacent placeholders could cut millions of ways is answered at once")
    func boundedCosts() throws {
        let crowd = try FixturePlugins.zoo("crowd.so")
        let sandbox = HostSandbox(pluginPath: [crowd])
        let plugins = sandbox.run("plugins", "--json")
        #expect(plugins.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(plugins.stdout.utf8)) as? [String: Any])
        let loaded = try #require(document["plugins"] as? [[String: Any]])
        #expect((loaded.first?["types"] as? [String])?.count == 6001)
        // 44 words where the phrase wants "note" and eight values, then "now": no way fits.
        let words = (1...44).map(String.init).joined(separator: " ")
        #expect(sandbox.run("say", "note \(words)") == ProcessResult(status: 2, stdout: "", stderr: """
            standfit-host: No action understands 'note \(words)'; the closest phrases are 'note … … … … … … … … now' (Note).

            """))
        let fits = sandbox.run("say", "note a b c d e f g h now")
        #expect(fits == ProcessResult(status: 0, stdout: "a|b|c|d|e|f|g|h\n", stderr: ""))
    }

    @Test("StandFit reads while another process holds its log's write lock")
    func standFitReadsDoNotWaitForWriters() throws {
        let sandbox = HostSandbox.standFit()
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        let log = sandbox.dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite")
        // sqlite3 takes the write lock and keeps it until its stdin closes.
        let writer = Process()
        writer.executableURL = ExternalTool.sqlite3.url
        writer.arguments = [log.path]
        let input = Pipe()
        writer.standardInput = input
        writer.standardOutput = FileHandle.nullDevice
        try writer.run()
        defer {
            try? input.fileHandleForWriting.close()
            writer.waitUntilExit()
        }
        input.fileHandleForWriting.write(Data(".timeout 5000\nBEGIN IMMEDIATE;\nINSERT INTO log (exercise, count, loggedAt) VALUES ('squats', 1, '2026-11-22 13:00:00.000');\n".utf8))
        // Until the lock is taken, a second writer can still begin (this probe waits for nothing;
        // the writer above waits up to 5 s for a probe that holds the lock a moment).
        var locked = false
        for _ in 0..<100 where !locked {
            locked = runProcess(ExternalTool.sqlite3.url, arguments: [log.path, "BEGIN IMMEDIATE; ROLLBACK;"]).status != 0
            if !locked { usleep(20_000) }
        }
        #expect(locked)
        // The read sees what was committed, and does not wait for the writer.
        #expect(sandbox.run("run", "viewstreak") == ProcessResult(status: 0, stdout: "Streak: 1 day\nBest streak: 1 day · level 1 · 20 XP\n", stderr: ""))
    }

    /// On the warm path a trusted plugin runs in a worker too, and its fault has a worker's words.
    @Test("a trusted plugin that crashes or calls exit() in the host's process ends the command in one sentence naming it, with exit 4", arguments: [
        ("crash-handler", "crashed with SIGSEGV (segmentation fault) while running com.zoo.crash-handler.run in the host's process; what it was doing may or may not have taken effect, so check before you run it again, and report this to the plugin's author (run it with --isolate to keep the host out of it).",
         "crashed with SIGSEGV (segmentation fault) while running com.zoo.crash-handler.run; report this to the plugin's author."),
        ("abort-handler", "crashed with SIGABRT (aborted) while running com.zoo.abort-handler.run in the host's process; what it was doing may or may not have taken effect, so check before you run it again, and report this to the plugin's author (run it with --isolate to keep the host out of it).",
         "crashed with SIGABRT (aborted) while running com.zoo.abort-handler.run; report this to the plugin's author."),
        ("exit-handler", "called exit() while running com.zoo.exit-handler.run in the host's process, which ended the command; what it was doing may or may not have taken effect, so check before you run it again, and report this to the plugin's author.",
         "exited with status 3 while running com.zoo.exit-handler.run; report this to the plugin's author."),
    ])
    func trustedCrashes(id: String, words: String, warmWords: String) throws {
        let words = HostPath.current == .warm ? warmWords : words
        let plugin = try FixturePlugins.zoo("\(id).so")
        let sandbox = try HostSandbox.zoo([plugin, Self.plain])
        #expect(sandbox.run("plugins", "trust", plugin.path).status == 0)
        #expect(sandbox.run("run", "com.zoo.\(id).run") == ProcessResult(status: 4, stdout: "", stderr: "standfit-host: Plugin 'com.zoo.\(id)' \(words)\n"))
        // In Dutch: the sentence is put into words before the call, in the run's language.
        if HostPath.current == .cold {
            let dutch = sandbox.run("run", "com.zoo.\(id).run", "--locale", "nl")
            let expected = id == "exit-handler"
                ? "standfit-host: Plug-in 'com.zoo.exit-handler' riep exit() aan tijdens com.zoo.exit-handler.run in het proces van de host, en dat beëindigde de opdracht; wat hij deed kan wel of niet zijn doorgevoerd, dus controleer dat voor je het opnieuw doet, en meld dit aan de maker van de plug-in.\n"
                : "standfit-host: Plug-in 'com.zoo.\(id)' crashte met \(id == "crash-handler" ? "SIGSEGV (segmentation fault)" : "SIGABRT (aborted)") tijdens com.zoo.\(id).run in het proces van de host; wat hij deed kan wel of niet zijn doorgevoerd, dus controleer dat voor je het opnieuw doet, en meld dit aan de maker van de plug-in (voer het uit met --isolate om de host erbuiten te houden).\n"
            #expect(dutch == ProcessResult(status: 4, stdout: "", stderr: expected), "\(dutch)")
        }
        // The host is sound afterwards, and the same plugin, isolated, fails as a worker does.
        #expect(sandbox.run("run", "com.zoo.plain.run").stdout == "zoo plain ran\n")
        #expect(sandbox.run("run", "--isolate", "com.zoo.\(id).run").status == 4)
        #expect(sandbox.stateIntegrity() == "ok")
    }

    @Test("doctor checks the SQLite data of every plugin: a damaged StandFit log is a problem with its way out")
    func doctorChecksPluginData() throws {
        let sandbox = HostSandbox.standFit()
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        let log = sandbox.dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite")
        let sound = sandbox.run("doctor")
        #expect(sound.status == 0)
        #expect(sound.stdout.contains("  data of com.standfit: \(log.path): sound\n"))
        // Overwrite the second page (the log table's first) with garbage, once nothing has the
        // database open (on the warm path, StandFit's warm worker does, with the page in its WAL).
        sandbox.server.stopAll()
        let handle = try FileHandle(forWritingTo: log)
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xDE, count: 4096))
        try handle.close()
        let damaged = sandbox.run("doctor")
        #expect(damaged.status == 1)
        #expect(damaged.stdout.contains("  data of com.standfit: \(log.path): DAMAGED\n"))
        // A file named as a database that is not one at all is found too.
        let notes = sandbox.dataHome.appendingPathComponent("standfit/data/com.standfit/old.db")
        try Data("not a database\n".utf8).write(to: notes)
        #expect(sandbox.run("doctor").stdout.contains("""
              - The data of plugin 'com.standfit' in \(notes.path) fails SQLite's check (file is not a database); restore it from a backup, or move it aside to start afresh (the plugin then starts with no data).

            """))
        try FileManager.default.removeItem(at: notes)
        #expect(damaged.stdout.hasSuffix("""
            1 problem:
              - The data of plugin 'com.standfit' in \(log.path) fails SQLite's check (database disk image is malformed); restore it from a backup, or move it aside to start afresh (the plugin then starts with no data).

            """))
        // A log that is no database at all: StandFit names the file and the way out.
        sandbox.server.stopAll()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: log.path + suffix) }
        try Data(String(repeating: "not a database\n", count: 300).utf8).write(to: log)
        #expect(sandbox.run("run", "viewstreak") == ProcessResult(status: 4, stdout: "", stderr: """
            standfit-host: Plugin 'com.standfit' failed to run com.standfit.viewstreak: StandFit's log \(log.path) is damaged (file is not a database); restore it from a backup, or move it aside to start afresh with an empty log.

            """))
    }

    @Test("an untrusted plugin runs sandboxed: no reading the user's files, no writing the host's, no signal to the host, no leaving its group; its data directory and TMPDIR are its own")
    func sandboxed() throws {
        let snoop = try FixturePlugins.zoo("snoop.so")
        var sandbox = HostSandbox.zoo([snoop])
        let secret = sandbox.root.appendingPathComponent("secret")
        try Data("secret\n".utf8).write(to: secret)
        let target = sandbox.root.appendingPathComponent("cache/standfit/forged")
        sandbox.extraEnvironment["ZOO_SECRET"] = secret.path
        sandbox.extraEnvironment["ZOO_TARGET"] = target.path
        #expect(sandbox.run("run", "com.zoo.snoop.run") == ProcessResult(status: 0, stdout: """
            read secret: denied (EACCES); write target: denied (EACCES); signal host: denied (EPERM); setsid: denied (EPERM); clear parent-death signal: denied (EPERM); write data directory: ok; write TMPDIR: ok

            """, stderr: ""))
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(FileManager.default.fileExists(atPath: sandbox.dataHome.appendingPathComponent("standfit/data/com.zoo.snoop/snoop").path))
        // Its private temporary directory (beneath the host's cache) is gone with the worker (on
        // the warm path, a warm worker ends with its server).
        sandbox.server.stopAll()
        let temporaries = sandbox.root.appendingPathComponent("cache/standfit/sandbox")
        #expect(FileManager.default.fileExists(atPath: temporaries.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporaries.path) == [])
        #expect(sandbox.run("doctor").stdout.contains("Sandbox for untrusted plugins: Landlock ABI"))
        // Without the sandbox the same plugin writes into the host's cache (and signals the host,
        // which ends it unless SIGTERM is ignored where the test runs).
        sandbox.writeConfig(#"{"sandbox": false}"#)
        _ = sandbox.run("run", "com.zoo.snoop.run")
        #expect(FileManager.default.fileExists(atPath: target.path))
    }
}

/// Whether a process still runs.
enum ProcessProbe {
    /// True once `pid` is gone or a zombie (dead, waiting to be reaped), waiting up to 2 s.
    static func isGone(_ pid: Int32) -> Bool {
        for _ in 0..<200 {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            // The state follows the command name in parentheses: "123 (name) Z ...".
            if let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z" { return true }
            usleep(10_000)
        }
        return false
    }
}
