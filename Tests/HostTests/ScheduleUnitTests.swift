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

    @Test("a value over 4 KiB and a program systemd cannot run are refused in a sentence")
    func refusals() {
        let schedule = Schedule(id: 1, calendar: "daily", type: "t", arguments: ["note=" + String(repeating: "y", count: 5000)], title: "T", executable: "/bin/h")
        #expect(throws: HostError.self) { try schedule.check() }
        #expect(throws: HostError.self) { try UnitText.program("/opt/it's/standfit-host") }
        #expect(throws: HostError.self) { try UnitText.program("relative/standfit-host") }
        let nul = Schedule(id: 1, calendar: "daily", type: "t", arguments: ["note=a\u{0}b"], title: "T", executable: "/bin/h")
        #expect(throws: HostError.self) { try nul.check() }
        #expect(throws: HostError.self) { try UnitText.program("/opt/a\\b/standfit-host") }
        #expect((try? UnitText.program("/opt/my tools $HOME 50%/standfit-host")) == "\"/opt/my tools $HOME 50%%/standfit-host\"")
    }
}
