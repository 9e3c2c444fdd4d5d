import Foundation
import Testing
import TestSupport

/// `Scripts/install` into a fresh prefix, from the build the tests run against, then the
/// installed host used as a user would: on PATH, with its bundled StandFit, its man page and its
/// completions; and `Scripts/uninstall` taking exactly that away again.
@Suite("Scripts/install and Scripts/uninstall", .timeLimit(.minutes(10)))
struct InstallTests {
    /// SwiftPM's build directory and configuration of the products under test.
    static var build: (scratch: URL, configuration: String) {
        let products = Fixtures.productsDirectory
        let configuration = products.lastPathComponent
        // `.build/debug` is a link to `.build/<triple>/debug`, and the man page is in `.build/plugins`.
        var scratch = products.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: scratch.appendingPathComponent("plugins").path) {
            scratch.deleteLastPathComponent()
        }
        return (scratch, configuration)
    }

    static let installedFiles = [
        "bin/standfit-host",
        "lib/standfit/installed-files",
        "lib/standfit/plugins/libStandFit.so",
        "lib/standfit/plugins/standfit-host_StandFit.resources/Localization/en.lproj/Localizable.strings",
        "lib/standfit/plugins/standfit-host_StandFit.resources/Localization/nl.lproj/Localizable.strings",
        "libexec/standfit/standfit-host-full",
        "share/bash-completion/completions/standfit-host",
        "share/fish/vendor_completions.d/standfit-host.fish",
        "share/man/man1/standfit-host.1",
        "share/systemd/user/standfit-host.service",
        "share/systemd/user/standfit-host.socket",
        "share/zsh/site-functions/_standfit-host",
    ]

    /// The host's own icons as the install copies them: every SVG under Resources/icons/hicolor.
    static var iconFiles: [String] {
        let icons = Fixtures.packageRoot.appendingPathComponent("Resources/icons/hicolor")
        let listed = runProcess(URL(fileURLWithPath: "/usr/bin/find"), arguments: [icons.path, "-type", "f", "-name", "*.svg"])
        return listed.stdout.split(separator: "\n").map { "share/icons/hicolor/" + $0.dropFirst(icons.path.count + 1) }
    }

    /// The plugin SDK's files as the install copies them: every file under
    /// SDK/standfit-plugin-sdk, its links into Sources/ followed, without builds left in it.
    static var sdkFiles: [String] {
        let sdk = Fixtures.packageRoot.appendingPathComponent("SDK/standfit-plugin-sdk")
        let listed = runProcess(URL(fileURLWithPath: "/usr/bin/find"), arguments: [
            "-L", sdk.path, "-type", "f", "!", "-path", "*/target/*", "!", "-path", "*/.build/*", "!", "-name", "Cargo.lock", "!", "-name", ".*",
        ])
        return listed.stdout.split(separator: "\n").map { "share/standfit-host/sdk/" + $0.dropFirst(sdk.path.count + 1) }
    }

    /// The files under `directory`, relative to it, sorted.
    static func files(under directory: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    static func script(_ name: String, _ arguments: [String]) -> ProcessResult {
        runProcess(URL(fileURLWithPath: "/usr/bin/bash"),
                   arguments: [Fixtures.packageRoot.appendingPathComponent("Scripts/\(name)").path] + arguments,
                   environment: ["PATH": "/opt/swift/usr/bin:/usr/bin:/bin", "HOME": makeTemporaryDirectory("standfit-install-home").path])
    }

    @Test("install puts the host on PATH with StandFit bundled, a man page and completions; uninstall removes exactly that",
          .needs(.man, .make))
    func installAndUninstall() throws {
        let root = makeTemporaryDirectory("standfit-install")
        // Something of the user's already in the prefix, which uninstall must leave alone.
        let bin = root.appendingPathComponent("prefix/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try Data("#!/bin/sh\n".utf8).write(to: bin.appendingPathComponent("mine"))
        let prefix = root.appendingPathComponent("prefix")
        let build = Self.build
        let install = Self.script("install", ["--prefix", prefix.path, "--configuration", build.configuration,
                                              "--scratch-path", build.scratch.path, "--no-build"])
        #expect(install.status == 0, "\(install)")
        // The prefix is on no PATH and is not /usr: how to reach it is said too.
        #expect(install.stdout == """
            Installed standfit-host into \(prefix.path) (\(build.configuration) build); Scripts/uninstall --prefix \(prefix.path) removes it.
            Add \(prefix.path)/bin to PATH to run it as standfit-host (man and bash then find its page and completions too).
            zsh: add 'fpath+=(\(prefix.path)/share/zsh/site-functions)' before compinit in ~/.zshrc.

            """)
        #expect(Self.sdkFiles.contains("share/standfit-host/sdk/Sources/CStandFitABI/include/standfit_plugin.h"))
        #expect(Self.sdkFiles.contains("share/standfit-host/sdk/rust/standfit-abi/src/lib.rs"))
        #expect(Self.files(under: prefix) == (["bin/mine"] + Self.installedFiles + Self.iconFiles + Self.sdkFiles).sorted())
        // The user service starts this prefix's server; its socket is the one clients try after their build's.
        let service = try String(contentsOf: prefix.appendingPathComponent("share/systemd/user/standfit-host.service"), encoding: .utf8)
        // (Every @LIBEXECDIR@ of the template is replaced, the one its comment names too.)
        #expect(service == """
            # The warm server, started by standfit-host.socket on the first command. It exits after
            # serverIdleTimeout (config.json) without a command; the socket starts it again. Installed by
            # Scripts/install, with \(prefix.path)/libexec/standfit replaced, into PREFIX/share/systemd/user/.
            [Unit]
            Description=standfit-host warm server
            Documentation=man:standfit-host(1)
            Requires=standfit-host.socket

            [Service]
            ExecStart=\(prefix.path)/libexec/standfit/standfit-host-full serve

            """)
        let socketUnit = try String(contentsOf: prefix.appendingPathComponent("share/systemd/user/standfit-host.socket"), encoding: .utf8)
        #expect(socketUnit == """
            # The warm server's socket, for the user's service manager: the first standfit-host command after
            # login starts the server (standfit-host.service) through it. Installed by Scripts/install into
            # PREFIX/share/systemd/user/; enable with
            #     systemctl --user enable --now standfit-host.socket
            # Commands reach the server here when no server of their build has its own socket; a server of
            # another build (after an upgrade, until it exits when idle) sends them the cold way.
            [Unit]
            Description=standfit-host warm server socket

            [Socket]
            ListenStream=%t/standfit/host.sock
            SocketMode=0600
            DirectoryMode=0700

            [Install]
            WantedBy=sockets.target

            """)

        // The installed host, as a user runs it: by name, no plugin path, StandFit from the prefix.
        var sandbox = HostSandbox(pluginPath: [])
        sandbox.extraEnvironment = ["PATH": "\(prefix.path)/bin:/usr/bin:/bin", "TZ": "Europe/Amsterdam",
                                    "STANDFIT_NOW": "2026-11-22T13:05:00Z"]
        var environment = sandbox.environment
        environment["STANDFIT_PLUGIN_PATH"] = nil
        // On the warm pass, the installed host's own server.
        #expect(sandbox.serveWarmPath(fullHost: prefix.appendingPathComponent("libexec/standfit/standfit-host-full")) == nil)
        func host(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) -> ProcessResult {
            sandbox.checkingHandBacks(arguments.joined(separator: " "), sourceLocation: sourceLocation) {
                runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["standfit-host"] + arguments, environment: environment)
            }
        }
        #expect(host("run", "logexercise", "exercise=squats", "count=20") == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(host("list") == ProcessResult(status: 0, stdout: """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 1 day  (com.standfit.viewstreak)
            3. Log Squats — 20 reps  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """, stderr: ""))
        #expect(host("plugins").stdout == """
            com.standfit 1.0.0 (ABI 1.0): StandFit
              path: \(prefix.path)/lib/standfit/plugins/libStandFit.so
              types: com.standfit.logexercise, com.standfit.loglast, com.standfit.viewstreak, com.standfit.viewprogress, com.standfit.undo, com.standfit.redo, com.standfit.history, com.standfit.deletelog, com.standfit.editlog, com.standfit.achievements, com.standfit.export, com.standfit.import, com.standfit.addexercise, com.standfit.renameexercise, com.standfit.hideexercise, com.standfit.setgoal, com.standfit.goalreminder
              runs: in the host's process (trusted; in a worker when the warm server runs it)

            """)
        // Dutch words come from the resources installed beside the plugin.
        #expect(host("run", "viewstreak", "--locale", "nl").stdout == "Reeks: 1 dag\nBeste reeks: 1 dag · niveau 1 · 20 XP\n")

        // plugins new writes against the SDK installed beside the host, and what it writes builds.
        let work = root.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let scaffold = sandbox.checkingHandBacks("plugins new com.test.water --language c --json") {
            runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "cd '\(work.path)' && exec standfit-host plugins new com.test.water --language c --json"],
                       environment: environment)
        }
        #expect(scaffold.status == 0, "\(scaffold)")
        #expect(scaffold.stdout == """
            {
              "build" : "make",
              "directory" : "\(work.path)/water",
              "files" : [
                "water.c",
                "Makefile",
                "README.md",
                ".gitignore"
              ],
              "id" : "com.test.water",
              "language" : "c",
              "message" : "Wrote com.test.water in c to \(work.path)/water; build it there with 'make', then 'standfit-host plugins check --strict libwater.so'.",
              "product" : "\(work.path)/water/libwater.so",
              "sdk" : "\(prefix.path)/share/standfit-host/sdk"
            }

            """)
        // Built with the system's cc, or the Swift toolchain's clang where there is none (make's CC).
        let made = runProcess(ExternalTool.make.url, arguments: ["-C", work.appendingPathComponent("water").path],
                              environment: ProcessInfo.processInfo.environment.merging(FixturePlugins.compilerEnvironment) { $1 })
        #expect(made.status == 0, "\(made)")

        // The man page, generated from the command definitions.
        let man = runProcess(ExternalTool.man.url, arguments: ["-l", prefix.appendingPathComponent("share/man/man1/standfit-host.1").path],
                             environment: ["MANWIDTH": "100", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(man.status == 0, "\(man)")
        #expect(man.stdout.hasPrefix("STANDFIT-HOST(1)"))
        #expect(man.stdout.contains("standfit-host — Run quick actions and shortcuts provided by plugins."))
        #expect(man.stdout.contains("     run     Run one quick action."))

        // bash's completion from the installed script, asking the installed binary.
        let bash = BashCompletion(script: prefix.appendingPathComponent("share/bash-completion/completions/standfit-host"),
                                  environment: environment)
        #expect(bash.complete("standfit-host run logex") == ["logexercise"])
        #expect(bash.complete("standfit-host run logexercise exercise=pu") == ["pushups"])
        for (shell, path) in [("zsh", "share/zsh/site-functions/_standfit-host"), ("fish", "share/fish/vendor_completions.d/standfit-host.fish")] {
            let installed = try String(contentsOf: prefix.appendingPathComponent(path), encoding: .utf8)
            #expect(installed == host("completion", shell).stdout)
        }

        // Installing again over it replaces it, and uninstall leaves only what was there before.
        #expect(Self.script("install", ["--prefix", prefix.path, "--configuration", build.configuration,
                                        "--scratch-path", build.scratch.path, "--no-build"]).status == 0)
        #expect(Self.script("uninstall", ["--prefix", prefix.path]) == ProcessResult(status: 0, stdout: "Removed standfit-host from \(prefix.path).\n", stderr: ""))
        #expect(Self.files(under: prefix) == ["bin/mine"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix.path) == ["bin"])
        // The user's data is the user's: uninstall touches nothing outside the prefix.
        #expect(FileManager.default.fileExists(atPath: sandbox.dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite").path))

        let again = Self.script("uninstall", ["--prefix", prefix.path])
        #expect(again == ProcessResult(status: 1, stdout: "", stderr: "uninstall: \(prefix.path)/lib/standfit/installed-files does not exist, so standfit-host was not installed into \(prefix.path) by Scripts/install; nothing was removed.\n"))
    }

    @Test("a broken install: the client without its full host, or with a copy of itself in the full host's place, says so and exits 5 at once")
    func brokenInstall() throws {
        let directory = makeTemporaryDirectory()
        let client = directory.appendingPathComponent("standfit-host")
        try FileManager.default.copyItem(at: Fixtures.hostBinary, to: client)
        let environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "STANDFIT_SERVER": "off"]
        let candidates = "\(directory.path)/../libexec/standfit/standfit-host-full nor \(directory.path)/standfit-host-full"
        #expect(runProcess(client, arguments: ["list"], environment: environment)
            == ProcessResult(status: 5, stdout: "", stderr: "standfit-host: the full host is missing (neither \(candidates) can be run); install standfit-host again with Scripts/install.\n"))
        // The client copied under the full host's name: that copy finds itself as its full host
        // and says so, rather than exec itself for ever.
        let copy = directory.appendingPathComponent("standfit-host-full")
        try FileManager.default.copyItem(at: Fixtures.hostBinary, to: copy)
        #expect(runProcess(client, arguments: ["list"], environment: environment)
            == ProcessResult(status: 5, stdout: "", stderr: "standfit-host: \(copy.path) is this client again, not the full host; install standfit-host again with Scripts/install.\n"))
    }

    @Test("install refuses what it cannot do, in one sentence and without writing anything")
    func badInput() {
        let prefix = makeTemporaryDirectory("standfit-install").appendingPathComponent("prefix")
        let unknown = Self.script("install", ["--prefix", prefix.path, "--frobnicate"])
        #expect(unknown == ProcessResult(status: 64, stdout: "", stderr: "install: unknown argument '--frobnicate'; see Scripts/install --help.\n"))
        let configuration = Self.script("install", ["--prefix", prefix.path, "--configuration", "fast", "--no-build"])
        #expect(configuration == ProcessResult(status: 64, stdout: "", stderr: "install: --configuration is 'fast'; use release or debug.\n"))
        let empty = makeTemporaryDirectory("standfit-empty-build")
        let nothingBuilt = Self.script("install", ["--prefix", prefix.path, "--configuration", "debug",
                                                   "--scratch-path", empty.path, "--no-build"])
        #expect(nothingBuilt == ProcessResult(status: 1, stdout: "", stderr: "install: \(empty.path)/debug/standfit-host is missing; run Scripts/install without --no-build (or 'swift build -c debug' and 'swift package plugin generate-manual --configuration debug') first.\n"))
        #expect(!FileManager.default.fileExists(atPath: prefix.path))
    }
}
