import Foundation
import Testing
import TestSupport

/// One language everywhere (issue 51), walked command by command in Dutch: every line a command
/// shows is checked for English. This part walks the suggestions', the schedules' and the
/// server's commands, list --explain and doctor; the rest of the walk (plugin warnings and
/// plugins check, errors thrown with literal English, KRunner's metadata) is still to come.
@Suite("Dutch, command by command", .timeLimit(.minutes(10)))
struct DutchWalkTests {
    /// English words that no Dutch sentence of the host has ("is", "of", "in", "log" are Dutch too).
    static let englishWords: Set<String> = [
        "the", "and", "to", "with", "your", "you", "when", "its", "this", "that", "from", "every", "none", "runs", "ran", "until",
        "shows", "turns", "which", "would", "could", "there", "offered", "nothing", "not", "quiet", "hours", "most", "day", "suggestion",
        "suggestions", "already", "usually", "around", "now", "today", "least", "twice", "times", "each", "once", "minutes", "learned",
        "suggesting", "again", "muted", "since", "off", "on", "a", "an", "at", "are", "no", "yet", "come", "comes",
    ]

    /// The English words of `text`, outside what is quoted ('standfit-host suggestions on') and
    /// outside names (config.json, suggestionQuietHours, com.standfit.logexercise).
    static func english(in text: String) -> [String] {
        var unquoted = "", quoted = false
        for character in text {
            if character == "'" { quoted.toggle(); continue }
            if !quoted { unquoted.append(character) }
        }
        return unquoted.split(whereSeparator: \.isWhitespace).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".,;:()—")) }
            .map { $0.lowercased() }.filter { englishWords.contains($0) }
    }

    @Test("the suggestions' commands in Dutch: suggestions, suggest --explain, suggestions offer --dry-run (quiet, nothing due, would offer), suggestions off and unmute; not an English word in them")
    func suggestions() {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        func at(_ instant: String) -> HostSandbox {
            var timed = sandbox
            timed.extraEnvironment["STANDFIT_NOW"] = instant
            return timed
        }
        for day in 18...21 {
            #expect(at("2026-11-\(day)T08:05:00Z").run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        }
        let walked: [(String, ProcessResult)] = [
            ("suggestions", sandbox.run("suggestions")),
            ("suggest --explain", at("2026-11-22T08:05:00Z").run("suggest", "--explain")),
            ("offer at 23:00", at("2026-11-22T22:00:00Z").run("suggestions", "offer", "--dry-run")),
            ("offer at 14:05", sandbox.run("suggestions", "offer", "--dry-run")),
            ("offer at 09:05", at("2026-11-22T08:05:00Z").run("suggestions", "offer", "--dry-run")),
            ("suggestions off", sandbox.run("suggestions", "off")),
            ("suggestions unmute --all", sandbox.run("suggestions", "unmute", "--all")),
        ]
        for (command, result) in walked {
            let words = Self.english(in: result.stdout + result.stderr)
            #expect(words.isEmpty, "\(command) says English (\(words)): \(result)")
        }
        #expect(walked[0].1 == ProcessResult(status: 0, stdout: """
            Voorstellen komen als meldingen: uit; 'standfit-host suggestions on' zet ze aan (stille uren 22:00-08:00, hoogstens 3 per dag).
            Vandaag aangeboden: 0.

            """, stderr: ""))
        #expect(walked[2].1.stdout == "Niets aangeboden: 23:00 valt in de stille uren (22:00-08:00, suggestionQuietHours in config.json).\n")
        // StandFit's Dutch phrase "log {count} {exercise}" names it ("log" is Dutch for it too).
        #expect(walked[4].1.stdout == "Zou aanbieden: Log 20 Squats (meestal rond 09:05).\n", "\(walked[4].1)")
        #expect(walked[6].1 == ProcessResult(status: 2, stdout: "", stderr: "standfit-host: Van enig type was niets uitgezet; er is geen voorstel uitgezet.\n"))
        // The detector itself finds English where there is some.
        #expect(Self.english(in: "Nothing offered at 14:05: no suggestion usually runs around now ('standfit-host suggest' shows when).")
            == ["nothing", "offered", "at", "no", "suggestion", "usually", "runs", "around", "now", "shows", "when"])
    }

    @Test("the schedules' commands in Dutch: schedule list (none, one), add, add --remind refused, a time systemd does not read, remove, remove of none; not an English word in them (systemd's own words quoted or as it writes them)",
          .needs(.systemdAnalyze))
    func schedules() {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        // No user manager here: a schedule is written, enabled, and said not to be active yet.
        sandbox.extraEnvironment["PATH"] = sandbox.root.path + ":/usr/bin:/bin"
        let walked: [(String, ProcessResult)] = [
            ("schedule list", sandbox.run("schedule", "list")),
            ("schedule add", sandbox.run("schedule", "add", "Mon..Fri 07:00", "logexercise", "exercise=squats", "count=20")),
            ("schedule list (one)", sandbox.run("schedule", "list")),
            ("schedule add --remind", sandbox.run("schedule", "add", "--remind", "daily", "logexercise", "exercise=squats", "count=5")),
            ("schedule add bad time", sandbox.run("schedule", "add", "every morning", "viewstreak")),
            ("schedule remove 7", sandbox.run("schedule", "remove", "7")),
            ("schedule remove 1", sandbox.run("schedule", "remove", "1")),
            ("schedule remove 1 again", sandbox.run("schedule", "remove", "1")),
        ]
        for (command, result) in walked {
            // systemd's calendar words (Mon..Fri, CET) and its state are its own, not sentences.
            let words = Self.english(in: result.stdout + result.stderr)
            #expect(words.isEmpty, "\(command) says English (\(words)): \(result)")
        }
        #expect(walked[0].1.stdout.hasPrefix("Geen planningen; 'standfit-host schedule add WANNEER TYPE [naam=waarde …]' voegt er een toe"))
        #expect(walked[1].1.status == 0 && walked[1].1.stdout.hasPrefix("Gepland 1: Oefening loggen (exercise=squats count=20), Mon..Fri *-*-* 07:00:00 (volgende "),
                "\(walked[1].1)")
        #expect(walked[2].1.stdout.hasPrefix("1. Oefening loggen (exercise=squats count=20) — Mon..Fri *-*-* 07:00:00, volgende "), "\(walked[2].1)")
        #expect(walked[3].1 == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: error: Een herinnering vraagt om een waarde, en com.standfit.logexercise heeft hier elke waarde die het nodig heeft; laat de waarde weg waar het om moet vragen (zoals exercise), of laat --remind weg om het op die tijden uit te voeren.\n"), "\(walked[3].1)")
        #expect(walked[4].1.stderr == "standfit-host: error: 'every morning' is geen tijd die systemd leest; geef een kalenderuitdrukking zoals 'Mon..Fri 07:00', 'daily' of '*-*-* 09,13,17:00' (systemd.time(7), 'Calendar Events').\n", "\(walked[4].1)")
        #expect(walked[5].1.stderr == "standfit-host: error: Er is geen planning 7; 'standfit-host schedule list' toont ze (1).\n", "\(walked[5].1)")
        #expect(walked[6].1 == ProcessResult(status: 0, stdout: "Planning 1 verwijderd: Oefening loggen (exercise=squats count=20) (3 bestanden).\n", stderr: ""))
        #expect(walked[7].1.stderr == "standfit-host: error: Er is geen planning 1; er zijn er geen ('standfit-host schedule add' maakt er een).\n", "\(walked[7].1)")
    }

    @Test("list --explain in Dutch: each app's line, where each item comes from, until when it holds, what it replaces, what is left out and why; not an English word in it")
    func listExplained() throws {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        let manifest = sandbox.root.appendingPathComponent("manifest.json")
        try Data(#"{"UIApplicationShortcutItems": [{"UIApplicationShortcutItemType": "com.other.nothing", "UIApplicationShortcutItemTitle": "Niets"}]}"#.utf8)
            .write(to: manifest)
        #expect(sandbox.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        let explained = sandbox.run("list", "--explain", "--manifest", manifest.path)
        let words = Self.english(in: explained.stdout + explained.stderr)
        #expect(explained.status == 0 && words.isEmpty, "list --explain says English (\(words)): \(explained)")
        #expect(explained.stdout.contains("StandFit (com.standfit): een eigen menu, hoogstens 4 getoond\n"), "\(explained)")
        #expect(explained.stdout.contains("     dynamisch, van de leverancier van plug-in com.standfit, rang 1, geldig tot "), "\(explained)")
        #expect(explained.stdout.contains("-  Niets  (com.other.nothing)  weggelaten: geen plug-in behandelt com.other.nothing\n     uit het manifest \(manifest.path)\n"),
                "\(explained)")
    }

    @Test("server status in Dutch, running (warm) or not (cold, exit 1): not an English word in it")
    func serverStatus() {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        let status = sandbox.run("server", "status")
        let words = Self.english(in: status.stdout + status.stderr)
        #expect(words.isEmpty, "server status says English (\(words)): \(status)")
        if HostPath.current == .warm {
            #expect(status.status == 0 && status.stdout.hasPrefix("Server: draait (pid ") && status.stdout.contains("\nVerzoeken beantwoord: ")
                        && status.stdout.contains("\nWerkprocessen: ") && status.stdout.contains("\nLogboek: "), "\(status)")
        } else {
            #expect(status.status == 1 && status.stdout.hasPrefix("Er draait geen server van deze build (socket "), "\(status)")
        }
    }

    @Test("doctor in Dutch, its sandbox line included: not an English word in it")
    func doctor() {
        var sandbox = HostSandbox.standFit()
        sandbox.extraEnvironment["LANG"] = "nl_NL.UTF-8"
        let report = sandbox.run("doctor")
        let words = Self.english(in: report.stdout + report.stderr)
        #expect(report.status == 0 && words.isEmpty, "doctor says English (\(words)): \(report)")
        #expect(report.stdout.contains("\nZandbak voor niet-vertrouwde plug-ins: "), "\(report)")
        #expect(report.stdout.hasSuffix("Geen problemen gevonden.\n"), "\(report)")
    }
}
