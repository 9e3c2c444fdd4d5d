import Foundation
import Testing
import TestSupport

/// The command line's own words in Dutch (issue 51): usage errors and every command's --help.
extension DutchWalkTests {
    /// ArgumentParser's words, and the help text's, that a Dutch help or usage error must not
    /// hold ("argument" and "type" are Dutch too).
    static let parserWords: Set<String> = [
        "error", "usage", "overview", "options", "subcommands", "show", "help", "information", "default", "see", "for", "more",
        "detailed", "missing", "unknown", "option", "expected", "unexpected", "value", "invalid", "print", "give",
        "instead", "text", "what", "plugin's", "lines", "manifest's", "must", "only", "one", "or", "values", "flag",
    ]

    /// The English of `text`: `english(in:)`, and the parser's and help's own English words
    /// outside what is quoted and outside names ("--json", "<type>", "name=value").
    static func englishOfTheLine(in text: String) -> [String] {
        var unquoted = "", quoted = false
        for character in text {
            if character == "'" || character == "\"" { quoted.toggle(); continue }
            if !quoted { unquoted.append(character) }
        }
        let parser = unquoted.split(whereSeparator: \.isWhitespace).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:()—")) }
            .filter { !$0.hasPrefix("-") && !$0.hasPrefix("<") && !$0.hasPrefix("[") && !$0.contains("=") && !$0.contains("/") }
            .map { $0.lowercased() }.filter { parserWords.contains($0) }
        return english(in: text) + parser
    }

    @Test("usage errors in Dutch, from LANG or from --locale: a missing argument, an unknown option, a value given to a flag, a value that is no number, an unknown command, a command's own refusal of its line, a plugin id 'plugins new' refuses; exit 64, word for word, not an English word in them; English as ArgumentParser says it")
    func usageErrors() {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        var english = sandbox
        english.extraEnvironment["LANG"] = "C.UTF-8"
        let walked: [(String, ProcessResult)] = [
            ("run", sandbox.run("run")),
            ("listen --seconds 3", sandbox.run("listen", "--seconds", "3")),
            ("run viewstreak --verbose=3", sandbox.run("run", "viewstreak", "--verbose=3")),
            ("menu --limit abc", sandbox.run("menu", "--limit", "abc")),
            ("lst", sandbox.run("lst")),
            ("menu --limit 0 (--locale nl, LANG=C)", english.run("menu", "--limit", "0", "--locale", "nl")),
            ("plugins new bad (--locale=nl, LANG=C)", english.run("plugins", "new", "bad", "--language", "c", "--locale=nl")),
            ("rofi --dmenu --chosen", sandbox.run("rofi", "--dmenu", "--chosen")),
            ("completion fishy", sandbox.run("completion", "fishy")),
        ]
        for (command, result) in walked {
            let words = Self.englishOfTheLine(in: result.stdout + result.stderr)
            #expect(result.status == 64 && result.stdout.isEmpty && words.isEmpty, "\(command) says English (\(words)): \(result)")
        }
        #expect(walked[0].1.stderr == """
            Fout: Het argument '<type>' ontbreekt
            Hulp:  <type>  Het type snelle actie om uit te voeren.
            Gebruik: standfit-host run [<opties>] <type> [<name=value> ...]
              Zie 'standfit-host run --help' voor meer informatie.

            """, "\(walked[0].1)")
        #expect(walked[1].1.stderr == """
            Fout: Onbekende optie '--seconds'
            Gebruik: standfit-host listen [--json] [--verbose] [--manifest <path>] [--define <NAME=VALUE> ...] [--locale <language>] [--require-trusted] [--no-input] [--dry-run] [--yes] [--notify]
              Zie 'standfit-host listen --help' voor meer informatie.

            """, "\(walked[1].1)")
        #expect(walked[2].1.stderr == """
            Fout: De optie '--verbose' neemt geen waarde, maar kreeg '3'.
            Gebruik: standfit-host run [<opties>] <type> [<name=value> ...]
              Zie 'standfit-host run --help' voor meer informatie.

            """, "\(walked[2].1)")
        #expect(walked[3].1.stderr == """
            Fout: De waarde 'abc' is ongeldig voor '--limit <limit>'
            Hulp:  --limit <limit>  Hoeveel items het menu van elke app toont (standaard: menuLimit in config.json, anders 4).
            Gebruik: standfit-host menu [--json] [--verbose] [--manifest <path>] [--define <NAME=VALUE> ...] [--locale <language>] [--require-trusted] [--isolate] [--app <id>] [--limit <limit>] [--notify]
              Zie 'standfit-host menu --help' voor meer informatie.

            """, "\(walked[3].1)")
        #expect(walked[4].1.stderr == """
            Fout: Onverwacht argument 'lst'
            Gebruik: standfit-host <subopdracht>
              Zie 'standfit-host --help' voor meer informatie.

            """, "\(walked[4].1)")
        #expect(walked[5].1.stderr == """
            Fout: --limit moet 1 of meer zijn, kreeg 0.
            Gebruik: standfit-host menu [--json] [--verbose] [--manifest <path>] [--define <NAME=VALUE> ...] [--locale <language>] [--require-trusted] [--isolate] [--app <id>] [--limit <limit>] [--notify]
              Zie 'standfit-host menu --help' voor meer informatie.

            """, "\(walked[5].1)")
        #expect(walked[6].1.stderr == """
            Fout: 'bad' is geen plug-in-id in omgekeerde-DNS-vorm; geef er een zoals com.jouwnaam.water (letters, cijfers, '-' en '_', gescheiden door punten).
            Gebruik: standfit-host plugins new [--json] [--verbose] <id> --language <language> [<dir>] [--sdk <path>]
              Zie 'standfit-host plugins new --help' voor meer informatie.

            """, "\(walked[6].1)")
        #expect(walked[7].1.stderr == """
            Fout: Geef --dmenu (de namen afdrukken) of --chosen (de van standaardinvoer gelezen regel uitvoeren), niet allebei.
            Gebruik: standfit-host rofi [--json] [--verbose] [--manifest <path>] [--define <NAME=VALUE> ...] [--locale <language>] [--require-trusted] [--app <id>] [--dmenu] [--chosen] [--notify]
              Zie 'standfit-host rofi --help' voor meer informatie.

            """, "\(walked[7].1)")
        #expect(walked[8].1.stderr == """
            Fout: De waarde 'fishy' is ongeldig voor '<shell>'; kies uit 'bash', 'zsh' of 'fish'.
            Hulp:  <shell>  De shell waarin wordt aangevuld.
            Gebruik: standfit-host completion <shell>
              Zie 'standfit-host completion --help' voor meer informatie.

            """, "\(walked[8].1)")
        // In English, ArgumentParser's own words, unchanged.
        #expect(english.run("run") == ProcessResult(status: 64, stdout: "", stderr: """
            Error: Missing expected argument '<type>'
            Help:  <type>  The shortcut type to run.
            Usage: standfit-host run [<options>] <type> [<name=value> ...]
              See 'standfit-host run --help' for more information.

            """))
        // The detector finds ArgumentParser's English where there is some.
        #expect(Self.englishOfTheLine(in: "Error: Unknown option '--seconds'\nUsage: standfit-host listen [--json]\n  See 'standfit-host listen --help' for more information.")
            == ["error", "unknown", "option", "usage", "see", "for", "more", "information"])
    }

    @Test("every command's --help in Dutch, found by walking the subcommands each help lists: not an English word in any (names, options, placeholders and quoted words aside)")
    func help() {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        // Laid out for a wide terminal, so that no sentence is cut inside a quote.
        sandbox.extraEnvironment["COLUMNS"] = "1000"
        var pending: [[String]] = [[]], walked: [String] = []
        while let path = pending.popLast() {
            let help = sandbox.run(path + ["--help"])
            walked.append(path.joined(separator: " "))
            // The subcommands' names ("on", "off", "show") are names, not words, in the usage
            // line (the synopsis: names, options and placeholders) and in the list.
            let sections = help.stdout.components(separatedBy: "\nSUBOPDRACHTEN:\n")
            var names: [String] = []
            var described = sections[0].split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("GEBRUIK: ") }.joined(separator: "\n")
            for line in sections.dropFirst().first?.split(separator: "\n", omittingEmptySubsequences: false) ?? [] {
                if line.hasPrefix("  "), !line.hasPrefix("   "), !line.hasPrefix("  Zie "), let name = line.split(separator: " ").first {
                    names.append(String(name))
                    described += "\n" + line.dropFirst(2 + name.count)
                } else {
                    described += "\n" + line
                }
            }
            let words = Self.englishOfTheLine(in: described + help.stderr)
            #expect(help.status == 0 && help.stdout.hasPrefix("OVERZICHT: ") && words.isEmpty, "\(path) --help says English (\(words)): \(help)")
            pending += names.map { path + [$0] }
        }
        // Every command a user runs (the root, 21 commands and their subcommands).
        #expect(walked == [
            "", "server", "server stop", "server status", "serve", "listen", "suggestions", "suggestions unmute", "suggestions offer",
            "suggestions off", "suggestions on", "suggestions status", "schedule", "schedule remove", "schedule list", "schedule add",
            "completion", "doctor", "plugins", "plugins untrust", "plugins trust", "plugins new", "plugins check", "plugins rescan",
            "plugins show", "rofi", "restore", "backup", "export", "export search-provider", "export krunner", "export desktop", "suggest",
            "donations", "donations clear", "donations list", "dynamic", "dynamic clear", "dynamic set", "refresh", "menu", "list", "say", "run",
        ], "\(walked)")
    }
}
