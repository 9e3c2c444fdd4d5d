import Foundation
import Testing
import TestSupport

/// The hostile-plugin zoo against the built binary: each misbehaving plugin is named with its
/// fault, the host survives, the other plugins keep working and the state stays sound.
@Suite("The hostile plugin zoo", .timeLimit(.minutes(10)), .needs(.sqlite3))
struct PluginZooTests {
    static var plain: URL { get throws { try FixturePlugins.zoo("plain.so") } }

    /// The quarantine sentence for a plugin that died while it was scanned.
    static func quarantined(_ path: String, _ how: String) -> String {
        "Plugin \(path) \(how) while it was loaded and initialised, in its own code in init; it is quarantined until the file changes, so fix or remove it (or run 'standfit-host plugins rescan' to try it again)."
    }

    /// `result` with the frame lines of the Swift runtime's "Current stack trace:" taken out of
    /// its stderr ("12   standfit-host-full   0x… <unavailable> + 10648261"): their number,
    /// addresses and offsets differ between builds, and between the cold and the warm path (the
    /// server's worker ran the handler). Everything else is compared whole.
    static func withoutStackFrames(_ result: ProcessResult) -> ProcessResult {
        var result = result
        result.stderr = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.wholeMatch(of: #/[0-9]+ +\S+ +0x[0-9a-f]+ .*/#) == nil }
            .joined(separator: "\n")
        return result
    }

    static var plainListing: String { get throws { FixturePlugins.zooListing("plain", try Self.plain) } }

    @Test("a plugin that crashes, aborts, traps, fails a Swift precondition, exits or hangs in init is quarantined, named with its fault, and skipped until the file changes (the one that hangs in a sandbox of its own, with a 1 s scan deadline)")
    func faultsInInit() throws {
        let faults: [(file: String, how: String)] = [
            ("crash-init.so", "crashed with SIGSEGV (segmentation fault)"),
            ("abort-init.so", "crashed with SIGABRT (aborted)"),
            ("trap-init.so", "crashed with SIGILL (illegal instruction)"),
            ("precondition-init.so", "crashed with SIGILL (illegal instruction)"),
            ("exit-init.so", "exited with status 3"),
        ]
        let files = try faults.map { try FixturePlugins.zoo($0.file) }
        // The default deadlines: the others crash or exit, however slowly under load.
        let sandbox = try HostSandbox.zoo([Self.plain] + files)
        let expected = try Self.plainListing + zip(faults, files).map { fault, file in
            "quarantined: \(file.path)\n  \(Self.quarantined(file.path, fault.how))\n"
        }.joined()
        let first = sandbox.run("plugins")
        #expect(first.status == 0)
        #expect(first.stdout == expected)
        // Only the scan ran their code; the second look answers from the cache and runs none.
        #expect(sandbox.run("plugins") == ProcessResult(status: 0, stdout: expected, stderr: ""))
        #expect(sandbox.run("run", "com.zoo.plain.run") == ProcessResult(status: 0, stdout: "zoo plain ran\n", stderr: """
            standfit-host: warning: \(zip(faults, files).map { fault, file in Self.quarantined(file.path, fault.how) }.joined(separator: "\nstandfit-host: warning: "))

            """))
        #expect(sandbox.stateIntegrity() == "ok")
        // One that hangs, in a sandbox of its own, whose scan deadline is 1 s (HostSandbox.zoo),
        // so that no good plugin has to be scanned within it.
        let hang = try FixturePlugins.zoo("hang-init.so")
        #expect(HostSandbox.zoo([hang]).run("plugins") == ProcessResult(status: 0, stdout: """
            quarantined: \(hang.path)
              \(Self.quarantined(hang.path, "timed out after 1 s"))

            """, stderr: ""))
    }

    @Test("a quarantined plugin is scanned again when its file changes, and on 'plugins rescan'")
    func quarantineEndsWhenTheFileChanges() throws {
        let directory = makeTemporaryDirectory("standfit-zoo-change")
        let plugin = directory.appendingPathComponent("changing.so")
        try FileManager.default.copyItem(at: FixturePlugins.zoo("exit-init.so"), to: plugin)
        let sandbox = HostSandbox.zoo([plugin])
        let quarantine = "quarantined: \(plugin.path)\n  \(Self.quarantined(plugin.path, "exited with status 3"))\n"
        #expect(sandbox.run("plugins").stdout == quarantine)
        // rescan forgets the cache: the plugin is tried again (and quarantined again).
        let rescan = sandbox.run("plugins", "rescan")
        #expect(rescan == ProcessResult(status: 0, stdout: quarantine, stderr: ""))
        // A fixed build of the plugin replaces the file: it is scanned anew and loads.
        try FileManager.default.removeItem(at: plugin)
        try FileManager.default.copyItem(at: Self.plain, to: plugin)
        #expect(sandbox.run("plugins").stdout == """
            com.zoo.plain 0.1.0 (ABI 1.0): Zoo plain
              path: \(plugin.path)
              types: com.zoo.plain.run
              runs: in a worker process

            """)
        #expect(sandbox.run("run", "com.zoo.plain.run").stdout == "zoo plain ran\n")
        #expect(sandbox.stateIntegrity() == "ok")
    }

    @Test("a handler that crashes, aborts, traps, exits or hangs fails alone: plugin-failed names the plugin, the type and the fault", arguments: [
        ("crash-handler", "crashed with SIGSEGV (segmentation fault)"),
        ("abort-handler", "crashed with SIGABRT (aborted)"),
        ("precondition-handler", "crashed with SIGILL (illegal instruction)"),
        ("exit-handler", "exited with status 3"),
        ("hang-handler", "timed out after 1 s and was stopped"),
    ])
    func faultsInHandlers(id: String, how: String) throws {
        let sandbox = try HostSandbox.zoo([Self.plain, FixturePlugins.zoo("\(id).so")])
        // The Swift fixture's runtime says why it traps, on the stderr it shares with the host,
        // before the host says what became of the call.
        let swiftSaid = id == "precondition-handler"
            ? "ZooPrecondition/zoo_precondition.swift:16: Precondition failed: zoo: precondition failed on purpose\nCurrent stack trace:\n" : ""
        #expect(Self.withoutStackFrames(sandbox.run("run", "com.zoo.\(id).run")) == ProcessResult(status: 4, stdout: "", stderr: swiftSaid + """
            standfit-host: Plugin 'com.zoo.\(id)' \(how) while running com.zoo.\(id).run; report this to the plugin's author.

            """))
        let json = sandbox.run("run", "com.zoo.\(id).run", "--json")
        #expect(json.status == 4)
        #expect(canonicalJSON(json.stdout) == #"{"message":"Plugin 'com.zoo.\#(id)' \#(how) while running com.zoo.\#(id).run; report this to the plugin's author.","plugin":"com.zoo.\#(id)","status":"plugin-failed","type":"com.zoo.\#(id).run"}"#)
        #expect(sandbox.run("run", "com.zoo.plain.run") == ProcessResult(status: 0, stdout: "zoo plain ran\n", stderr: ""))
        #expect(sandbox.stateIntegrity() == "ok")
        // In a Dutch session, in Dutch (what the system names, the signal, as it names it).
        let dutch = sandbox.run("run", "com.zoo.\(id).run", "--locale", "nl")
        let dutchHow = ["crash-handler": "crashte met SIGSEGV (segmentation fault)", "abort-handler": "crashte met SIGABRT (aborted)",
                        "precondition-handler": "crashte met SIGILL (illegal instruction)", "exit-handler": "stopte met status 3",
                        "hang-handler": "overschreed de tijdslimiet van 1 s en is gestopt"][id] ?? "?"
        #expect(Self.withoutStackFrames(dutch) == ProcessResult(status: 4, stdout: "", stderr: swiftSaid + """
            standfit-host: Plug-in 'com.zoo.\(id)' is tijdens com.zoo.\(id).run mislukt: \(dutchHow); meld dit aan de maker van de plug-in.

            """))
    }

    @Test("a handler that answers outside the ABI, or registers after init, is reported in words")
    func answersOutsideTheABI() throws {
        let sandbox = try HostSandbox.zoo([Self.plain, FixturePlugins.zoo("bad-status.so"), FixturePlugins.zoo("bad-utf8.so"),
                                           FixturePlugins.zoo("late-register.so")])
        #expect(sandbox.run("run", "com.zoo.bad-status.run") == ProcessResult(status: 4, stdout: "", stderr: """
            standfit-host: Plugin 'com.zoo.bad-status' returned status 42 from com.zoo.bad-status.run, which is not a STANDFIT_STATUS_* code; report this to the plugin's author.

            """))
        #expect(sandbox.run("run", "com.zoo.bad-utf8.run") == ProcessResult(status: 4, stdout: "", stderr: """
            standfit-host: Plugin 'com.zoo.bad-utf8' set a message that is not valid UTF-8 while running com.zoo.bad-utf8.run; report this to the plugin's author.

            """))
        let late = try FixturePlugins.zoo("late-register.so").path
        #expect(sandbox.run("run", "com.zoo.late-register.run") == ProcessResult(status: 0, stdout: "register_action after init returned -3\n", stderr: """
            standfit-host: warning: Plugin 'com.zoo.late-register' (\(late)) called register_action outside init; register everything inside init.

            """))
        // The late type was never registered.
        #expect(sandbox.run("run", "com.zoo.late-register.late").status == 2)
        #expect(sandbox.run("run", "com.zoo.plain.run").stdout == "zoo plain ran\n")
        #expect(sandbox.stateIntegrity() == "ok")
    }

    @Test("a plugin printing to stdout during its scan and its handler cannot touch the host's output")
    func stdoutNoise() throws {
        let noise = try FixturePlugins.zoo("stdout-noise.so")
        let sandbox = HostSandbox.zoo([noise])
        #expect(sandbox.run("plugins", "--json") == ProcessResult(status: 0, stdout: """
            {
              "plugins" : [
                {
                  "abi" : "1.0",
                  "id" : "com.zoo.stdout-noise",
                  "name" : "Zoo stdout-noise",
                  "path" : "\(noise.path)",
                  "programs" : [

                  ],
                  "runs" : "worker",
                  "trusted" : false,
                  "types" : [
                    "com.zoo.stdout-noise.run"
                  ],
                  "version" : "0.1.0",
                  "warnings" : [

                  ]
                }
              ],
              "quarantined" : [

              ],
              "refused" : [

              ]
            }

            """, stderr: "zoo noise on stdout during init\n"))
        #expect(sandbox.run("run", "com.zoo.stdout-noise.run") == ProcessResult(status: 0, stdout: "zoo stdout-noise ran\n", stderr: """
            zoo noise on stdout during init
            zoo noise on stdout in the handler

            """))
        #expect(sandbox.stateIntegrity() == "ok")
    }

    @Test("files that cannot be plugins are refused before any of their code runs, naming file and fix")
    func fileRefusals() throws {
        let directory = makeTemporaryDirectory("standfit-zoo-files")
        let text = try FixturePlugins.textFileNamedSO(in: directory)
        let empty = try FixturePlugins.emptyFile(in: directory)
        let arm = try FixturePlugins.otherArchitecture(in: directory)
        let dangling = try FixturePlugins.danglingSymlink(in: directory)
        let open = try FixturePlugins.worldWritableFile(in: directory)
        let inOpenDirectory = try FixturePlugins.worldWritableDirectory(in: directory)
        let openDirectory = inOpenDirectory.deletingLastPathComponent().path
        let refused: [(URL, String)] = [
            (text, "is not a shared library (it does not start with an ELF header); rebuild it as a shared library for this machine or remove it from the plugin path."),
            (empty, "is an empty file; rebuild it as a shared library for this machine or remove it from the plugin path."),
            (arm, "is built for aarch64 (ELF machine 183), not for this machine's x86_64; rebuild it as a shared library for this machine or remove it from the plugin path."),
            (dangling, "is a symbolic link to a file that does not exist; remove the link or reinstall the plugin."),
            (open, "is writable by its group and by others (mode 0666); run 'chmod go-w \(open.path)' or remove it."),
            (inOpenDirectory, "is in \(openDirectory), which is writable by its group and by others (mode 0777); run 'chmod go-w \(openDirectory)' or move the plugin to a directory only you can write to."),
        ]
        let sandbox = try HostSandbox.zoo([Self.plain] + refused.map(\.0))
        let plainListing = try Self.plainListing
        #expect(sandbox.run("plugins") == ProcessResult(status: 0, stdout: plainListing + refused.map { file, reason in
            "refused: \(file.path)\n  Plugin \(file.path) \(reason)\n"
        }.joined(), stderr: ""))
        #expect(sandbox.run("run", "com.zoo.plain.run").stdout == "zoo plain ran\n")
        #expect(sandbox.stateIntegrity() == "ok")
    }

    @Test("entry tables the ABI does not allow are refused with the fix", arguments: [
        ("null-entry", "returned no entry table from standfit_plugin_entry_v1; it refuses to load, so check its own documentation or log."),
        ("data-entry", "exports standfit_plugin_entry_v1 as data, not as a function; declare it as a function that returns the entry table."),
    ])
    func entryRefusals(id: String, reason: String) throws {
        let bad = try FixturePlugins.zoo("\(id).so")
        let sandbox = try HostSandbox.zoo([Self.plain, bad])
        let plainListing = try Self.plainListing
        #expect(sandbox.run("plugins") == ProcessResult(status: 0, stdout: plainListing + """
            refused: \(bad.path)
              Plugin \(bad.path) \(reason)

            """, stderr: ""))
        #expect(sandbox.run("run", "com.zoo.plain.run").stdout == "zoo plain ran\n")
        #expect(sandbox.stateIntegrity() == "ok")
    }

    @Test("ABI too new, minor too new, a short table and no entry symbol are refused; two plugins registering one type keep it with the first")
    func abiRefusalsAndDuplicates() throws {
        let files = try ["abi-major2.so", "abi-minor9.so", "abi-short.so", "abi-noentry.so"].map { try FixturePlugins.url($0) }
        let kinds = try FixturePlugins.url("kinds.so"), duplicate = try FixturePlugins.url("duplicate.so")
        let sandbox = HostSandbox.zoo([kinds, duplicate] + files)
        let result = sandbox.run("plugins", "--json")
        #expect(result.status == 0)
        #expect(result.stderr == """
            standfit-host: warning: Shortcut type 'com.fixture.kinds.echo' is registered by both 'com.fixture.kinds' (\(kinds.path)) and 'com.fixture.duplicate' (\(duplicate.path)); 'com.fixture.kinds' loaded first and keeps it, so remove one of the two or change its type.
            standfit-host: warning: Plugin 'com.fixture.duplicate' (\(duplicate.path)) registers shortcut type 'com.fixture.dup.twice' twice, and the first registration is kept; give the other action a type of its own.

            """)
        // The refused ones each with the whole of its reason, beside the two that load.
        #expect(result.stdout == #"""
            {
              "plugins" : [
                {
                  "abi" : "1.0",
                  "id" : "com.fixture.kinds",
                  "name" : "Kinds fixture",
                  "path" : "\#(kinds.path)",
                  "programs" : [

                  ],
                  "runs" : "worker",
                  "trusted" : false,
                  "types" : [
                    "com.fixture.kinds.echo",
                    "com.fixture.kinds.status",
                    "com.fixture.open.*",
                    "com.fixture.kinds.fallback",
                    "com.fixture.kinds.baddata",
                    "com.fixture.kinds.shown",
                    "com.fixture.kinds.stale"
                  ],
                  "version" : "0.1.0",
                  "warnings" : [

                  ]
                },
                {
                  "abi" : "1.0",
                  "id" : "com.fixture.duplicate",
                  "name" : "Duplicate fixture",
                  "path" : "\#(duplicate.path)",
                  "programs" : [

                  ],
                  "runs" : "worker",
                  "trusted" : false,
                  "types" : [
                    "com.fixture.dup.twice"
                  ],
                  "version" : "0.1.0",
                  "warnings" : [
                    "Plugin 'com.fixture.duplicate' (\#(duplicate.path)) registers shortcut type 'com.fixture.dup.twice' twice, and the first registration is kept; give the other action a type of its own."
                  ]
                }
              ],
              "quarantined" : [

              ],
              "refused" : [
                {
                  "path" : "\#(files[0].path)",
                  "reason" : "Plugin \#(files[0].path) was built for ABI 2.x; this host speaks 1.x; rebuild it against standfit_plugin.h 1.0."
                },
                {
                  "path" : "\#(files[1].path)",
                  "reason" : "Plugin \#(files[1].path) was built for ABI 1.9, newer than this host's 1.0; update standfit-host or rebuild the plugin against ABI 1.0."
                },
                {
                  "path" : "\#(files[2].path)",
                  "reason" : "Plugin \#(files[2].path) declares a table of 12 bytes where ABI 1.0 needs at least 56; rebuild it against standfit_plugin.h."
                },
                {
                  "path" : "\#(files[3].path)",
                  "reason" : "Plugin \#(files[3].path) does not export standfit_plugin_entry_v1; export it with STANDFIT_EXPORT (C) or @_cdecl(\"standfit_plugin_entry_v1\") (Swift)."
                }
              ]
            }

            """#)
        #expect(sandbox.run("run", "com.fixture.dup.twice").stdout == "duplicate fixture ran\n")
        #expect(sandbox.stateIntegrity() == "ok")
    }
}
