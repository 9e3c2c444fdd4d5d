import Foundation
import HostModel
@testable import HostSchedules
import Testing

/// The pieces of systemd's unit syntax a schedule writes, read back as written.
@Suite("Schedule units", .timeLimit(.minutes(10)))
struct ScheduleUnitTests {
    @Test("ExecStart words: plain as they are, others quoted; % and $ doubled so systemd expands nothing; read back the same")
    func execWords() {
        #expect(UnitText.execWord("/usr/bin/standfit-host") == "/usr/bin/standfit-host")
        #expect(UnitText.execWord("exercise=squats") == "exercise=squats")
        #expect(UnitText.execWord("note=50% more") == "\"note=50%% more\"")
        #expect(UnitText.execWord("name=$HOME") == "\"name=$$HOME\"")
        #expect(UnitText.execWord(#"say "hi" \ there"#) == #""say \"hi\" \\ there""#)
        #expect(UnitText.execWord("") == "\"\"")
        #expect(UnitText.value("50% of\nit") == "50%% of\\x0ait")
        #expect(UnitText.value(" a\r[Service]\\") == "\\x20a\\x0d[Service]\\x5c")
        #expect(UnitText.execWord("a\r[Service]\u{85}") == #""a\x0d[Service]\u0085""#)
    }

    @Test("a schedule's units read back as the schedule, whatever its values and title hold")
    func roundTrip() {
        let schedule = Schedule(id: 3, calendar: "Mon..Fri *-*-* 07:00:00", type: "com.example.note",
                                arguments: ["text=50% of $HOME \"quoted\"", "count=2"], title: "Note — 100%",
                                executable: "/opt/my tools/standfit-host")
        #expect(Schedule.parse(id: 3, timer: schedule.timerText, service: schedule.serviceText) == schedule)
        #expect(schedule.serviceText.contains(#"ExecStart="/opt/my tools/standfit-host" run --notify --scheduled -- com.example.note "text=50%% of $$HOME \"quoted\"" count=2"#))
        #expect(Schedule.parse(id: 3, timer: "[Timer]\n", service: schedule.serviceText) == nil)
    }

    @Test("every control character, %, $, quotes, backslashes, a 1 MB title and a replaced non-UTF-8 byte: one line each, read back exactly")
    func everyCharacter() throws {
        let every = String(String.UnicodeScalarView((1..<0xA0).compactMap(Unicode.Scalar.init) + ["\u{2028}", "\u{2029}", "\u{FFFD}", "é", "\u{1F600}"]))
        let schedule = Schedule(id: 1, calendar: "daily", type: "com.example.\(every)", arguments: ["text=\(every)", every, "\\", " x "],
                                title: every, executable: "/opt/my tools $HOME 50%/standfit-host")
        try schedule.check()
        let service = schedule.serviceText
        #expect(service.split(separator: "\n").count == 12)
        #expect(service.unicodeScalars.allSatisfy { $0 == "\n" || !UnitText.isControl($0) })
        #expect(Schedule.parse(id: 1, timer: schedule.timerText, service: service) == schedule)
        let exec = try #require(service.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        #expect(UnitText.execWords(String(exec.dropFirst("ExecStart=".count))) == schedule.command)
        let long = Schedule(id: 2, calendar: "daily", type: "t", arguments: [], title: String(repeating: "x", count: 1_100_000), executable: "/bin/h")
        #expect(long.title == String(repeating: "x", count: 119) + "…")
    }

    @Test("a value over 4 KiB, a NUL and a program systemd cannot run are refused in a sentence, in English and in Dutch")
    func refusals() {
        func sentences(_ body: () throws -> Void) -> [String] {
            do { try body(); return [] } catch let error as HostError { return [error.message(in: "en"), error.message(in: "nl")] } catch { return ["\(error)"] }
        }
        let schedule = Schedule(id: 1, calendar: "daily", type: "t", arguments: ["note=" + String(repeating: "y", count: 5000)], title: "T", executable: "/bin/h")
        let y35 = String(repeating: "y", count: 35)
        #expect(sentences { try schedule.check() } == [
            "The value 'note=\(y35)…' is 5005 bytes; a schedule keeps at most 4096, so give a shorter one (or keep the long text in a file the action reads).",
            "De waarde 'note=\(y35)…' is 5005 bytes; een planning bewaart hoogstens 4096, dus geef een kortere (of zet de lange tekst in een bestand dat de actie leest).",
        ])
        let longType = Schedule(id: 1, calendar: "daily", type: String(repeating: "t", count: 4097), arguments: [], title: "T", executable: "/bin/h")
        #expect(sentences { try longType.check() }.first == "The type is 4097 bytes; a schedule keeps at most 4096, so give a shorter one (or keep the long text in a file the action reads).")
        #expect(sentences { _ = try UnitText.program("/opt/it's/standfit-host") } == [
            "The host's program /opt/it's/standfit-host holds \\x27, which systemd cannot run from a timer; install standfit-host under a path without quotes, backslashes or control characters (Scripts/install --prefix DIR).",
            "Het programma van de host /opt/it's/standfit-host bevat \\x27, en systemd kan het dan niet vanuit een timer starten; installeer standfit-host onder een pad zonder aanhalingstekens, backslashes of stuurtekens (Scripts/install --prefix MAP).",
        ])
        #expect(sentences { _ = try UnitText.program("relative/standfit-host") }.first
            == "The host's program relative/standfit-host is not an absolute path, which systemd cannot run from a timer; install standfit-host under a path without quotes, backslashes or control characters (Scripts/install --prefix DIR).")
        let nul = Schedule(id: 1, calendar: "daily", type: "t", arguments: ["note=a\u{0}b"], title: "T", executable: "/bin/h")
        #expect(sentences { try nul.check() } == [
            "The value 'note=a\\x00b' holds a NUL character, which a systemd timer cannot pass on; give it without one.",
            "De waarde 'note=a\\x00b' bevat een NUL-teken, dat een systemd-timer niet kan doorgeven; geef haar zonder.",
        ])
        #expect(throws: HostError.self) { try UnitText.program("/opt/a\\b/standfit-host") }
        #expect((try? UnitText.program("/opt/my tools $HOME 50%/standfit-host")) == "\"/opt/my tools $HOME 50%%/standfit-host\"")
    }
}
