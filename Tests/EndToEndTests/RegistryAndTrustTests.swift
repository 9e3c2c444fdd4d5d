import Foundation
import Testing
import TestSupport

/// The registry cache, lazy loading, isolation and trust, seen from outside: which shared
/// objects each command makes the dynamic linker open (`LD_DEBUG=files`), and what the host says.
@Suite("Registry cache, lazy loading and trust", .timeLimit(.minutes(10)))
struct RegistryAndTrustTests {
    static var plain: URL { get throws { try FixturePlugins.zoo("plain.so") } }

    /// The plugin files the dynamic linker opened while `arguments` ran, in the host and in
    /// every helper it started, in order.
    static func pluginsOpened(_ sandbox: HostSandbox, _ arguments: String...) -> (result: ProcessResult, files: [String]) {
        var traced = sandbox
        traced.extraEnvironment["LD_DEBUG"] = "files"
        let result = traced.run(arguments)
        let plugins = Set(sandbox.pluginPath.map(\.path))
        let files = result.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file="), line.contains("dynamically loaded by") else { return nil }
            let file = line[range.upperBound...].prefix { $0 != " " }
            return plugins.contains(String(file)) || file.hasPrefix("/proc/self/fd/") ? String(file) : nil
        }
        return (result, files)
    }

    @Test("list and menu-reading commands load no plugin code once the cache is fresh; run loads only the owner of the type")
    func lazyLoading() throws {
        let kinds = try FixturePlugins.url("kinds.so"), plain = try Self.plain
        let sandbox = HostSandbox.zoo([Fixtures.standFitPlugin, kinds, plain])
        // None of these hangs: deadlines a loaded machine cannot miss while the dynamic linker
        // traces every file it opens (LD_DEBUG), so no plugin is quarantined for being slow.
        sandbox.writeConfig(#"{"scanTimeout": 20, "handlerTimeout": 20}"#)
        // The first list scans the three in one helper process, and the host itself opens none
        // but the two with a dynamic provider, asked once on a fresh home.
        let first = Self.pluginsOpened(sandbox, "list")
        #expect(first.result.status == 0)
        #expect(first.files == [Fixtures.standFitPlugin.path, kinds.path, plain.path, Fixtures.standFitPlugin.path, kinds.path])
        #expect(Self.pluginsOpened(sandbox, "list").files == [])
        #expect(Self.pluginsOpened(sandbox, "list", "--json").files == [])
        #expect(Self.pluginsOpened(sandbox, "plugins").files == [])
        // A bundled plugin runs in the host's process; only its own file is opened.
        let streak = Self.pluginsOpened(sandbox, "run", "viewstreak")
        #expect(streak.result == ProcessResult(status: 0, stdout: "No streak yet: log an exercise today to start one.\n", stderr: streak.result.stderr))
        // (On the warm path the workers that answered the first list for the providers run it.)
        let warm = HostPath.current == .warm
        #expect(streak.files == (warm ? [] : [Fixtures.standFitPlugin.path]))
        // Another plugin runs in a worker, which opens only that one.
        let zoo = Self.pluginsOpened(sandbox, "run", "com.zoo.plain.run")
        #expect(zoo.result.stdout == "zoo plain ran\n")
        #expect(zoo.files == [plain.path])
        // Its dynamic provider ran in the same worker: one file opened for handler and provider.
        let echo = Self.pluginsOpened(sandbox, "run", "com.fixture.kinds.echo", "flag=1", "number=3")
        #expect(echo.result.status == 0)
        #expect(echo.files == (warm ? [] : [kinds.path]))
        #expect(sandbox.run("list", "--all").stdout == """
            StandFit (com.standfit)
            1. Log Exercise  (com.standfit.logexercise)

            Kinds fixture (com.fixture.kinds)
            2. Echo Seven  (com.fixture.kinds.echo)
            3. Echo Dynamic — en  (com.fixture.kinds.echo)

            """)
    }

    @Test("a changed plugin is scanned again; a corrupt cache is rebuilt with a note under --verbose")
    func staleAndCorruptCache() throws {
        let directory = makeTemporaryDirectory("standfit-cache")
        let plugin = directory.appendingPathComponent("plugin.so")
        try FileManager.default.copyItem(at: Self.plain, to: plugin)
        let sandbox = HostSandbox.zoo([plugin])
        #expect(Self.pluginsOpened(sandbox, "list").files == [plugin.path])
        #expect(Self.pluginsOpened(sandbox, "list").files == [])
        // A new build of the plugin (another size and time) is scanned again.
        try FileManager.default.removeItem(at: plugin)
        try FileManager.default.copyItem(at: FixturePlugins.zoo("late-register.so"), to: plugin)
        #expect(Self.pluginsOpened(sandbox, "list").files == [plugin.path])
        #expect(sandbox.run("run", "com.zoo.late-register.run").status == 0)

        try Data("this is not a database, it was damaged\n".utf8).write(to: sandbox.registryCache)
        let verbose = sandbox.run("list", "--verbose")
        #expect(verbose.status == 0)
        #expect(verbose.stderr.contains("standfit-host: info: The registry cache \(sandbox.registryCache.path) was unreadable; it was removed and is rebuilt.\n"))
        #expect(Self.pluginsOpened(sandbox, "list").files == [])
        #expect(sandbox.run("run", "com.zoo.late-register.run").stdout == "register_action after init returned -3\n")
    }

    @Test("a STANDFIT_SERVER naming no mode is ignored with a warning that says the way out")
    func unknownServerMode() {
        var sandbox = HostSandbox.zoo([Fixtures.standFitPlugin])
        // config.json's mode then applies: off, so that no server is started by the test.
        sandbox.writeConfig(#"{"server": "off"}"#)
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "sometimes"
        // Off: the warm pass's server hands the command back, as it should.
        sandbox.coldRunsExpected = true
        #expect(sandbox.run("run", "viewstreak") == ProcessResult(status: 0, stdout: "No streak yet: log an exercise today to start one.\n", stderr: """
            standfit-host: warning: STANDFIT_SERVER is 'sometimes', which names no mode, so it is ignored; set it to auto, manual, off or required, or unset it (config.json's "server" then applies).

            """))
    }

    @Test("--isolate runs even a bundled plugin in a worker")
    func isolate() {
        let sandbox = HostSandbox.zoo([Fixtures.standFitPlugin])
        let verbose = sandbox.run("run", "viewstreak", "--isolate", "--verbose")
        #expect(verbose.status == 0)
        #expect(verbose.stdout == "No streak yet: log an exercise today to start one.\n")
        #expect(verbose.stderr.contains("Running plugin 'com.standfit' from \(Fixtures.standFitPlugin.path) in a worker process"))
        // --verbose says first whether the command runs in the warm server, and so where plugins run.
        #expect(verbose.stderr.hasPrefix(HostPath.current == .warm
            ? "standfit-host: debug: Warm server: this command ran in it (pid "
            : "standfit-host: debug: Warm server: none of build "))
        #expect(HostPath.current == .warm || verbose.stderr.contains("; every command runs cold (mode 'off'). Run cold, trusted plugins run in-process and the others in worker processes.\n"))
        let inProcess = sandbox.run("run", "viewstreak", "--verbose")
        // The warm server runs no plugin code in its own process, bundled or not.
        #expect(inProcess.stderr.contains(HostPath.current == .warm
            ? "Running plugin 'com.standfit' from \(Fixtures.standFitPlugin.path) in a worker process"
            : "Loading plugin 'com.standfit' from \(Fixtures.standFitPlugin.path) into the host's process"))
    }

    @Test("trust pins a plugin's SHA-256: it then runs in-process from a sealed copy, and a swapped file loads nothing")
    func trustAndPins() throws {
        let directory = makeTemporaryDirectory("standfit-trust")
        let plugin = directory.appendingPathComponent("mine.so")
        let other = directory.appendingPathComponent("other.so")
        try FileManager.default.copyItem(at: Self.plain, to: plugin)
        try FileManager.default.copyItem(at: FixturePlugins.zoo("late-register.so"), to: other)
        let sandbox = HostSandbox.zoo([plugin, other])
        let hash = runProcess(URL(fileURLWithPath: "/usr/bin/sha256sum"), arguments: [plugin.path]).stdout.prefix(64)
        let notTrusted = "Plugin \(other.path) is not trusted and only trusted plugins may load (--require-trusted); check it with 'standfit-host plugins check \(other.path)', then run 'standfit-host plugins trust \(other.path)'."
        #expect(sandbox.run("plugins", "trust", plugin.path) == ProcessResult(status: 0, stdout: """
            Trusted \(plugin.path) with SHA-256 \(hash): it is now scanned and run without the sandbox, in the host's own process when a command runs cold (in a warm worker when the warm server runs it), so its code can do whatever you can; it loads only while its bytes match, so trust it again after each rebuild ('standfit-host plugins untrust' undoes this).

            """, stderr: ""))
        #expect(sandbox.run("plugins").stdout == """
            com.zoo.plain 0.1.0 (ABI 1.0): Zoo plain
              path: \(plugin.path)
              types: com.zoo.plain.run
              runs: in the host's process (trusted; in a worker when the warm server runs it)

            """ + FixturePlugins.zooListing("late-register", other))
        // Trusted: loaded in the host's process, from the sealed in-memory copy of the checked bytes.
        let run = Self.pluginsOpened(sandbox, "run", "com.zoo.plain.run")
        #expect(run.result.stdout == "zoo plain ran\n")
        #expect(run.files.count == 1)
        #expect(run.files.first?.hasPrefix("/proc/self/fd/") == true)
        // Only pinned plugins load under --require-trusted (or requireTrusted in config.json).
        let strict = sandbox.run("plugins", "--require-trusted")
        #expect(strict.stdout == """
            com.zoo.plain 0.1.0 (ABI 1.0): Zoo plain
              path: \(plugin.path)
              types: com.zoo.plain.run
              runs: in the host's process (trusted; in a worker when the warm server runs it)
            refused: \(other.path)
              Plugin \(other.path) is not trusted and only trusted plugins may load (--require-trusted); check it with 'standfit-host plugins check \(other.path)', then run 'standfit-host plugins trust \(other.path)'.

            """)
        sandbox.writeConfig(#"{"requireTrusted": true}"#)
        #expect(sandbox.run("run", "com.zoo.late-register.run").status == 2)
        #expect(sandbox.run("run", "com.zoo.plain.run").stdout == "zoo plain ran\n")
        // Change a byte in place and put the time back: inode, size and time are as cached, so
        // the menu still lists it, yet the bytes no longer match the pin and nothing runs.
        var before = stat()
        stat(plugin.path, &before)
        let handle = try FileHandle(forUpdating: plugin)
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size - 1)
        let last = try handle.read(upToCount: 1) ?? Data([0])
        try handle.seek(toOffset: size - 1)
        try handle.write(contentsOf: Data([last[0] ^ 0xFF]))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, plugin.path, &times, 0) == 0)
        let changedHash = runProcess(URL(fileURLWithPath: "/usr/bin/sha256sum"), arguments: [plugin.path]).stdout.prefix(64)
        let changed = "Plugin \(plugin.path) changed since you trusted it (its SHA-256 is \(changedHash), the pinned one \(hash)); if you made the change, check it and run 'standfit-host plugins trust \(plugin.path)' again."
        #expect(sandbox.run("plugins").stdout == """
            com.zoo.plain 0.1.0 (ABI 1.0): Zoo plain
              path: \(plugin.path)
              types: com.zoo.plain.run
              runs: in the host's process (trusted; in a worker when the warm server runs it)
            refused: \(other.path)
              \(notTrusted)

            """)
        let swapped = sandbox.run("run", "com.zoo.plain.run")
        #expect(swapped.status == 4)
        #expect(swapped.stderr == "standfit-host: warning: \(notTrusted)\nstandfit-host: Plugin 'com.zoo.plain' could not be loaded (\(changed)) while running com.zoo.plain.run; report this to the plugin's author.\n")
        // Scanned again, it is refused with the same words.
        #expect(sandbox.run("plugins", "rescan").stdout == """
            refused: \(plugin.path)
              \(changed)
            refused: \(other.path)
              \(notTrusted)

            """)
        let doctor = sandbox.run("doctor")
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("  \(plugin.path): CHANGED since it was trusted\n"))
        #expect(sandbox.run("plugins", "untrust", plugin.path).stdout == "No longer trusting \(plugin.path).\n")
    }

    @Test("plugins check reports what a plugin registers and what to fix; doctor sums up")
    func checkAndDoctor() throws {
        let plain = try Self.plain
        let sandbox = HostSandbox.zoo([plain])
        let sloppy = try FixturePlugins.zoo("sloppy.so")
        let check = sandbox.run("plugins", "check", sloppy.path)
        #expect(check.status == 0)
        // Its two measured figures, init's time and the warning that names it, as N.
        let report = withoutInitTime(check.stdout).replacing(#/\n    - init took [0-9]+ ms;/#, with: "\n    - init took N ms;")
        #expect(report == """
            Plugin \(sloppy.path)
              id: com.zoo.sloppy 0.1.0 ("Zoo sloppy"), ABI 1.0
              init: N ms
              sha256: \(sha256(of: sloppy))
              runs: in a worker process (not trusted; 'standfit-host plugins trust' pins it)
              types:
                com.zoo.sloppy.run "Run the sloppy zoo plugin's only action"
                  icon: no.such.icon
              static items: none
              dynamic provider: no
              warnings:
                - init took N ms; keep it under 100 ms (no I/O beyond the plugin's own files), since it runs whenever the plugin is scanned.
                - The action com.zoo.sloppy.run has the title "Run the sloppy zoo plugin's only action" of 39 characters; menus show about 25, so shorten it.
                - The action com.zoo.sloppy.run has the icon "no.such.icon", which is not an SF Symbol, UIApplicationShortcutIconType or freedesktop icon name the host knows, so it shows as a plain bullet; the closest known names are location, lock.open, bolt.circle (docs/PLUGIN_GUIDE.md lists them all).
            OK with 3 warnings: com.zoo.sloppy loads, with 1 type.

            """)

        let greeter = sandbox.run("plugins", "check", Fixtures.swiftExamplePlugin.path)
        #expect(withoutInitTime(greeter.stdout) == """
            Plugin \(Fixtures.swiftExamplePlugin.path)
              id: com.example.greeter 1.0.0 ("Greeter (Swift example)"), ABI 1.0
              init: N ms
              sha256: \(sha256(of: Fixtures.swiftExamplePlugin))
              runs: in a worker process (not trusted; 'standfit-host plugins trust' pins it)
              types:
                com.example.greeter.greet "Greet" (name: string, required; times: int = 1; excited: bool = false; greeting: string?)
                  subtitle: "Say hello to someone"
                  icon: hand.wave
                  times: from 1 to 5
                com.example.greeter.tip "Split the Bill" (amount: double, required; percent: double = 15.0; people: int?)
                  icon: dollarsign.circle
              static items:
                com.example.greeter.greet "Greet the World" {"name":"World"}
              dynamic provider: no
            OK: com.example.greeter loads, with 2 types and no warnings.

            """)

        let crash = try FixturePlugins.zoo("crash-init.so").path
        #expect(sandbox.run("plugins", "check", crash) == ProcessResult(status: 4, stdout: """
            Plugin \(crash)
              quarantined: Plugin \(crash) crashed with SIGSEGV (segmentation fault) while it was loaded and initialised, in its own code in init; it is quarantined until the file changes, so fix or remove it (or run 'standfit-host plugins rescan' to try it again).

            """, stderr: ""))
        #expect(sandbox.run("plugins", "check", "/nonexistent/x.so").stdout == """
            Plugin /nonexistent/x.so
              refused: There is no file at /nonexistent/x.so; give the path of the plugin's .so file.

            """)

        let doctor = sandbox.run("doctor")
        #expect(doctor.status == 0)
        #expect(doctor.stdout.contains("Plugins: 1 loaded, 0 refused, 0 quarantined"))
        #expect(doctor.stdout.contains("  ok: com.zoo.plain 0.1.0, 1 type, runs worker: \(plain.path)\n"))
        #expect(doctor.stdout.hasSuffix("No problems found.\n"))
        var broken = sandbox
        let exitInit = try FixturePlugins.zoo("exit-init.so")
        broken.pluginPath.append(exitInit)
        let sick = broken.run("doctor")
        #expect(sick.status == 1)
        #expect(sick.stdout.hasSuffix("""
            1 problem:
              - Plugin \(exitInit.path) exited with status 3 while it was loaded and initialised, in its own code in init; it is quarantined until the file changes, so fix or remove it (or run 'standfit-host plugins rescan' to try it again).

            """))
    }
}
