import Foundation
import Testing
import TestSupport

/// `standfit-host completion` and the completions it feeds, in real shells: bash's completion
/// function called with the COMP_* variables readline sets, and bash, zsh and fish driven in tmux
/// as a person types, TAB and all. The sandbox holds the two example plugins (Greeter: greet and
/// tip; HelloC: greet and pace), so `greet` is an ambiguous last component and `pace` a unique one.
@Suite("standfit-host completion", .timeLimit(.minutes(10)))
struct CompletionTests {
    let sandbox = HostSandbox()

    /// The example plugins and the values fixture (`Fixtures/Plugins/values.c`).
    var withValues: HostSandbox {
        get throws {
            var sandbox = sandbox
            try sandbox.pluginPath.append(FixturePlugins.url("values.so"))
            return sandbox
        }
    }

    // MARK: - The scripts

    @Test("completion bash|zsh|fish prints ArgumentParser's script for that shell, with run's arguments asked of the binary", .needs(.zsh, .fish))
    func scripts() {
        let bash = sandbox.run("completion", "bash")
        #expect(bash.status == 0)
        #expect(bash.stderr == "")
        #expect(bash.stdout.hasPrefix("#!/bin/bash\n"))
        #expect(bash.stdout.hasSuffix("\ncomplete -o filenames -F _standfit-host standfit-host\n"))
        #expect(bash.stdout.contains("""
                    __standfit-host_add_completions -W "$(__standfit-host_custom_complete ---completion run -- positional@0 "${COMP_CWORD}" "$(__standfit-host_cursor_index_in_current_word)")"
            """))

        let zsh = sandbox.run("completion", "zsh")
        #expect(zsh.status == 0)
        #expect(zsh.stdout.hasPrefix("#compdef standfit-host\n"))
        #expect(zsh.stdout.contains("\n    compdef _standfit-host standfit-host\n"))
        #expect(zsh.stdout.contains(#"'*:name=value:{__standfit-host_custom_complete ---completion run -- positional@1 "${current_word_index}" "$(__standfit-host_cursor_index_in_current_word)"}'"#))

        let fish = sandbox.run("completion", "fish")
        #expect(fish.status == 0)
        #expect(fish.stdout.contains("""
            complete -c 'standfit-host' -n '__standfit-host_should_offer_completions_for_positional "standfit-host run" -eq 1' -fka '(__standfit-host_custom_completion ---completion run -- positional@0 (count (__standfit-host_tokens -pc)) (__standfit-host_tokens -tC))'
            """))

        // The very script ArgumentParser generates, and the shells read it without complaint.
        for (shell, result) in [("bash", bash), ("zsh", zsh), ("fish", fish)] {
            #expect(sandbox.run("--generate-completion-script", shell).stdout == result.stdout)
        }
        #expect(runProcess(URL(fileURLWithPath: "/usr/bin/bash"), arguments: ["-n", "-c", bash.stdout]).status == 0)
        #expect(runProcess(ExternalTool.zsh.url, arguments: ["-n", "-c", zsh.stdout]).status == 0)
        #expect(runProcess(ExternalTool.fish.url, arguments: ["--no-execute", "-c", fish.stdout]).status == 0)
    }

    @Test("an unknown or missing shell is a usage error")
    func unknownShell() {
        let tcsh = sandbox.run("completion", "tcsh")
        #expect(tcsh.status == 64)
        #expect(tcsh.stdout == "")
        #expect(tcsh.stderr == """
            Error: The value 'tcsh' is invalid for '<shell>'. Please provide one of 'bash', 'zsh' or 'fish'.
            Help:  <shell>  The shell to complete in.
            Usage: standfit-host completion <shell>
              See 'standfit-host completion --help' for more information.

            """)
        let missing = sandbox.run("completion")
        #expect(missing.status == 64)
        #expect(missing.stderr == """
            Error: Missing expected argument '<shell>'
            Help:  <shell>  The shell to complete in.
            Usage: standfit-host completion <shell>
              See 'standfit-host completion --help' for more information.

            """)
    }

    // MARK: - bash's completion function, as readline calls it

    @Test("bash: run TAB offers the full types, a prefix also the unique last components")
    func bashTypes() throws {
        let bash = try BashCompletion(sandbox)
        #expect(bash.complete("standfit-host run ") == [
            "com.example.greeter.greet", "com.example.greeter.tip", "com.example.hello.greet", "com.example.hello.pace",
        ])
        #expect(bash.complete("standfit-host run pa") == ["pace"])
        #expect(bash.complete("standfit-host run t") == ["tip"])
        #expect(bash.complete("standfit-host run com.example.h") == ["com.example.hello.greet", "com.example.hello.pace"])
        // 'greet' names two types, so run would refuse it: nothing to offer.
        #expect(bash.complete("standfit-host run gr") == [])
        // Options before the type, in both spellings, do not move it.
        #expect(bash.complete("standfit-host run --json --locale nl pa") == ["pace"])
        #expect(bash.complete("standfit-host run --locale=nl pa") == ["pace"])
        // The subcommands themselves come from the script, completion among them.
        #expect(bash.complete("standfit-host comp") == ["completion"])
        #expect(bash.complete("standfit-host completion ") == ["bash", "zsh", "fish"])
    }

    @Test("bash: run TYPE TAB offers name= for the parameters not given yet")
    func bashParameters() throws {
        let bash = try BashCompletion(sandbox)
        #expect(bash.complete("standfit-host run pace ") == ["km=", "minutes="])
        #expect(bash.complete("standfit-host run com.example.hello.pace ") == ["km=", "minutes="])
        #expect(bash.complete("standfit-host run pace km=5 ") == ["minutes="])
        #expect(bash.complete("standfit-host run pace km=5 mi") == ["minutes="])
        #expect(bash.complete("standfit-host run pace km=5 minutes=20 ") == [])
        #expect(bash.complete("standfit-host run com.example.hello.greet ") == ["name=", "times=", "shout=", "suffix="])
        #expect(bash.complete("standfit-host run tip --json pe") == ["percent=", "people="])
        #expect(bash.complete("standfit-host run greet ") == [])
        #expect(bash.complete("standfit-host run nosuch ") == [])
    }

    @Test("bash: after name= it offers true and false for a bool, else the default, as the word bash completes after the '='")
    func bashValues() throws {
        let bash = try BashCompletion(sandbox)
        #expect(bash.complete("standfit-host run com.example.hello.greet shout=") == ["true", "false"])
        #expect(bash.complete("standfit-host run com.example.hello.greet shout=t") == ["true"])
        #expect(bash.complete("standfit-host run com.example.hello.greet times=") == ["1"])
        #expect(bash.complete("standfit-host run com.example.greeter.tip percent=") == ["15.0"])
        #expect(bash.complete("standfit-host run com.example.hello.greet name=") == [])
        #expect(bash.complete("standfit-host run com.example.hello.greet nosuch=") == [])

        var kinds = sandbox
        kinds.pluginPath = try [FixturePlugins.url("kinds.so")]
        let fixture = try BashCompletion(kinds)
        // A namespace handler is not a type one can type.
        #expect(fixture.complete("standfit-host run ") == [
            "com.fixture.kinds.baddata", "com.fixture.kinds.echo", "com.fixture.kinds.fallback", "com.fixture.kinds.shown",
            "com.fixture.kinds.stale", "com.fixture.kinds.status",
        ])
        #expect(fixture.complete("standfit-host run echo ") == ["flag=", "number=", "ratio=", "text=", "note="])
        #expect(fixture.complete("standfit-host run echo flag=") == ["true", "false"])
        #expect(fixture.complete("standfit-host run echo number=") == [])
        #expect(fixture.complete("standfit-host run echo ratio=") == ["0.5"])
        #expect(fixture.complete("standfit-host run echo text=") == ["plain"])
        #expect(fixture.complete("standfit-host run com.fixture.open.thing ") == [])
    }

    @Test("bash: after an entity's or a choice list's name=, its values: suggested ones first")
    func bashEntityValues() throws {
        let standFit = HostSandbox.standFit()
        _ = standFit.run("run", "logexercise", "exercise=plank", "count=30")
        let bash = try BashCompletion(standFit)
        #expect(bash.complete("standfit-host run logexercise exercise=p") == ["plank", "pushups"])
        #expect(bash.complete("standfit-host run logexercise exercise=s") == ["squats", "stretching", "situps"])
        let paint = try BashCompletion(HostSandbox(pluginPath: [FixturePlugins.url("intents.so")]))
        #expect(paint.complete("standfit-host run paint colour=") == ["blue", "red", "green"])
        #expect(paint.complete("standfit-host run paint finish=") == ["matte", "gloss"])
    }

    @Test("bash: a value with ':' or '@', where bash splits words, completes as the word bash replaces")
    func bashWordBreaks() throws {
        let bash = try BashCompletion(withValues)
        #expect(bash.complete("standfit-host run meet ") == ["at=", "with=", "remind="])
        #expect(bash.complete("standfit-host run meet at=") == ["12:30"])
        #expect(bash.complete("standfit-host run meet at=12:") == ["30"])
        #expect(bash.complete("standfit-host run meet at=12:3") == ["30"])
        #expect(bash.complete("standfit-host run meet with=") == ["ada@example.org"])
        // readline keeps the '@' in the word it completes.
        #expect(bash.complete("standfit-host run meet with=ada@") == ["@example.org"])
        #expect(bash.complete("standfit-host run meet with=ada@ex") == ["@example.org"])
        #expect(bash.complete("standfit-host run meet at=12:30 with=ada@example.org ") == ["remind="])
        #expect(bash.complete("standfit-host run meet remind=") == ["true", "false"])
    }

    @Test("bash: --manifest on the line adds its types and its fallback")
    func bashManifest() throws {
        var kinds = sandbox
        kinds.pluginPath = try [FixturePlugins.url("kinds.so")]
        let manifest = kinds.root.appendingPathComponent("manifest.json")
        try Data("""
            {"StandFitFallbackShortcutItemType": "com.fixture.kinds.fallback",
             "UIApplicationShortcutItems": [{"UIApplicationShortcutItemType": "com.manifest.only", "UIApplicationShortcutItemTitle": "Only"}]}
            """.utf8).write(to: manifest)
        let bash = try BashCompletion(kinds)
        #expect(bash.complete("standfit-host run com.m") == [])
        #expect(bash.complete("standfit-host run --manifest \(manifest.path) com.m") == ["com.manifest.only"])
        #expect(bash.complete("standfit-host run --manifest=\(manifest.path) on") == ["only"])
        // An unknown type goes to the manifest's fallback handler, as run would send it.
        #expect(bash.complete("standfit-host run --manifest \(manifest.path) com.nowhere.thing ") == ["reason="])
        #expect(bash.complete("standfit-host run --manifest \(manifest.path) com.nowhere.thing reason=") == ["none"])
        // A manifest that cannot be read completes nothing and says nothing.
        #expect(bash.complete("standfit-host run --manifest /nonexistent/Info.plist ") == [])
    }

    @Test("a completion request prints its candidates only: no errors, no log lines, even from a broken setup")
    func quiet() throws {
        var broken = sandbox
        let notALibrary = broken.root.appendingPathComponent("broken.so")
        try Data(String(repeating: "not a library\n", count: 8).utf8).write(to: notALibrary)
        broken.pluginPath = [notALibrary, Fixtures.cExamplePlugin]
        let request = ["---completion", "run", "--", "positional@0", "2", "2", "standfit-host", "run", "pa"]
        // `run` would warn about the broken plugin on stderr; completing says nothing.
        #expect(broken.run("run", "pace", "km=5", "minutes=25").stderr == "standfit-host: warning: Plugin \(notALibrary.path) is not a shared library (it does not start with an ELF header); rebuild it as a shared library for this machine or remove it from the plugin path.\n")
        #expect(broken.run(request) == ProcessResult(status: 0, stdout: "pace\n", stderr: ""))
        #expect(broken.run(["---completion", "run", "--", "positional@0", "4", "0", "standfit-host", "run",
                            "--manifest", "/nonexistent", ""]) == ProcessResult(status: 0, stdout: "", stderr: ""))
    }

    @Test("completing run with a warm registry cache loads no plugin code")
    func noPluginCode() throws {
        #expect(sandbox.run("list").status == 0)
        let trace = makeTemporaryDirectory("standfit-completion-ld")
        let bash = try BashCompletion(sandbox, extraEnvironment: [
            "LD_DEBUG": "files", "LD_DEBUG_OUTPUT": trace.appendingPathComponent("ld").path,
        ])
        #expect(bash.complete("standfit-host run ") == [
            "com.example.greeter.greet", "com.example.greeter.tip", "com.example.hello.greet", "com.example.hello.pace",
        ])
        #expect(bash.complete("standfit-host run com.example.hello.greet shout=") == ["true", "false"])
        // One trace file per process (bash, its subshells, standfit-host): none opened a plugin.
        let files = try FileManager.default.contentsOfDirectory(atPath: trace.path)
        let traces = try files.map { try String(contentsOf: trace.appendingPathComponent($0), encoding: .utf8) }
        let plugins = [Fixtures.swiftExamplePlugin.lastPathComponent, Fixtures.cExamplePlugin.lastPathComponent]
        // Completions run in the client's own process on either path (the client does not ask
        // the server): the full host it became (the one with Foundation) opened no plugin.
        #expect(traces.contains { $0.contains("libFoundation.so") })
        #expect(!traces.contains { trace in plugins.contains { trace.contains($0) } })
    }

    // MARK: - Real shells in a terminal

    @Test("bash in a terminal: TAB completes a last component, a parameter's name and a value after the '='", .needs(.tmux))
    func bashInTerminal() throws {
        let shell = try InteractiveShell(.bash, withValues)
        shell.expect("standfit-host run pa\t", "$ standfit-host run pace")
        // readline quotes the '=' of a lone name= (bash's script completes as filenames) and adds
        // a space: ArgumentParser's bash script has no way to say 'no space' for a custom value.
        shell.expect("standfit-host run pace km=5 mi\t", "$ standfit-host run pace km=5 minutes\\=")
        // Two TABs list the values after the '='; one completes the value typed so far.
        shell.expect("standfit-host run com.example.hello.greet shout=\t\t", """
            $ standfit-host run com.example.hello.greet shout=
            false  true
            $ standfit-host run com.example.hello.greet shout=
            """)
        shell.expect("standfit-host run com.example.hello.greet shout=f\t", "$ standfit-host run com.example.hello.greet shout=false")
        shell.expect("standfit-host run com.example.hello.greet times=\t", "$ standfit-host run com.example.hello.greet times=1")
        // After ':' and '@' too. readline quotes the '@' it inserts as it quotes '=' (bash reads
        // both back as they were).
        shell.expect("standfit-host run meet at=12:\t", "$ standfit-host run meet at=12:30")
        shell.expect("standfit-host run meet with=ada@\t", "$ standfit-host run meet with=ada\\@example.org")
        shell.expect("standfit-host run meet with=\t", "$ standfit-host run meet with=ada\\@example.org")
    }

    @Test("zsh in a terminal: types, names and values", .needs(.tmux, .zsh))
    func zshInTerminal() throws {
        let shell = try InteractiveShell(.zsh, withValues)
        shell.expect("standfit-host run com.example.\t", """
            % standfit-host run com.example.
            com.example.greeter.greet  com.example.greeter.tip    com.example.hello.greet    com.example.hello.pace
            """)
        shell.expect("standfit-host run pa\t", "% standfit-host run pace")
        shell.expect("standfit-host run pace \t", "% standfit-host run pace\nkm=       minutes=")
        shell.expect("standfit-host run pace km=5 \t", "% standfit-host run pace km=5 minutes=")
        shell.expect("standfit-host run com.example.hello.greet shout=\t", """
            % standfit-host run com.example.hello.greet shout=
            shout=true   shout=false
            """)
        shell.expect("standfit-host run com.example.hello.greet shout=f\t", "% standfit-host run com.example.hello.greet shout=false")
        // zsh's _describe would read the ':' as the start of a description; it arrives escaped.
        shell.expect("standfit-host run meet at=\t", "% standfit-host run meet at=12:30")
        shell.expect("standfit-host run meet with=\t", "% standfit-host run meet with=ada@example.org")
    }

    @Test("fish: complete -C and TAB in a terminal", .needs(.tmux, .fish))
    func fishInTerminal() throws {
        let shell = try InteractiveShell(.fish, withValues)
        #expect(shell.fishCandidates("standfit-host run ") == [
            "com.example.greeter.greet", "com.example.greeter.tip", "com.example.hello.greet", "com.example.hello.pace",
            "com.fixture.values.meet",
        ])
        #expect(shell.fishCandidates("standfit-host run pa") == ["pace"])
        #expect(shell.fishCandidates("standfit-host run pace ") == ["km=", "minutes="])
        #expect(shell.fishCandidates("standfit-host run pace km=5 ") == ["minutes="])
        #expect(shell.fishCandidates("standfit-host run com.example.hello.greet shout=") == ["shout=true", "shout=false"])
        #expect(shell.fishCandidates("standfit-host run com.example.hello.greet times=") == ["times=1"])
        #expect(shell.fishCandidates("standfit-host run meet at=") == ["at=12:30"])
        #expect(shell.fishCandidates("standfit-host run meet with=ada@") == ["with=ada@example.org"])
        // fish adds no space after a name=, so the value can be typed at once.
        shell.expect("standfit-host run com.example.hello.greet sh\t", "> standfit-host run com.example.hello.greet shout=")
        shell.expect("standfit-host run com.example.hello.greet shout=f\t", "> standfit-host run com.example.hello.greet shout=false")
    }

    // MARK: - Values are data, never code

    /// `Fixtures/Plugins/shellbait.c`: a default, choices and entity values that are shell code,
    /// each of which would leave a file named `pwned-…` in $HOME if a shell ever ran it.
    var withBait: HostSandbox {
        get throws { try HostSandbox(pluginPath: [FixturePlugins.url("shellbait.so")]) }
    }

    /// The files a ran bait left in the sandbox's home.
    func baitFiles(_ sandbox: HostSandbox) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.root.path)) ?? []).filter { $0.hasPrefix("pwned") }
    }

    @Test("bash: a plugin's $(…), backticks and $VAR in a default, choices and entity values run nothing; what readline cannot quote is not offered")
    func bashBait() throws {
        let sandbox = try withBait
        let bash = try BashCompletion(sandbox)
        let line = "standfit-host run com.fixture.shellbait.bait "
        // readline would insert '$' and ')' bare (the one would expand, the other end the line):
        // values holding them are left out in bash, as is a value with a newline, in every shell.
        #expect(bash.complete(line + "text=") == [])
        #expect(bash.complete(line + "choice=") == ["`touch ~/pwned-backtick`", #"it's "quoted" & {a,b}"#])
        #expect(bash.complete(line + "thing=") == ["plain"])
        #expect(baitFiles(sandbox) == [])
    }

    @Test("bash, zsh and fish in a terminal insert such values quoted, and the run receives them verbatim",
          .needs(.tmux, .zsh, .fish))
    func baitInTerminals() throws {
        let sandbox = try withBait
        let line = "standfit-host run com.fixture.shellbait.bait "
        let quoted = #"choice=it's "quoted" & {a,b}"#
        // The runs go through the sandbox's server on the warm pass (the completions never ask it).
        try sandbox.checkingHandBacks("run com.fixture.shellbait.bait (in bash, zsh and fish)") {
            for kind in [InteractiveShell.Kind.bash, .zsh, .fish] {
                let shell = try InteractiveShell(kind, sandbox)
                shell.run(line + "choice=it\t", answering: #"bait: text=$(touch "$HOME/pwned-default") "# + quoted + " thing=-")
                // bash offers nothing for a '$(…)' default (TAB leaves 'text=' as it is); zsh and fish quote it.
                shell.run(line + "text=\t", answering: kind == .bash
                    ? "bait: text= choice=- thing=-"
                    : #"bait: text=$(touch "$HOME/pwned-default") choice=- thing=-"#)
            }
        }
        #expect(baitFiles(sandbox) == [])
    }
}

// MARK: - Harnesses

/// The environment completion runs in: the sandbox's, with the built binary on PATH, as the
/// scripts run `standfit-host` by name.
private func completionEnvironment(_ sandbox: HostSandbox) -> [String: String] {
    var environment = sandbox.environment
    environment["PATH"] = "\(Fixtures.productsDirectory.path):/usr/bin:/bin"
    return environment
}

private struct ScriptFailure: Error, CustomStringConvertible {
    var description: String
}

/// The script `completion SHELL` prints, written into the sandbox.
private func writeScript(_ shell: String, _ sandbox: HostSandbox) throws -> URL {
    let result = sandbox.run("completion", shell)
    guard result.status == 0 else { throw ScriptFailure(description: "completion \(shell) failed: \(result)") }
    let url = sandbox.root.appendingPathComponent("completion.\(shell)")
    try Data(result.stdout.utf8).write(to: url)
    return url
}

/// bash's completion function, called as readline calls it: COMP_WORDS split at spaces and at
/// COMP_WORDBREAKS (`a=b` is `a`, `=`, `b`), COMP_CWORD the last word, readline's word as $2 (what
/// follows the last space, '=' or ':', or starts at the last '@') and the word before as $3.
struct BashCompletion {
    var environment: [String: String]
    var script: URL

    /// The completion function of `script` (the installed one, say), run in `environment`.
    init(script: URL, environment: [String: String]) {
        self.script = script
        self.environment = environment
    }

    static let harness = """
        source "$1"; shift
        COMP_LINE=$STANDFIT_LINE; COMP_POINT=${#COMP_LINE}
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        cur=${COMP_LINE##*[ =:@]}
        [[ ${COMP_LINE:${#COMP_LINE}-${#cur}-1:1} == @ ]] && cur=@$cur
        COMPREPLY=()
        _standfit-host standfit-host "$cur" "${COMP_WORDS[COMP_CWORD - 1]}"
        (( ${#COMPREPLY[@]} )) && printf '%s\\n' "${COMPREPLY[@]}"
        exit 0
        """

    init(_ sandbox: HostSandbox, extraEnvironment: [String: String] = [:]) throws {
        script = try writeScript("bash", sandbox)
        environment = completionEnvironment(sandbox).merging(extraEnvironment) { $1 }
    }

    /// The candidates for `line`, with the cursor at its end, in COMPREPLY's order.
    func complete(_ line: String) -> [String] {
        var environment = environment
        environment["STANDFIT_LINE"] = line
        let result = runProcess(URL(fileURLWithPath: "/usr/bin/bash"),
                                arguments: ["--norc", "--noprofile", "-c", Self.harness, "harness", script.path]
                                    + Self.words(line),
                                environment: environment)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// The words readline makes of `line` (which has no quotes): split at spaces, and each run of
    /// '=', ':' or '@' a word of its own; the last is the word under the cursor, empty after a space.
    static func words(_ line: String) -> [String] {
        let breaks: Set<Character> = ["=", ":", "@"]
        var words: [String] = []
        var word = ""
        for character in line {
            if character == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            if let last = word.last, breaks.contains(last) != breaks.contains(character) {
                words.append(word)
                word = ""
            }
            word.append(character)
        }
        return words + [word]
    }
}

/// bash, zsh or fish in tmux with the completion script sourced and nothing of the user's.
private final class InteractiveShell {
    enum Kind { case bash, zsh, fish }

    let kind: Kind
    let tmux: TmuxSession
    let prompt: String
    let sandbox: HostSandbox

    init(_ kind: Kind, _ sandbox: HostSandbox) throws {
        self.kind = kind
        self.sandbox = sandbox
        let script: URL
        let command: String
        let setup: String
        switch kind {
        case .bash:
            script = try writeScript("bash", sandbox)
            command = "bash --norc --noprofile"
            setup = "source \(script.path); PS1='$ '"
            prompt = "$"
        case .zsh:
            script = try writeScript("zsh", sandbox)
            command = "zsh -f"
            setup = "autoload -Uz compinit && compinit -u -D && source \(script.path) && PS1='%% '"
            prompt = "%"
        case .fish:
            script = try writeScript("fish", sandbox)
            command = "fish --no-config"
            setup = "source \(script.path); set -g fish_autosuggestion_enabled 0; function fish_prompt; printf '> '; end"
            prompt = ">"
        }
        var environment = completionEnvironment(sandbox)
        environment["TERM"] = "xterm-256color"
        let assignments = environment.sorted { $0.key < $1.key }.map { "'\($0.key)=\($0.value)'" }
        tmux = try TmuxSession(command: "env -i \(assignments.joined(separator: " ")) \(command)", width: 120, height: 30)
        // Each shell draws its first prompt when it is ready for input.
        _ = settle { !$0.isEmpty }
        tmux.send("-l", setup)
        tmux.send("Enter")
        clear()
    }

    /// Polls the screen until `done` holds (for at most 20 s) and returns it.
    private func settle(_ done: (String) -> Bool) -> String {
        let deadline = Date().addingTimeInterval(20)
        var screen = tmux.screen()
        while !done(screen) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            screen = tmux.screen()
        }
        return screen
    }

    /// An empty line on a clear screen.
    private func clear() {
        tmux.send("C-u")
        tmux.send("C-l")
        _ = settle { $0 == self.prompt }
    }

    /// Types `keys` ("\t" is TAB) on a fresh line and expects the screen to settle on `screen`.
    func expect(_ keys: String, _ screen: String, sourceLocation: SourceLocation = #_sourceLocation) {
        clear()
        for (index, part) in keys.split(separator: "\t", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { tmux.send("Tab") }
            if !part.isEmpty { tmux.send("-l", String(part)) }
        }
        #expect(settle { $0 == screen } == screen, sourceLocation: sourceLocation)
    }

    /// Types `keys` ("\t" is TAB) on a fresh line, runs the line with Enter, and expects the
    /// command's answer on the screen.
    func run(_ keys: String, answering answer: String, sourceLocation: SourceLocation = #_sourceLocation) {
        clear()
        for (index, part) in keys.split(separator: "\t", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { tmux.send("Tab") }
            if !part.isEmpty { tmux.send("-l", String(part)) }
        }
        tmux.send("Enter")
        let screen = settle { $0.contains("\n" + answer + "\n") }
        #expect(screen.contains("\n" + answer + "\n"), "\(kind): \(screen)", sourceLocation: sourceLocation)
    }

    /// fish's `complete -C LINE`: the candidates fish would offer for TAB at the end of `line`.
    func fishCandidates(_ line: String) -> [String] {
        precondition(kind == .fish)
        let output = sandbox.root.appendingPathComponent("fish-candidates-\(UUID().uuidString)")
        clear()
        tmux.send("-l", "complete -C '\(line)' > \(output.path); echo done-completing")
        tmux.send("Enter")
        _ = settle { $0.contains("\ndone-completing") }
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? "(no output)"
        return text.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }
}
