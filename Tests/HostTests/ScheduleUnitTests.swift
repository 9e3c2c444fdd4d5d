import Foundation
import HostSchedules
import Testing

/// The pieces of systemd's unit syntax a schedule writes, read back as written.
@Suite("Schedule units")
struct ScheduleUnitTests {
    @Test("ExecStart words: plain as they are, others quoted; % and $ doubled so systemd expands nothing; read back the same")
    func execWords() {
        #expect(UnitText.execWord("/usr/bin/standfit-host") == "/usr/bin/standfit-host")
        #expect(UnitText.execWord("exercise=squats") == "exercise=squats")
        #expect(UnitText.execWord("note=50% more") == "\"note=50%% more\"")
        #expect(UnitText.execWord("name=$HOME") == "\"name=$$HOME\"")
        #expect(UnitText.execWord(#"say "hi" \ there"#) == #""say \"hi\" \\ there""#)
        #expect(UnitText.execWord("") == "\"\"")
        #expect(UnitText.value("50% of\nit") == "50%% of it")
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
}
