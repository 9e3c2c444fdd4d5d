import Foundation
import StandFitCore
import Testing
import TestSupport

/// StandFit's export formats and what `import` reads (issue 52), below the plugin: the rows, their
/// lines, the headers understood, the dates read, and the merge that never adds a set twice.
@Suite("StandFit's log files", .timeLimit(.minutes(10)))
struct LogFileTests {
    static let amsterdam = TimeZone(identifier: "Europe/Amsterdam")!

    func rows(_ text: String) throws(LogFile.Unreadable) -> [LogFile.Read] {
        try LogFile.decode(Data(text.utf8), format: .csv)
    }

    @Test("a CSV's rows carry the line they start on, also after a quoted field that spans lines and with CRLF line ends")
    func lines() throws {
        let read = try rows("date,exercise,count,unit,note\r\n2026-11-20,squats,5,reps,\"two\r\nlines\"\r\n\r\n2026-11-21,plank,30,seconds,\r\n")
        #expect(read.map(\.place) == [2, 5])
        #expect(read.map(\.row) == [LogFile.Row(date: "2026-11-20", exercise: "squats", count: 5, unit: "reps", note: "two\r\nlines"),
                                   LogFile.Row(date: "2026-11-21", exercise: "plank", count: 30, unit: "seconds")])
    }

    @Test("a header is read by its names, in any order and with other apps' names; without one the columns are date,exercise,count[,note]")
    func headers() throws {
        let named = try rows("\u{FEFF}Reps;Exercise;When\n".replacingOccurrences(of: ";", with: ",") + "12,lunges,2026-11-20 08:00\n")
        #expect(named.map(\.row) == [LogFile.Row(date: "2026-11-20 08:00", exercise: "lunges", count: 12)])
        #expect(named.map(\.place) == [2])
        let bare = try rows("2026-11-20,squats,5\n2026-11-20,squats,6,a note\n2026-11-20,squats\n")
        #expect(bare.map(\.row.note) == [nil, "a note", nil])
        #expect(bare.map(\.wrongFields) == [nil, nil, 2])
        #expect(bare.map(\.countText) == ["5", "6", ""])
        #expect(throws: LogFile.Unreadable.missingColumn("count")) { try rows("date,exercise,note\n2026-11-20,squats,x\n") }
        #expect(throws: LogFile.Unreadable.empty) { try rows("date,exercise,count\n\n") }
        #expect(throws: LogFile.Unreadable.notText) { try LogFile.decode(Data([0xFF, 0xFE, 0x00]), format: .csv) }
    }

    @Test("a quote where RFC 4180 has none, or one never closed, refuses the file naming its line, rather than swallow the rows after it")
    func quotes() throws {
        #expect(throws: LogFile.Unreadable.quote(line: 2)) { try rows("date,exercise,count,note\n2026-11-20,squats,5,\"oops\n2026-11-21,squats,6,\n") }
        #expect(throws: LogFile.Unreadable.quote(line: 4)) { try rows("2026-11-20,squats,5\n2026-11-20,squats,5,\"a\nb\"\n2026-11-21,squats,6,\"a\"b\n") }
        #expect(throws: LogFile.Unreadable.quote(line: 1)) { try rows("2026-11-20,squats,5,say \"hi\"\n") }
        // Doubled quotes inside a quoted field, a quoted field after spaces, and an empty quoted field are CSV.
        #expect(try rows("2026-11-20,squats,5, \"say \"\"hi\"\"\"\n2026-11-20,squats,6,\"\"\n").map(\.row.note) == ["say \"hi\"", nil])
    }

    @Test("a first line is a header only when it names two columns and holds no number; a date and a time in two columns are read as one; a column named twice is refused")
    func headerDetection() throws {
        #expect(try rows("2026-11-20,squats,20,Notes\n").map(\.row.note) == ["Notes"])
        #expect(try rows("Date,Time,Exercise,Reps\n2026-11-20,07:30,squats,20\n").map(\.row.date) == ["2026-11-20 07:30"])
        #expect(throws: LogFile.Unreadable.twiceNamed("count")) { try rows("date,exercise,reps,count\n2026-11-20,squats,20,20\n") }
        let wrong = try rows("date,exercise,count,unit,note\n2026-11-20,squats,20\n")
        #expect(wrong.map(\.wrongFields) == [3] && wrong.map(\.expectedFields) == [5])
    }

    @Test("a CSV separated by semicolons (a Dutch spreadsheet's) or tabs is read as one separated by commas; a comma inside a field is then text")
    func delimiters() throws {
        let semicolons = try rows("Datum;Oefening;Aantal;Notitie\n2026-11-20 07:30;Opdrukken;12;zwaar, maar goed\n")
        #expect(semicolons.map(\.row) == [LogFile.Row(date: "2026-11-20 07:30", exercise: "Opdrukken", count: 12, note: "zwaar, maar goed")])
        let tabs = try rows("date\texercise\tcount\n2026-11-20\tsquats\t20\n")
        #expect(tabs.map(\.row) == [LogFile.Row(date: "2026-11-20", exercise: "squats", count: 20)])
        #expect(LogFile.delimiter(of: "\"a;b;c\",x,y\n") == ",")
        #expect(throws: LogFile.Unreadable.quote(line: 2)) { try rows("date;exercise;count\n2026-11-20;squats;5\"\n") }
    }

    @Test("a note a spreadsheet would run as a formula is written with a leading ' and read back without it; NUL bytes are not text")
    func formulas() throws {
        let entries = ["=HYPERLINK(\"x\")", "+1", "-2", "@SUM(A1)", "'=kept", "plain"].map {
            LogEntry(exercise: "squats", count: 5, note: $0, loggedAt: Date(timeIntervalSince1970: 1_795_000_000))
        }
        let data = try LogFile.encode(entries, units: { _ in .reps }, format: .csv, zone: Self.amsterdam)
        #expect(String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().map { $0.split(separator: ",", maxSplits: 4).last.map(String.init) ?? "" }
            == ["\"'=HYPERLINK(\"\"x\"\")\"", "'+1", "'-2", "'@SUM(A1)", "''=kept", "plain"])
        #expect(try LogFile.decode(data, format: .csv).map(\.row.note) == entries.map(\.note))
        #expect(throws: LogFile.Unreadable.notText) { try LogFile.decode(Data("d\0a\0t\0e\0".utf8), format: .csv) }
        #expect(throws: LogFile.Unreadable.json("its version is 0, not a version StandFit writes")) {
            try LogFile.decode(Data(#"{"format":"standfit-log","version":0,"entries":[]}"#.utf8), format: .json)
        }
        #expect(throws: LogFile.Unreadable.json("the document has the wrong type")) { try LogFile.decode(Data("[]".utf8), format: .json) }
    }

    @Test("the journal keeps the last 100 changes, also after undos and new changes leave gaps in its ids")
    func journalDepth() throws {
        let store = try ExerciseStore(directory: makeTemporaryDirectory("standfit-journal"))
        let at = Date(timeIntervalSince1970: 1_795_000_000)
        for index in 0..<30 {
            _ = try store.log(LogEntry(exercise: "squats", count: 1 + index, loggedAt: at))
            _ = try store.undoLast()
            _ = try store.log(LogEntry(exercise: "squats", count: 1 + index, loggedAt: at))
        }
        for index in 0..<90 { _ = try store.log(LogEntry(exercise: "lunges", count: 1 + index, loggedAt: at)) }
        var undone = 0
        while try store.undoLast() != nil { undone += 1 }
        #expect(undone == 100)
        #expect(try store.allEntries().count == 20)
    }

    @Test("a period's interval and the one before, across New Year and the change to summer time; parts cut at the month's edges")
    func periods() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.amsterdam
        calendar.firstWeekday = 2
        let now = try #require(LogTime.absolute("2026-01-10 12:00", calendar: calendar))
        let year = try #require(PeriodProgress.intervals(.year, ago: 0, now: now, calendar: calendar))
        #expect(LogFile.time(year.current.start, in: Self.amsterdam) == "2026-01-01T00:00:00+01:00")
        #expect(LogFile.time(year.previous.start, in: Self.amsterdam) == "2025-01-01T00:00:00+01:00")
        let march = try #require(PeriodProgress.intervals(.month, ago: -2, now: now, calendar: calendar))
        #expect(LogFile.time(march.current.end, in: Self.amsterdam) == "2026-04-01T00:00:00+02:00")
        #expect(march.current.duration == 31 * 86_400 - 3_600)
        let at = try #require(LogTime.absolute("2026-03-29 10:00", calendar: calendar))
        let progress = PeriodProgress(period: .month, current: march.current, previous: march.previous,
                                      entries: [(at: at, exercise: "squats", count: 5),
                                                (at: try #require(LogTime.absolute("2026-02-28 23:30", calendar: calendar)), exercise: "squats", count: 4)],
                                      calendar: calendar, catalogue: .standard)
        // Weeks from Monday: 1 March is a Sunday, a week of one day.
        #expect(progress.parts.first.map { "\($0.start) \($0.end)" } == "2026-03-01 2026-03-01")
        #expect(progress.parts.last.map { "\($0.start) \($0.end) \($0.logs)" } == "2026-03-30 2026-03-31 0")
        #expect(progress.parts.map { $0.logs }.reduce(0, +) == 1 && progress.previousTotalLogs == 1)
        #expect(progress.exercises.map { "\($0.total) \($0.previousTotal)" } == ["5 4"])
    }

    @Test("JSON: StandFit's own document only; a missing field is named by its path")
    func json() throws {
        let document = #"{"format":"standfit-log","version":1,"entries":[{"date":"2026-11-20T10:00:00Z","exercise":"squats","count":5}]}"#
        #expect(try LogFile.decode(Data(document.utf8), format: .json).map(\.row)
            == [LogFile.Row(date: "2026-11-20T10:00:00Z", exercise: "squats", count: 5)])
        #expect(throws: LogFile.Unreadable.json("entries[1].count is missing")) {
            try LogFile.decode(Data(#"{"format":"standfit-log","version":1,"entries":[{"date":"x","exercise":"squats"}]}"#.utf8), format: .json)
        }
        #expect(throws: LogFile.Unreadable.json("its format is 'other', not 'standfit-log'")) {
            try LogFile.decode(Data(#"{"format":"other","version":1,"entries":[]}"#.utf8), format: .json)
        }
        #expect(throws: LogFile.Unreadable.json("its version is 2; this StandFit reads version 1")) {
            try LogFile.decode(Data(#"{"format":"standfit-log","version":2,"entries":[]}"#.utf8), format: .json)
        }
    }

    @Test("the dates a file may hold: an instant with its zone (seconds and fractions optional), a local date and time, a local date at noon")
    func dates() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.amsterdam
        func utc(_ text: String) -> String? {
            LogTime.absolute(text, calendar: calendar).map { LogFile.time($0, in: TimeZone(identifier: "UTC")!) }
        }
        #expect(utc("2026-11-20T10:00:00+01:00") == "2026-11-20T09:00:00Z")
        #expect(utc("2026-11-20t10:00z") == "2026-11-20T10:00:00Z")
        #expect(utc("2026-11-20T10:00:00.750Z") == "2026-11-20T10:00:00Z")
        #expect(utc("2026-11-20 10:00") == "2026-11-20T09:00:00Z")
        #expect(utc("2026-07-20T10:00:30") == "2026-07-20T08:00:30Z")
        #expect(utc("2026-11-20") == "2026-11-20T11:00:00Z")
        #expect([utc("2026-02-30"), utc("20-11-2026"), utc("2026-11-20 25:00"), utc("yesterday"), utc("")] == [nil, nil, nil, nil, nil])
        #expect(LogFile.time(Date(timeIntervalSince1970: 1_795_000_000), in: Self.amsterdam) == "2026-11-18T12:06:40+01:00")
    }

    @Test("a merge adds what the log lacks, counting equal sets: importing a file twice adds nothing the second time")
    func merge() throws {
        let store = try ExerciseStore(directory: makeTemporaryDirectory("standfit-merge"))
        let at = Date(timeIntervalSince1970: 1_795_000_000)
        let set = LogEntry(exercise: "squats", count: 5, loggedAt: at)
        _ = try store.log(set)
        let file = [set, set, LogEntry(exercise: "squats", count: 5, note: "other", loggedAt: at),
                    LogEntry(exercise: "squats", count: 5, loggedAt: at.addingTimeInterval(0.4))]
        // The log's one set matches one of the file's three (the last is the same second).
        #expect(try store.merge(file, dryRun: true).0 == ExerciseStore.Merge(added: 3, duplicates: 1))
        #expect(try store.allEntries().count == 1)
        #expect(try store.merge(file, dryRun: false).0 == ExerciseStore.Merge(added: 3, duplicates: 1))
        #expect(try store.allEntries().map(\.note) == [nil, nil, "other", nil])
        #expect(try store.merge(file, dryRun: false).0 == ExerciseStore.Merge(added: 0, duplicates: 4))
        #expect(try store.allEntries().count == 4)
    }
}
