import Foundation
import Glibc
import Testing
import TestSupport

/// StandFit's `export` and `import` (issue 52), through the built host and plugin: the whole log
/// out as CSV or JSON and back in, byte for byte; a file with bad rows writes nothing and names
/// each line; duplicates are left out; every refusal names the file or parameter and the way out.
@Suite("StandFit export and import", .timeLimit(.minutes(10)))
struct ExportImportTests {
    /// A home with three logs: a backfill, a plain log and one with a note that needs quoting.
    static func loggedHome() -> HostSandbox {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(home.run("run", "logexercise", "exercise=plank", "count=45", "at=yesterday 09:00").status == 0)
        #expect(home.run("run", "logexercise", "exercise=pushups", "count=12", "note=after the run, \"easy\"\nreally").status == 0)
        return home
    }

    static let csv = """
        date,exercise,count,unit,note
        2026-11-21T09:00:00+01:00,plank,45,seconds,
        2026-11-22T14:05:00+01:00,squats,20,reps,
        2026-11-22T14:05:00+01:00,pushups,12,reps,"after the run, ""easy""
        really"

        """

    static let json = """
        {
          "entries" : [
            {
              "count" : 45,
              "date" : "2026-11-21T09:00:00+01:00",
              "exercise" : "plank",
              "unit" : "seconds"
            },
            {
              "count" : 20,
              "date" : "2026-11-22T14:05:00+01:00",
              "exercise" : "squats",
              "unit" : "reps"
            },
            {
              "count" : 12,
              "date" : "2026-11-22T14:05:00+01:00",
              "exercise" : "pushups",
              "note" : "after the run, \\"easy\\"\\nreally",
              "unit" : "reps"
            }
          ],
          "format" : "standfit-log",
          "version" : 1
        }

        """

    /// `history`'s lines without their ids.
    static func withoutIDs(_ history: ProcessResult) -> ProcessResult {
        ProcessResult(status: history.status, stdout: history.stdout.replacing(#/(?m)^#[0-9]+  /#, with: ""), stderr: history.stderr)
    }

    @Test("export writes every entry as CSV and JSON; imported into an empty log, each exports to the same bytes, with the same XP and achievements; imported again, nothing is added")
    func roundTrip() throws {
        let home = Self.loggedHome()
        let csv = home.root.appendingPathComponent("log.csv").path
        let json = home.root.appendingPathComponent("log.json").path
        #expect(home.run("run", "export", "file=\(csv)") == ProcessResult(status: 0, stdout: "Exported 3 entries to \(csv).\n", stderr: ""))
        #expect(home.run("run", "export", "file=\(json)") == ProcessResult(status: 0, stdout: "Exported 3 entries to \(json).\n", stderr: ""))
        #expect(try String(contentsOfFile: csv, encoding: .utf8) == Self.csv)
        #expect(try String(contentsOfFile: json, encoding: .utf8) == Self.json)

        for (file, format) in [(csv, "csv"), (json, "json")] {
            let fresh = HostSandbox.standFit()
            let imported = fresh.run("run", "import", "file=\(file)")
            #expect(imported == ProcessResult(status: 0, stdout: """
                Imported 3 entries from \(file) · +49 XP
                Achievement unlocked: First log

                """, stderr: ""), "\(format)")
            let again = fresh.root.appendingPathComponent("again.\(format)").path
            #expect(fresh.run("run", "export", "file=\(again)").status == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: file)), "\(format)")
            #expect(fresh.run("run", "achievements") == home.run("run", "achievements"), "\(format)")
            // The same entries; their ids are the new log's own, given in the order they happened.
            #expect(Self.withoutIDs(fresh.run("run", "history")) == Self.withoutIDs(home.run("run", "history")), "\(format)")
            #expect(fresh.run("run", "history").stdout.hasPrefix("Logged in the last 7 days:\n#3 "), "\(format)")
            #expect(fresh.run("run", "import", "file=\(file)")
                == ProcessResult(status: 0, stdout: "Nothing to import: every entry of \(file) is in the log already.\n", stderr: ""), "\(format)")
            #expect(Self.withoutIDs(fresh.run("run", "history")) == Self.withoutIDs(home.run("run", "history")), "\(format)")
        }

        // A dry run says what would come in and writes nothing.
        let partly = HostSandbox.standFit()
        #expect(partly.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        let before = partly.run("run", "history")
        #expect(partly.run("run", "import", "file=\(csv)", "dryrun=true") == ProcessResult(status: 0, stdout: """
            Dry run: 2 entries of \(csv) would be imported and 1 already in the log left out; nothing was written.

            """, stderr: ""))
        #expect(partly.run("run", "history") == before)
        #expect(partly.run("run", "import", "file=\(csv)") == ProcessResult(status: 0, stdout: """
            Imported 2 entries from \(csv), leaving out 1 already in the log · +29 XP

            """, stderr: ""))
    }

    /// Another app's file: no header, `date,exercise,count[,note]`, four rows bad.
    static let generic = """
        2026-11-20,squats,20
        2026-11-20 07:30,Push-Ups,abc
        2026-11-20,rowing,10,on the machine
        2026-12-01,squats,5
        "2026-11-21T10:00:00Z",opdrukken,12,"two
        lines"
        yesterday,squats,3
        2026-11-21,squats
        2026-11-21T18:00+01:00,plank,60,"held, shaking"

        """

    static let genericProblems = """
          line 2: the count 'abc' is not a number from 1 to 3600
          line 3: no exercise is called 'rowing'
          line 4: 2026-12-01 is in the future
          line 7: 'yesterday' is not a date StandFit reads (2026-11-21T18:00:00+01:00, 2026-11-21 18:00 or 2026-11-21)
          line 8: 2 fields, where the columns are date, exercise, count and an optional note
        """

    @Test("a CSV with bad rows writes nothing and names each line; skipbad=true imports the rest and lists what it left out; --json says the same as one document")
    func badRows() throws {
        let home = HostSandbox.standFit()
        let file = home.root.appendingPathComponent("other-app.csv")
        try Data(Self.generic.utf8).write(to: file)
        let refused = home.run("run", "import", "file=\(file.path)")
        #expect(refused == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: file: 5 rows of \(file.path) cannot be imported, so nothing was; mend them, or import the rest with skipbad=true:
            \(Self.genericProblems)

            """))
        #expect(home.run("run", "history", "days=366") == ProcessResult(status: 0, stdout: "Nothing logged in the last 366 days.\n", stderr: ""))

        let json = home.run("run", "import", "file=\(file.path)", "--json")
        #expect(json.status == 3 && json.stderr == "", "\(json)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["status"] as? String == "invalid-input")
        #expect(document["parameter"] as? String == "file")
        #expect(document["message"] as? String == refused.stderr.dropFirst("standfit-host: ".count).dropLast().description)

        let skipped = home.run("run", "import", "file=\(file.path)", "skipbad=true")
        #expect(skipped == ProcessResult(status: 0, stdout: """
            Imported 3 entries from \(file.path) · +52 XP
            Achievement unlocked: First log
            Left out 5 rows, as skipbad=true asks:
            \(Self.genericProblems)

            """, stderr: ""))
        #expect(home.run("run", "history", "days=366").stdout == """
            Logged in the last 366 days:
            #3  Sat 21 Nov 18:00  60 seconds of plank — held, shaking
            #2  Sat 21 Nov 11:00  12 push-ups — two ↵ lines
            #1  Fri 20 Nov 12:00  20 squats

            """)
    }

    @Test("what import and export refuse, each naming the file or parameter and the way out, exit 3, nothing written: no file, a directory, an unknown format, the log itself, not a StandFit JSON, no entries, a header without a count; in Dutch too")
    func refusals() throws {
        let home = Self.loggedHome()
        let root = home.root.path
        let log = home.dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite").path
        try Data("date,exercise,note\n2026-11-20,squats,x\n".utf8).write(to: home.root.appendingPathComponent("nocount.csv"))
        try Data("\n\n".utf8).write(to: home.root.appendingPathComponent("empty.csv"))
        try Data(#"{"format":"standfit-log","version":1,"entries":[{"date":"2026-11-20","exercise":"squats"}]}"#.utf8)
            .write(to: home.root.appendingPathComponent("partial.json"))
        let cases: [([String], String)] = [
            (["import", "file=\(root)/missing.csv"], "file: cannot read \(root)/missing.csv (No such file or directory); give the path of a CSV or JSON file."),
            (["import", "file=\(root)"], "file: \(root) is a directory; give a file's name, such as \(root)/standfit.csv."),
            (["export", "file=\(root)"], "file: \(root) is a directory; give a file's name, such as \(root)/standfit.csv."),
            (["export", "file=\(root)/log.xml", "format=xml"], "format: no value is called 'xml'; choose one of csv, json."),
            (["export", "file=\(log)"], "file: \(log) is in StandFit's own data directory; export to a file elsewhere."),
            (["export", "file=\(root)/no/such/dir/log.csv"], "file: cannot write \(root)/no/such/dir/log.csv (No such file or directory); choose a file in a directory you can write to."),
            (["import", "file=\(root)/partial.json"], "file: \(root)/partial.json is not a StandFit JSON export (entries[1].count is missing); export one with 'standfit-host run export file=log.json', or import a CSV."),
            (["import", "file=\(root)/empty.csv"], "file: \(root)/empty.csv holds no entries; nothing was imported."),
            (["import", "file=\(root)/nocount.csv"], "file: the first line of \(root)/nocount.csv names no count column; name the columns date, exercise, count (and unit, note), or leave the names out and give date,exercise,count[,note]."),
        ]
        // A pipe is never read (the import would wait for its writer), nor replaced; a file
        // over the cap is refused by its size, unread; an open quote names its line.
        #expect(mkfifo("\(root)/pipe.csv", 0o600) == 0)
        #expect(FileManager.default.createFile(atPath: "\(root)/huge.csv", contents: nil))
        let sparse = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(root)/huge.csv"))
        try sparse.truncate(atOffset: 64 << 20 + 1)
        try sparse.close()
        try Data("date,exercise,count,note\n2026-11-20,squats,5,\"oops\n2026-11-21,squats,6,\n".utf8)
            .write(to: home.root.appendingPathComponent("quote.csv"))
        let dataDirectory = home.dataHome.appendingPathComponent("standfit/data/com.standfit").path
        let cases2: [([String], String)] = [
            (["import", "file=\(root)/pipe.csv"], "file: \(root)/pipe.csv is not a regular file; give the path of a file."),
            (["export", "file=\(root)/pipe.csv"], "file: \(root)/pipe.csv is not a regular file; give the path of a file."),
            (["import", "file=\(root)/huge.csv"], "file: \(root)/huge.csv has 67108865 bytes, more than the 67108864 an import reads; split it and import the parts."),
            (["import", "file=\(root)/quote.csv"], "file: line 2 of \(root)/quote.csv has a quote where CSV has none, or one never closed; quote a whole field (a quote inside it written twice) and import it again."),
            (["export", "file=\(dataDirectory)/standfit.sqlite-wal"], "file: \(dataDirectory)/standfit.sqlite-wal is in StandFit's own data directory; export to a file elsewhere."),
            (["export", "file=\(dataDirectory)/../com.standfit/other.csv"], "file: \(dataDirectory)/../com.standfit/other.csv is in StandFit's own data directory; export to a file elsewhere."),
        ]
        let before = home.run("run", "history")
        for (arguments, sentence) in cases + cases2 {
            #expect(home.run(["run"] + arguments) == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: \(sentence)\n"))
        }
        #expect(home.run("run", "history") == before)
        #expect(!FileManager.default.fileExists(atPath: "\(root)/log.xml"))
        #expect(home.run("run", "--locale", "nl", "import", "file=\(root)/missing.csv") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: file: kan \(root)/missing.csv niet lezen (No such file or directory); geef het pad van een CSV- of JSON-bestand.

            """))
    }

    @Test("a relative file is the command's own directory, cold and warm; the export replaces a file whole")
    func relativePath() throws {
        let home = Self.loggedHome()
        let directory = home.root.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("an older export\n".utf8).write(to: directory.appendingPathComponent("mine.csv"))
        if let failure = home.serveWarmPath() { Issue.record("\(failure)") }
        let exported = home.checkingHandBacks("run export file=mine.csv (in \(directory.path))") {
            runProcess(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "cd \"$1\" && exec \"$2\" run export file=mine.csv", "sh",
                                                                    directory.path, Fixtures.hostBinary.path],
                       environment: home.environment)
        }
        #expect(exported == ProcessResult(status: 0, stdout: "Exported 3 entries to mine.csv.\n", stderr: ""))
        #expect(try String(contentsOf: directory.appendingPathComponent("mine.csv"), encoding: .utf8) == Self.csv)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["mine.csv"])

        // Through a symbolic link: the file it names gets the export, and the link stays.
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.csv").path, withDestinationPath: "mine.csv")
        try Data().write(to: directory.appendingPathComponent("mine.csv"))
        #expect(home.run("run", "export", "file=\(directory.path)/link.csv").status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.appendingPathComponent("link.csv").path) == "mine.csv")
        #expect(try String(contentsOf: directory.appendingPathComponent("mine.csv"), encoding: .utf8) == Self.csv)
    }
}
