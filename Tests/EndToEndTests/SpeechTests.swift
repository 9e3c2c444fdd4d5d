import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// Hands-free (issue 39): a sentence spoken into a recording is recognised offline against the
/// plugins' own phrases and run as `say` runs it. The recordings are made with espeak-ng, as a
/// user's voice would be, and the host reads them through SoX and PocketSphinx.
@Suite("Speech: say --audio", .timeLimit(.minutes(10)), .serialized)
struct SpeechTests {
    let sandbox = HostSandbox.standFit()

    /// `sentence` spoken by espeak-ng into a WAV file in the sandbox.
    func recording(_ sentence: String) throws -> String {
        let file = sandbox.root.appendingPathComponent(sentence.replacingOccurrences(of: " ", with: "-") + ".wav")
        let made = runProcess(ExternalTool.espeak.url, arguments: ["-v", "en-us", "-w", file.path, sentence])
        try #require(made.status == 0, "espeak-ng could not speak '\(sentence)': \(made.stderr)")
        return file.path
    }

    @Test("a spoken 'log twenty squats' is confirmed even with --yes, as the recogniser is not sure of its number, and logs on yes; 'log the same again', which it is sure of, runs at once with --yes; without it 'show my streak' is confirmed first, and runs on yes",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish))
    func logs() throws {
        #expect(sandbox.run(["say", "--audio", try recording("log twenty squats"), "--yes"], stdin: "y\n")
            == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n",
                             stderr: "Heard: log twenty squat\nNot sure of what was heard: it is confirmed even with --yes.\nLog 20 squat? [y/N] "))
        #expect(sandbox.run(["say", "--audio", try recording("log the same again"), "--yes"], stdin: "")
            == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\n", stderr: "Heard: log the same again\n"))
        #expect(sandbox.run(["say", "--audio", try recording("show my streak")], stdin: "y\n")
            == ProcessResult(status: 0, stdout: "Streak: 1 day\nBest streak: 1 day · level 1 · 40 XP\n", stderr: "Heard: show my streak\nShow my streak? [y/N] "))
    }

    @Test("every reading is confirmed, its numbers in digits: 'log fifteen push ups', heard as fifty, asks 'Log 50 push up?'; no, or no answer, runs nothing (exit 1); --no-input refuses (3); yes logs",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish, .sqlite3))
    func confirmation() throws {
        let audio = try recording("log fifteen push ups")
        #expect(sandbox.run(["say", "--audio", audio], stdin: "n\n") == ProcessResult(status: 1, stdout: "",
            stderr: "Heard: log fifty push up\nLog 50 push up? [y/N] standfit-host: Not run: 'Log 50 push up' was not confirmed.\n"))
        #expect(sandbox.run(["say", "--audio", audio], stdin: "") == ProcessResult(status: 1, stdout: "",
            stderr: "Heard: log fifty push up\nLog 50 push up? [y/N] standfit-host: Not run: 'Log 50 push up' was not confirmed.\n"))
        #expect(sandbox.run(["say", "--audio", audio, "--no-input"]) == ProcessResult(status: 3, stdout: "",
            stderr: "Heard: log fifty push up\nstandfit-host: 'log fifty push up' needs your confirmation before it runs; answer on a terminal, pass --yes to run what the recogniser is sure of, or type it with 'standfit-host say'.\n"))
        #expect(DesktopBusTests.logged(sandbox) == "")
        #expect(sandbox.run(["say", "--audio", audio], stdin: "yes\n").stdout == "Logged 50 push-ups · +75 XP\nAchievement unlocked: First log\n")
        #expect(DesktopBusTests.logged(sandbox) == "pushups|50\n")
    }

    @Test("speech that is none of the phrases is read as the nearest one, which is why it is confirmed; silence runs nothing (exit 2)",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish, .sqlite3))
    func unsure() throws {
        // Which phrase it lands on is the recogniser's near tie; that it asks, and runs nothing, is not.
        let other = sandbox.run(["say", "--audio", try recording("call my mother")], stdin: "n\n")
        #expect(other.status == 1 && other.stdout == "", "\(other)")
        let lines = other.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 3 && lines[0].hasPrefix("Heard: ") && lines[0].count > 7 && lines[2].isEmpty, "\(other)")
        #expect(lines[1].hasSuffix("' was not confirmed.") && lines[1].contains("? [y/N] standfit-host: Not run: '"), "\(other)")
        #expect(DesktopBusTests.logged(sandbox) == "")
        let silence = sandbox.root.appendingPathComponent("silence.wav").path
        #expect(runProcess(ExternalTool.sox.url, arguments: ["-n", "-r", "16000", "-c", "1", silence, "trim", "0", "1"]).status == 0)
        #expect(sandbox.run("say", "--audio", silence) == ProcessResult(status: 2, stdout: "",
            stderr: "standfit-host: Nothing was heard in \(silence); speak one of the plugins' phrases (such as \"log 20 squats\") or type it with 'standfit-host say'.\n"))
    }

    /// The English words of `number` (1–100), as a person says it and espeak-ng speaks it.
    static func words(_ number: Int) -> String {
        let units = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
        let teens = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
        let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        switch number {
        case 1..<10: return units[number - 1]
        case 10..<20: return teens[number - 10]
        case 100: return "one hundred"
        default: return tens[number / 10 - 2] + (number % 10 == 0 ? "" : " " + units[number % 10 - 1])
        }
    }

    /// What `say --audio` says of a recording in which the recogniser heard nothing.
    static func nothingHeard(in audio: String) -> String {
        "standfit-host: Nothing was heard in \(audio); speak one of the plugins' phrases (such as \"log 20 squats\") or type it with 'standfit-host say'.\n"
    }

    /// Requests for something else, none of them a phrase of any plugin.
    static let nonRequests = [
        "what's the weather like today", "call my mother", "play some music", "open the garage door", "set an alarm for seven",
        "turn off the lights", "what time is it", "send a message to john", "how far is the moon", "tell me a joke",
        "remind me to buy milk", "what's on my calendar", "navigate to the station", "read my email", "pause the music",
        "who won the game last night", "order a pizza", "translate hello into french", "is it going to rain tomorrow", "good morning",
    ]

    @Test("with --yes, no spoken number runs as another (every number word 1–100, 'log N squats'), no request for something else runs at all (20 of them), and five phrases that show something show what typed they show: what the recogniser is not sure of is asked, and with --no-input refused (3)",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish))
    func noWrongRuns() throws {
        let utterances = (1...100).map { ("log \(Self.words($0)) squats", Optional($0)) } + Self.nonRequests.map { ($0, Int?.none) }
        let recordings = try utterances.map { try recording($0.0) }
        // Each reading as a user with --yes would meet it, two at a time (two cores).
        let results = Mutex<[Int: ProcessResult]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            for index in stride(from: lane, to: utterances.count, by: 2) {
                let result = sandbox.run("say", "--audio", recordings[index], "--yes", "--no-input")
                results.withLock { $0[index] = result }
            }
        }
        var ranRight = 0, asked = 0, heardNothing = 0, wrong: [String] = []
        for (index, (sentence, number)) in utterances.enumerated() {
            let result = results.withLock { $0[index] } ?? ProcessResult(status: -1, stdout: "", stderr: "")
            switch result.status {
            case 0:
                if let number, result.stdout.hasPrefix("Logged \(number) squat\(number == 1 ? "" : "s") · ") { ranRight += 1 } else { wrong.append("'\(sentence)' ran: \(result)") }
            case 3 where result.stderr.hasSuffix("needs your confirmation before it runs, as the recogniser was not sure of it; say it again, or type it with 'standfit-host say'.\n"):
                asked += 1
            case 2 where result.stderr == Self.nothingHeard(in: recordings[index]):
                heardNothing += 1
            default:
                wrong.append("'\(sentence)' ended unexpectedly: \(result)")
            }
        }
        // Phrases that only show something, after the numbers: run unasked, each must show what
        // the typed sentence shows.
        for sentence in ["achievements", "show my streak", "view progress", "what is my level", "how am i doing"] {
            let typed = sandbox.run("say", sentence)
            let audio = try recording(sentence)
            let spoken = sandbox.run("say", "--audio", audio, "--yes", "--no-input")
            switch spoken.status {
            case 0 where spoken.stdout == typed.stdout && typed.status == 0: ranRight += 1
            case 3 where spoken.stderr.hasSuffix("as the recogniser was not sure of it; say it again, or type it with 'standfit-host say'.\n"): asked += 1
            case 2 where spoken.stderr == Self.nothingHeard(in: audio): heardNothing += 1
            default: wrong.append("'\(sentence)' ran: \(spoken), typed: \(typed)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.joined(separator: "\n"))")
        // What it came to (docs/BENCHMARKS.md, "Speech"), for the record of a run.
        print("Speech, \(utterances.count + 5) utterances with --yes: \(ranRight) ran as said, \(asked) asked, \(heardNothing) heard nothing, \(wrong.count) wrong")
        // Something did run unasked ("achievements", which the recogniser is sure of): the rule
        // is not "ask everything".
        #expect(ranRight > 0)
    }

    @Test("a routine is in the speech grammar: its title spoken ('morning routine') runs it (issue 51)",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish))
    func spokenRoutine() throws {
        let shortcuts = sandbox.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: shortcuts, withIntermediateDirectories: true)
        try Data(#"{"type": "user.morning", "title": "Morning routine", "steps": [{"type": "com.standfit.viewstreak"}]}"#.utf8)
            .write(to: shortcuts.appendingPathComponent("morning.json"))
        #expect(sandbox.run(["say", "--audio", try recording("morning routine")], stdin: "y\n") == ProcessResult(status: 0,
            stdout: "No streak yet: log an exercise today to start one.\nMorning routine: ran 1 step.\n", stderr: "Heard: morning routine\nMorning routine? [y/N] "))
    }

    @Test("bad input: a file that is not audio (3), one that is not there (3), a language without a model (69), words and --audio together (64)",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish))
    func refusals() throws {
        let text = sandbox.root.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        #expect(sandbox.run("say", "--audio", text.path) == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: error: \(text.path) is not audio SoX can read (no handler for given file type `txt'); give a WAV, FLAC or Ogg file.\n"))
        let missing = sandbox.root.appendingPathComponent("missing.wav").path
        #expect(sandbox.run("say", "--audio", missing) == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: error: The audio file \(missing) cannot be read (No such file or directory); check its name and permissions.\n"))
        #expect(sandbox.run("say", "--audio", try recording("show my streak"), "--locale", "nl") == ProcessResult(status: 69, stdout: "",
            stderr: "standfit-host: fout: Er is geen spraakmodel voor nl: Debian levert alleen Engels (pocketsphinx-en-us); noem er een in speechModels in config.json, of gebruik --locale en.\n"))
        // Under --json, one document each, with its code (docs/JSON.md).
        #expect(sandbox.run("say", "--audio", text.path, "--json") == ProcessResult(status: 3, stdout: """
            {
              "code" : "audio-invalid",
              "message" : "\(text.path) is not audio SoX can read (no handler for given file type `txt'); give a WAV, FLAC or Ogg file.",
              "status" : "error"
            }

            """, stderr: ""))
        #expect(sandbox.run("say", "--audio", try recording("show my streak"), "--locale", "nl", "--json") == ProcessResult(status: 69, stdout: """
            {
              "code" : "speech-unavailable",
              "message" : "Er is geen spraakmodel voor nl: Debian levert alleen Engels (pocketsphinx-en-us); noem er een in speechModels in config.json, of gebruik --locale en.",
              "status" : "error"
            }

            """, stderr: ""))
        #expect(sandbox.run("say", "--audio", missing, "log", "squats") == ProcessResult(status: 64, stdout: "", stderr: """
            Error: Give the sentence as words or as --audio FILE, not both.
            Usage: standfit-host say [--json] [--verbose] [--manifest <path>] [--define <NAME=VALUE> ...] [--locale <language>] [--require-trusted] [--isolate] [--no-input] [--dry-run] [<sentence> ...] [--audio <file>] [--yes]
              See 'standfit-host say --help' for more information.

            """))
    }

    @Test("an untrusted plugin that declares StandFit's own sentences ('log twenty squats', 'log 20 squats'), or is named 'Log' and declares 'twenty squats', takes none of them: typed or spoken, StandFit logs",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish, .sqlite3))
    func phraseTakeover() throws {
        var sandbox = self.sandbox
        // One declares the sentences, the other is named "Log" and declares them without the verb.
        let phrasePlugin = try FixturePlugins.zoo("phrase-takeover.so"), namePlugin = try FixturePlugins.zoo("name-takeover.so")
        sandbox.pluginPath += [phrasePlugin, namePlugin]
        #expect(sandbox.run("say", "log twenty squats") == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(sandbox.run("say", "log 20 squats") == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\n", stderr: ""))
        let spoken = sandbox.run(["say", "--audio", try recording("log twenty squats")], stdin: "y\n")
        #expect(spoken.status == 0 && spoken.stdout == "Logged 20 squats · +20 XP\n", "\(spoken)")
        #expect(DesktopBusTests.logged(sandbox) == "squats|20\nsquats|20\nsquats|20\n")
        // The plugin's action is still its own to run.
        #expect(sandbox.run("run", "com.zoo.phrase-takeover.run") == ProcessResult(status: 0, stdout: "zoo phrase-takeover ran\n", stderr: ""))
        // The phrases were taken out when it registered: the plugin list and its author's check say so.
        let warnings = ["log twenty squats", "log twenty squat", "log 20 squats"].map {
            "The phrase \"\($0)\" of 'com.zoo.phrase-takeover.run' is not used: StandFit's phrase \"log {count} {exercise}\" ('com.standfit.logexercise', plugin 'com.standfit') already reads the same sentences, and a sentence belongs to the app that declared it first (bundled, then trusted, then the rest); choose words no other app uses."
        }
        let listed = sandbox.run("plugins")
        #expect(listed.status == 0)
        let standFit = """
            com.standfit 1.0.0 (ABI 1.0): StandFit
              path: \(Fixtures.standFitPlugin.path)
              types: com.standfit.logexercise, com.standfit.loglast, com.standfit.viewstreak, com.standfit.viewprogress, com.standfit.undo, com.standfit.redo, com.standfit.history, com.standfit.deletelog, com.standfit.editlog, com.standfit.achievements, com.standfit.export, com.standfit.import, com.standfit.addexercise, com.standfit.renameexercise, com.standfit.hideexercise, com.standfit.setgoal, com.standfit.goalreminder
              runs: in the host's process (trusted; in a worker when the warm server runs it)

            """
        let nameTakeover = """
            com.zoo.name-takeover 0.1.0 (ABI 1.0): Log
              path: \(namePlugin.path)
              types: com.zoo.name-takeover.run
              runs: in a worker process

            """
        let listedWarnings: String = warnings.map { "  warning: \($0)\n" }.joined()
        #expect(listed.stdout == standFit + FixturePlugins.zooListing("phrase-takeover", phrasePlugin) + listedWarnings + nameTakeover)
        let checked = sandbox.run("plugins", "check", "--strict", phrasePlugin.path)
        #expect(checked.status == 1)
        let report = """
            Plugin \(phrasePlugin.path)
              id: com.zoo.phrase-takeover 0.1.0 ("Zoo phrase-takeover"), ABI 1.0
              init: N ms
              sha256: \(sha256(of: phrasePlugin))
              runs: in a worker process (not trusted; 'standfit-host plugins trust' pins it)
              types:
                com.zoo.phrase-takeover.run "Run phrase-takeover"
                  phrases: "log twenty squats" (every language), "log twenty squat" (every language), "log 20 squats" (every language)
              static items: none
              dynamic provider: no
              warnings:

            """
        let checkedWarnings: String = warnings.map { "    - \($0)\n" }.joined()
        #expect(withoutInitTime(checked.stdout) == report + checkedWarnings + "OK with 3 warnings: com.zoo.phrase-takeover loads, with 1 type.\n")
        // The name-takeover plugin's phrases ('twenty squats') are words no StandFit phrase reads: kept.
        #expect(sandbox.run("plugins", "check", "--strict", namePlugin.path).status == 0)
    }

    @Test("audio input is bounded: a 2 GB sparse WAV, /dev/zero named z.ul and a FIFO nobody writes to are refused at once in one sentence (3), nothing is left running, and the next command is served",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish))
    func boundedInput() throws {
        let sparse = sandbox.root.appendingPathComponent("huge.wav")
        #expect(runProcess(ExternalTool.sox.url, arguments: ["-n", "-r", "16000", "-c", "1", sparse.path, "trim", "0", "1"]).status == 0)
        #expect(truncate(sparse.path, 2 << 30) == 0)
        #expect(sandbox.run("say", "--audio", sparse.path, "--yes") == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: error: \(sparse.path) is 2048 MiB, more than the 64 MiB a spoken request takes; give a recording of the sentence alone (a minute at most).\n"))
        let zero = sandbox.root.appendingPathComponent("z.ul")
        try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
        let fifo = sandbox.root.appendingPathComponent("nobody.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        for file in [zero, fifo] {
            #expect(sandbox.run("say", "--audio", file.path, "--yes") == ProcessResult(status: 3, stdout: "",
                stderr: "standfit-host: error: \(file.path) is not a regular file (a device, a pipe or a directory cannot be a recording); give a WAV, FLAC or Ogg file.\n"))
        }
        // A recording longer than a minute is read up to its first minute.
        let long = sandbox.root.appendingPathComponent("long.wav")
        #expect(runProcess(ExternalTool.sox.url, arguments: ["-n", "-r", "8000", "-c", "1", long.path, "trim", "0", "600"]).status == 0)
        #expect(sandbox.run("say", "--audio", long.path, "--yes").status == 2)
        #expect(sandbox.run("run", "viewstreak").status == 0)
    }

    @Test("a rec that is there but cannot be started (not a program: Exec format error) is said so (69), not called 'not installed'",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish))
    func recNotStarted() throws {
        let (microphone, _) = try Self.microphone(sandbox, playing: "/dev/null")
        try writeProgram("\u{7F}ELF\u{0}\u{1}", to: sandbox.root.appendingPathComponent("bin/rec"))
        #expect(microphone.run(["listen", "--yes"]) == ProcessResult(status: 69, stdout: "",
            stderr: "Listening… (say a phrase, such as \"log twenty squats\")\nstandfit-host: error: SoX's rec could not be started (Exec format error); try again, and reinstall SoX if it says so again (Debian: apt-get install --reinstall sox).\n"))
    }

    @Test("listen on a silent input (a muted microphone: rec never hears speech, so its silence effect never ends) stops at 10 s with a sentence (69), its rec killed",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish))
    func silentMicrophone() throws {
        let (microphone, calls) = try Self.microphone(sandbox, playing: "/dev/null")
        let pidFile = sandbox.root.appendingPathComponent("rec.pid")
        try writeProgram("#!/bin/sh\necho \"$*\" > '\(calls.path)'\necho $$ > '\(pidFile.path)'\nexec sleep 120\n",
                         to: sandbox.root.appendingPathComponent("bin/rec"))
        // The limit is the sentence's "10 seconds" (no clock is read here: no timing assertion).
        #expect(microphone.run(["listen", "--yes"]) == ProcessResult(status: 69, stdout: "",
            stderr: "Listening… (say a phrase, such as \"log twenty squats\")\nstandfit-host: error: Nothing was heard in 10 seconds; check that the microphone is not muted, then speak right after 'Listening…'.\n"))
        let pid = try #require(pid_t((try String(contentsOf: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "rec (pid \(pid)) outlived its listen")
        // The turn was given back: another listen may record.
        #expect(microphone.run(["listen", "--yes"]) == ProcessResult(status: 69, stdout: "",
            stderr: "Listening… (say a phrase, such as \"log twenty squats\")\nstandfit-host: error: Nothing was heard in 10 seconds; check that the microphone is not muted, then speak right after 'Listening…'.\n"))
    }

    @Test("listen records with SoX's rec until a pause (a stand-in on PATH plays a recording, as no microphone is here) and runs what it heard once confirmed; without rec it says what to install (69)",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish))
    func listen() throws {
        let (microphone, calls) = try Self.microphone(sandbox, playing: try recording("log twenty squats"))
        let bin = sandbox.root.appendingPathComponent("bin")
        #expect(microphone.run(["listen"], stdin: "y\n") == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n",
            stderr: "Listening… (say a phrase, such as \"log twenty squats\")\nHeard: log twenty squat\nLog 20 squat? [y/N] "))
        // Raw 16 kHz mono from the default input, stopping after a second of quiet, at most 10 s.
        #expect(try String(contentsOf: calls, encoding: .utf8)
            == "-q -t raw -r 16000 -c 1 -b 16 -e signed-integer -L - silence 1 0.1 1% 1 1.0 1% trim 0 10\n")
        var deaf = sandbox
        deaf.extraEnvironment["PATH"] = bin.appendingPathComponent("none").path
        #expect(deaf.run("listen") == ProcessResult(status: 69, stdout: "", stderr: """
            Listening… (say a phrase, such as "log twenty squats")
            standfit-host: error: Listening needs SoX's rec, which is not installed; install it (Debian: apt-get install sox, and libsox-fmt-pulse for PipeWire or PulseAudio).

            """))
    }

    /// `sandbox` with a `rec` stand-in on its PATH that plays `audio` as the default input
    /// would give it (no microphone in these containers), recording its arguments in the URL
    /// returned.
    static func microphone(_ sandbox: HostSandbox, playing audio: String) throws -> (HostSandbox, URL) {
        let bin = sandbox.root.appendingPathComponent("bin"), calls = sandbox.root.appendingPathComponent("rec.calls")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let rec = bin.appendingPathComponent("rec")
        try writeProgram("""
            #!/bin/sh
            echo "$*" > '\(calls.path)'
            exec \(ExternalTool.sox.path) '\(audio)' -t raw -r 16000 -c 1 -b 16 -e signed-integer -L -

            """, to: rec)
        var microphone = sandbox
        microphone.extraEnvironment["PATH"] = "\(bin.path):/usr/bin:/bin"
        return (microphone, calls)
    }

    @Test("listen --notify (a global shortcut, no terminal): 'Listening…' while it records, the question with Run and Cancel; Run logs and notifies the outcome, Cancel runs nothing (exit 1)",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish, .dbusDaemon, .python3, .pythonGI, .sqlite3),
          arguments: ["Run", "Cancel"])
    func listenNotifying(press: String) throws {
        let (onBus, bus, record) = try DesktopBusTests.sandboxWithNotifications(press: press)
        defer { bus.stop() }
        let espoken = onBus.root.appendingPathComponent("spoken.wav").path
        #expect(runProcess(ExternalTool.espeak.url, arguments: ["-v", "en-us", "-w", espoken, "log twenty squats"]).status == 0)
        let (microphone, _) = try Self.microphone(onBus, playing: espoken)
        let listened = microphone.run(["listen", "--notify"], stdin: "")
        // The recogniser hears the recording's last word as "squat" or, now and then (where
        // rec's pipe cuts the audio differently under load), "squats": both name the exercise,
        // and the rest is the same either way.
        let squat = listened.stderr.hasPrefix("Heard: log twenty squats\n") ? "squats" : "squat"
        let question = "Log 20 \(squat)? | Heard: log twenty \(squat) | audio-input-microphone | 1 | org.standfit.Host | 1=Run,2=Cancel"
        let listening = "Listening… | Say a phrase, such as \"log twenty squats\". | audio-input-microphone | 1 | org.standfit.Host | "
        if press == "Run" {
            #expect(listened == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n", stderr: "Heard: log twenty \(squat)\n"))
            #expect(DesktopBusTests.shown(record) == [listening, question,
                "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log | list-add | 1 | org.standfit.Host | "])
            #expect(DesktopBusTests.logged(onBus) == "squats|20\n")
        } else {
            #expect(listened == ProcessResult(status: 1, stdout: "", stderr: "Heard: log twenty \(squat)\nstandfit-host: Not run: 'Log 20 \(squat)' was not confirmed.\n"))
            #expect(DesktopBusTests.shown(record) == [listening, question])
            #expect(DesktopBusTests.logged(onBus) == "")
        }
    }

    @Test("one listen at a time: a second one while the first records says so (69) and records nothing; the first runs as heard",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish, .sqlite3))
    func oneListenAtATime() throws {
        let spoken = sandbox.root.appendingPathComponent("spoken.wav").path
        #expect(runProcess(ExternalTool.espeak.url, arguments: ["-v", "en-us", "-w", spoken, "log twenty squats"]).status == 0)
        let (microphone, calls) = try Self.microphone(sandbox, playing: spoken)
        // A slow microphone: the first listen holds its turn for two seconds.
        let rec = sandbox.root.appendingPathComponent("bin/rec")
        try writeProgram("#!/bin/sh\necho \"$*\" >> '\(calls.path)'\nsleep 2\nexec \(ExternalTool.sox.path) '\(spoken)' -t raw -r 16000 -c 1 -b 16 -e signed-integer -L -\n",
                         to: rec)
        // On the warm path the sandbox's server starts with its first command, before the
        // one started here in the background.
        #expect(microphone.run("--version").status == 0)
        // The first one's question answered yes on its standard input.
        let firstLog = sandbox.root.appendingPathComponent("first-listen.log")
        let answer = sandbox.root.appendingPathComponent("answer")
        try "y\n".write(to: answer, atomically: true, encoding: .utf8)
        // Checked until it records: the server says a hand-back in its log before it answers the
        // client, so before a listen handed back could record.
        let first = try microphone.checkingHandBacks("listen (the first, in the background)") {
            let pid = try #require(spawnInBackground("/bin/sh", ["-c", "exec '\(Fixtures.hostBinary.path)' listen < '\(answer.path)'"],
                                                     environment: microphone.environment, log: firstLog))
            #expect(eventually(10) { (try? String(contentsOf: calls, encoding: .utf8))?.isEmpty == false }, "the first listen did not start recording")
            return pid
        }
        #expect(microphone.run(["listen", "--yes"]) == ProcessResult(status: 69, stdout: "",
            stderr: "standfit-host: error: Already listening: another 'standfit-host listen' is recording or waiting for its answer; answer or cancel that one first.\n"))
        var status: Int32 = 0
        #expect(waitpid(first, &status, 0) == first)
        #expect(status == 0, "\(sandbox.logs("first-listen.log"))")
        #expect(DesktopBusTests.logged(sandbox) == "squats|20\n")
        // One recording: the second never reached the microphone.
        #expect((try String(contentsOf: calls, encoding: .utf8)).split(separator: "\n").count == 1)
    }

    /// A sandbox whose microphone says "log twenty squats", on a private bus with the test
    /// notification server (pressing `press`), the desktop entry installed and its Listen action
    /// clicked: the server the bus starts listens. Answers the sandbox, the bus (to stop), the
    /// notification record and the microphone's record of its calls.
    static func listenThroughBus(press: String?) throws -> (HostSandbox, SessionBus, URL, URL) {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["STANDFIT_SERVER"] = "manual"
        let spoken = sandbox.root.appendingPathComponent("spoken.wav").path
        try FileManager.default.createDirectory(at: sandbox.root, withIntermediateDirectories: true)
        #expect(runProcess(ExternalTool.espeak.url, arguments: ["-v", "en-us", "-w", spoken, "log twenty squats"]).status == 0)
        // The bus starts the server with its own environment: the one with the microphone.
        var (microphone, calls) = try Self.microphone(sandbox, playing: spoken)
        let bus = try #require(SessionBus(sandbox: microphone), "dbus-daemon did not start; \(sandbox.logs("bus.log"))")
        microphone.extraEnvironment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let record = sandbox.root.appendingPathComponent("notifications.jsonl")
        try #require(bus.startNotificationServer(record: record, press: press), "the test notification server did not start")
        #expect(microphone.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", DesktopBusTests.applicationID, "listen"]) == ProcessResult(status: 0, stdout: "", stderr: ""))
        return (microphone, bus, record, calls)
    }

    @Test("the installed entry's Listen action through the bus (gapplication action org.standfit.Host listen): answered at once, the server listens, asks, and Run logs",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish, .dbusDaemon, .gapplication, .python3, .pythonGI, .sqlite3))
    func listenAction() throws {
        let (microphone, bus, record, calls) = try Self.listenThroughBus(press: "Run")
        defer { bus.stop() }
        #expect(eventually { DesktopBusTests.logged(microphone) == "squats|20\n" })
        #expect(eventually { DesktopBusTests.shown(record).count == 3 })
        // The warm pass's server was started by the harness: its desktop requests run on the real clock.
        if let early = HostPath.current == .warm ? DesktopBusTests.realClockAchievements() : "" {
            #expect(DesktopBusTests.shown(record) == [
                "Listening… | Say a phrase, such as \"log twenty squats\". | audio-input-microphone | 1 | org.standfit.Host | ",
                "Log 20 squat? | Heard: log twenty squat | audio-input-microphone | 1 | org.standfit.Host | 1=Run,2=Cancel",
                // The host's own icons are installed with the entry.
                "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log\(early) | org.standfit.Host.log | 1 | org.standfit.Host | ",
            ])
        }
        // It recorded through rec, in the server the bus started.
        #expect(FileManager.default.fileExists(atPath: calls.path))
        #expect(eventually { DesktopBusTests.serverLog(microphone).contains("Listen: exit status 0: Heard: log twenty squat\\nLogged 20 squats") })
        #expect(DesktopBusTests.serverLog(microphone).contains("ActivateAction 'listen' from :1."))
    }

    @Test("server stop while Listen's question waits for its answer: the question is taken away unanswered, nothing runs, and 'Stopped' is said only when the server is as good as gone",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish, .dbusDaemon, .gapplication, .python3, .pythonGI, .sqlite3))
    func stopDuringQuestion() throws {
        // Nobody answers the question.
        let (microphone, bus, record, _) = try Self.listenThroughBus(press: nil)
        defer { bus.stop() }
        #expect(eventually { DesktopBusTests.shown(record).count == 2 })
        let stopped = microphone.run("server", "stop")
        #expect(stopped.status == 0 && stopped.stderr == "" && stopped.stdout.hasPrefix("Stopped the server (pid "), "\(stopped)")
        let pid = try #require(pid_t(stopped.stdout.dropFirst("Stopped the server (pid ".count).prefix { $0.isNumber }))
        #expect(eventually(10) { !ProcessTable.isAlive(pid) }, "the server (pid \(pid)) still lives after 'server stop' said Stopped")
        #expect(DesktopBusTests.logged(microphone) == "")
        #expect(eventually { DesktopBusTests.serverLog(microphone).contains("Listen: exit status 1: Heard: log twenty squat") }, "\(DesktopBusTests.serverLog(microphone))")
    }

    @Test("the Listen action where speech cannot work (an entry installed in Dutch, for which Debian has no model): the reason as a notification (normal urgency), nothing recorded",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI))
    func listenActionUnavailable() throws {
        let (sandbox, bus, record) = try DesktopBusTests.sandboxWithNotifications()
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install", "--locale", "nl").status == 0)
        let entry = try String(contentsOf: sandbox.dataHome.appendingPathComponent("applications/org.standfit.Host.desktop"), encoding: .utf8)
        #expect(entry == """
            [Desktop Entry]
            Type=Application
            Version=1.4
            Name=StandFit
            Comment=Snelle acties: Oefening loggen
            Comment[en]=Quick actions: Log Exercise
            Keywords=Oefening;loggen;snelle;acties;
            Keywords[en]=Log;Exercise;quick;actions;
            Icon=org.standfit.Host
            Exec=\(Fixtures.hostBinary.path) menu --notify --locale nl
            Terminal=false
            DBusActivatable=true
            Categories=Utility;
            Actions=com-standfit-logexercise;listen;

            [Desktop Action com-standfit-logexercise]
            Name=Oefening loggen
            Name[en]=Log Exercise
            Icon=org.standfit.Host.log
            Exec=\(Fixtures.hostBinary.path) run --notify --locale nl -- com.standfit.logexercise

            [Desktop Action listen]
            Name=Luisteren
            Name[en]=Listen
            Icon=audio-input-microphone
            Exec=\(Fixtures.hostBinary.path) listen --notify --locale nl

            """)
        #expect(bus.run(.gapplication, ["action", DesktopBusTests.applicationID, "listen"]) == ProcessResult(status: 0, stdout: "", stderr: ""))
        #expect(eventually { DesktopBusTests.shown(record).count == 1 })
        #expect(DesktopBusTests.shown(record) == [
            "StandFit | Er is geen spraakmodel voor nl: Debian levert alleen Engels (pocketsphinx-en-us); noem er een in speechModels in config.json, of gebruik --locale en. | audio-input-microphone | 1 | org.standfit.Host | ",
        ])
        #expect(eventually { DesktopBusTests.serverLog(sandbox).contains("Listen: exit status 69: ") })
    }

    @Test("the recogniser is opened by speech alone: neither binary links libpocketsphinx")
    func notLinked() {
        for binary in [Fixtures.hostBinary, Fixtures.hostBinary.deletingLastPathComponent().appendingPathComponent("standfit-host-full")] {
            let linked = runProcess(URL(fileURLWithPath: "/usr/bin/ldd"), arguments: [binary.path])
            #expect(!linked.stdout.contains("pocketsphinx") && !linked.stdout.contains("sphinxbase"), "\(binary.lastPathComponent): \(linked.stdout)")
        }
    }
}
