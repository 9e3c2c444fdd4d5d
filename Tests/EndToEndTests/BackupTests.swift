import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

/// `backup` and `restore` (issue 52): one file with everything the user keeps, taken while the
/// warm server writes, put back whole or not at all.
@Suite("Backup and restore", .timeLimit(.minutes(10)))
struct BackupTests {
    /// The sandbox's log as "id exercise count" lines, oldest first, read through `history --json`.
    static func rows(_ sandbox: HostSandbox) -> [String] {
        let listed = sandbox.run("run", "history", "days=366", "--json")
        guard listed.status == 0, let object = try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any],
              let entries = (object["data"] as? [String: Any])?["entries"] as? [[String: Any]] else { return ["(history: \(listed))"] }
        return entries.map { ($0["id"] as? Int ?? 0, "\($0["exercise"] ?? "?") \($0["count"] ?? "?")") }
            .sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }
    }

    /// What stays in the sandbox's data home: the host's trees and whatever a restore put beside them.
    static func dataHome(_ sandbox: HostSandbox) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.dataHome.path)) ?? []).sorted()
    }

    @Test("a backup restores into a fresh home exactly: the same log, settings and state; restored over a home, what it replaced is kept beside it and said")
    func roundTrip() throws {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(home.run("run", "logexercise", "exercise=plank", "count=45", "at=yesterday 09:00").status == 0)
        #expect(home.run("run", "logexercise", "exercise=pushups", "count=12", "note=after the run").status == 0)
        try FileManager.default.createDirectory(at: home.configDirectory, withIntermediateDirectories: true)
        try Data(#"{"menuLimit": 6}"#.utf8).write(to: home.configDirectory.appendingPathComponent("config.json"))
        #expect(home.run("plugins", "trust", Fixtures.standFitPlugin.path).status == 0)
        let archive = home.root.appendingPathComponent("backup.sqlar").path
        let backedUp = home.run("backup", archive)
        #expect(backedUp.status == 0 && backedUp.stderr == "", "\(backedUp)")
        // The databases' size in bytes, which SQLite's page use decides, as SIZE: the rest is known.
        #expect(backedUp.stdout.replacing(#/\(2 databases, [^)]*\)/#, with: "(2 databases, SIZE)")
            == "Backed up 7 files and directories (2 databases, SIZE) to \(archive); 'standfit-host restore \(archive)' puts them back.\n",
                "\(backedUp)")

        let fresh = HostSandbox.standFit()
        let restored = fresh.run("restore", archive)
        // Trust is not restored: an archive may come from anywhere, and a pin lets code in.
        #expect(restored == ProcessResult(status: 0, stdout: """
            Restored \(Self.files(backedUp)) files and directories (2 databases) from \(archive), backed up 2026-11-22T13:05:00Z.
            The backup's trust in 1 plugin is not restored; 'standfit-host plugins trust PATH' gives it again.

            """, stderr: ""))
        #expect(!fresh.run("plugins").stdout.contains("trusted (pinned"), "\(fresh.run("plugins"))")
        // ('plugins' says the same of the bundled plugin pinned or not: doctor names the pins.)
        #expect(fresh.run("doctor").stdout.hasSuffix("\nTrusted (pinned) plugins: none\nNo problems found.\n"))
        #expect(Self.rows(fresh) == Self.rows(home))
        #expect(Self.rows(fresh) == ["1 squats 20", "2 plank 45", "3 pushups 12"])
        #expect(fresh.run("run", "history", "days=366") == home.run("run", "history", "days=366"))
        #expect(try String(contentsOf: fresh.configDirectory.appendingPathComponent("config.json"), encoding: .utf8) == #"{"menuLimit": 6}"#)
        #expect(Self.dataHome(fresh) == ["standfit"])

        // Over a home with its own log: that log is kept beside the restored one, and said.
        #expect(fresh.run("run", "logexercise", "exercise=lunges", "count=8").status == 0)
        let over = fresh.run("restore", archive)
        let kept = fresh.dataHome.appendingPathComponent("standfit.before-restore-20261122-130500").path
        let keptConfig = fresh.root.appendingPathComponent("config/standfit.before-restore-20261122-130500").path
        #expect(over == ProcessResult(status: 0, stdout: """
            Restored \(Self.files(backedUp)) files and directories (2 databases) from \(archive), backed up 2026-11-22T13:05:00Z.
            What it replaced is kept in \(kept), \(keptConfig); remove it once you are sure.
            The backup's trust in 1 plugin is not restored; 'standfit-host plugins trust PATH' gives it again.

            """, stderr: ""))
        #expect(Self.rows(fresh) == ["1 squats 20", "2 plank 45", "3 pushups 12"])
        #expect(Self.dataHome(fresh) == ["standfit", "standfit.before-restore-20261122-130500"])
    }

    /// The file count a backup's sentence gave.
    static func files(_ backup: ProcessResult) -> String {
        backup.stdout.dropFirst("Backed up ".count).prefix { $0 != " " }.description
    }

    @Test("a backup taken during 8 concurrent warm logs restores to exactly the rows committed before it: every log that had finished is in it, and nothing but a prefix of the log")
    func duringConcurrentLogs() throws {
        var warm = HostSandbox.standFit()
        warm.path = .warm
        let home = warm
        if let failure = home.startServer() { Issue.record("the warm server did not start: \(failure)") }
        let finished = Mutex<[(count: Int, at: ContinuousClock.Instant)]>([])
        let failures = Mutex<[String]>([])
        let archive = home.root.appendingPathComponent("during.sqlar").path
        let backupStarted = Mutex<ContinuousClock.Instant?>(nil)
        let backupDone = Mutex(false)
        let done = DispatchGroup()
        for worker in 0..<9 {
            done.enter()
            // Threads of their own: Dispatch would run only as many workers as there are cores.
            Thread.detachNewThread {
                defer { done.leave() }
                if worker == 8 {
                    // The backup, once the loggers are well under way.
                    while finished.withLock({ $0.count }) < 40 { usleep(5_000) }
                    backupStarted.withLock { $0 = .now }
                    let backup = home.run("backup", archive)
                    if backup.status != 0 { failures.withLock { $0.append("backup: \(backup)") } }
                    backupDone.withLock { $0 = true }
                    return
                }
                // Logging on until the backup has returned (and 15 times at least), so that some
                // logs are always made after its snapshot, however the machine is loaded.
                for round in 0..<99 {
                    if round >= 15, backupDone.withLock({ $0 }) { break }
                    let count = worker * 100 + round + 1
                    let logged = home.run("run", "logexercise", "exercise=squats", "count=\(count)")
                    if logged.status != 0 { failures.withLock { $0.append("count=\(count): \(logged)") } }
                    finished.withLock { $0.append((count, .now)) }
                }
            }
        }
        done.wait()
        #expect(failures.withLock { $0 } == [])
        let live = Self.rows(home)
        #expect(live.count == finished.withLock { $0.count } && live.count >= 120)
        let fresh = HostSandbox.standFit()
        #expect(fresh.run("restore", archive).status == 0)
        let restored = Self.rows(fresh)
        let started = try #require(backupStarted.withLock { $0 })
        let before = Set(finished.withLock { $0 }.filter { $0.at < started }.map { "squats \($0.count)" })
        #expect(before.isSubset(of: Set(restored.map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" })),
                "a log that had finished before the backup began is missing")
        // Exactly a prefix of the log, in id order: the rows committed when its snapshot was taken.
        #expect(Array(live.prefix(restored.count)) == restored)
        #expect(restored.count >= before.count && restored.count < live.count, "\(restored.count) of \(live.count)")

        // Restored over the home whose warm server runs: the server is stopped first (it holds the
        // log open), the home has the backup's log, and the next command is served again.
        let over = home.run("restore", archive)
        #expect(over.status == 0 && over.stdout.hasPrefix("Restored ") && over.stderr == "", "\(over)")
        #expect(Self.rows(home) == restored)
    }

    @Test("a bad backup changes nothing, in one sentence and exit 5: not a backup, a newer format, a database of a newer schema, a name that leaves the tree, a damaged database",
          .needs(.sqlite3))
    func badBackups() throws {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        let good = home.root.appendingPathComponent("good.sqlar")
        #expect(home.run("backup", good.path).status == 0)
        let target = HostSandbox.standFit()
        #expect(target.run("run", "logexercise", "exercise=plank", "count=30").status == 0)
        func attempt(_ name: String, _ sql: String?) -> ProcessResult {
            let copy = home.root.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: copy)
            try? FileManager.default.copyItem(at: good, to: copy)
            if let sql {
                let edited = runProcess(ExternalTool.sqlite3.url, arguments: [copy.path, sql])
                if edited.status != 0 { return ProcessResult(status: -1, stdout: "", stderr: "sqlite3: \(edited)") }
            }
            return target.run("restore", copy.path)
        }
        func expectNothingChanged(_ sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(Self.rows(target) == ["1 plank 30"], sourceLocation: sourceLocation)
            #expect(Self.dataHome(target) == ["standfit"], sourceLocation: sourceLocation)
            // Nothing staged is left beside the settings either.
            let config = (try? FileManager.default.contentsOfDirectory(atPath: target.root.appendingPathComponent("config").path)) ?? []
            #expect(!config.contains { $0.contains("restoring") || $0.contains("before-restore") }, "\(config)", sourceLocation: sourceLocation)
        }
        let text = target.root.appendingPathComponent("notes.txt")
        try Data("not a backup\n".utf8).write(to: text)
        #expect(target.run("restore", text.path) == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: \(text.path) is not a standfit-host backup; give a file 'standfit-host backup' wrote.

            """))
        expectNothingChanged()
        // In the language of restore's --locale, as its answers are.
        #expect(target.run("restore", text.path, "--locale", "nl") == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: fout: \(text.path) is geen back-up van standfit-host; geef een bestand dat 'standfit-host backup' schreef.

            """))
        let newer = home.root.appendingPathComponent("newer.sqlar").path
        #expect(attempt("newer.sqlar", "UPDATE standfit_backup SET value = '2' WHERE key = 'format'") == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: The backup \(newer) has format 2, newer than this standfit-host reads (1); restore it with the version that made it, or update standfit-host.

            """))
        expectNothingChanged()
        let escape = home.root.appendingPathComponent("escape.sqlar").path
        #expect(attempt("escape.sqlar", "UPDATE sqlar SET name = 'data/../../escaped' WHERE name = 'data/state.sqlite'") == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: The backup \(escape) holds an entry named 'data/../../escaped', which would be written outside the host's directories; nothing was changed. Restore a backup that 'standfit-host backup' wrote.

            """))
        #expect(!FileManager.default.fileExists(atPath: target.root.appendingPathComponent("escaped").path))
        expectNothingChanged()
        let damaged = home.root.appendingPathComponent("damaged.sqlar").path
        let broken = attempt("damaged.sqlar", "UPDATE sqlar SET data = zeroblob(sz) WHERE name = 'data/data/com.standfit/standfit.sqlite'")
        #expect(broken.status == 5)
        #expect(broken.stderr == """
            standfit-host: error: The backup \(damaged) holds a damaged database data/data/com.standfit/standfit.sqlite (file is not a database); nothing was changed. Restore another backup.

            """, "\(broken)")
        expectNothingChanged()

        let nullMode = home.root.appendingPathComponent("null-mode.sqlar").path
        #expect(attempt("null-mode.sqlar", "UPDATE sqlar SET mode = NULL WHERE name = 'data/state.sqlite'") == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: The backup \(nullMode) holds 'data/state.sqlite', which is neither a file nor a directory; nothing was changed. Restore a backup that 'standfit-host backup' wrote.

            """))
        expectNothingChanged()
        let empty = home.root.appendingPathComponent("empty.sqlar").path
        #expect(attempt("empty.sqlar", "DELETE FROM sqlar") == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: The backup \(empty) holds neither the data tree nor the settings tree; nothing was changed. Restore a backup that 'standfit-host backup' wrote.

            """))
        expectNothingChanged()
        let fileRoot = home.root.appendingPathComponent("file-root.sqlar").path
        #expect(attempt("file-root.sqlar", "UPDATE sqlar SET mode = 33188 WHERE name = 'data'") == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: The backup \(fileRoot) holds 'data', which is neither a file nor a directory; nothing was changed. Restore a backup that 'standfit-host backup' wrote.

            """))
        expectNothingChanged()

        // A log of a newer StandFit: its database has a migration this one does not know.
        let future = HostSandbox.standFit()
        #expect(future.run("run", "logexercise", "exercise=squats", "count=5").status == 0)
        let log = future.dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite").path
        #expect(runProcess(ExternalTool.sqlite3.url, arguments: [log, "INSERT INTO grdb_migrations VALUES ('v99')"]).status == 0)
        let futureArchive = future.root.appendingPathComponent("future.sqlar").path
        #expect(future.run("backup", futureArchive).status == 0)
        #expect(target.run("restore", futureArchive) == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: The backup \(futureArchive) holds data/data/com.standfit/standfit.sqlite with changes this standfit-host does not know (v99); restore it with the version that made it, or update standfit-host. Nothing was changed.

            """))
        expectNothingChanged()
    }

    @Test("a backup is not written inside what it backs up, and one that fails leaves no file behind")
    func backupRefusals() throws {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        let inside = home.dataHome.appendingPathComponent("standfit/backup.sqlar").path
        #expect(home.run("backup", inside) == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: The backup \(inside) would be inside \(home.dataHome.appendingPathComponent("standfit").path), which it backs up; write it somewhere else, such as your home directory.

            """))
        let missing = home.root.appendingPathComponent("no/such/dir/backup.sqlar").path
        let failed = home.run("backup", missing)
        #expect(failed == ProcessResult(status: 5, stdout: "", stderr: """
            standfit-host: error: Cannot write \(missing) (No such file or directory); check that the directory is writable.

            """))
        #expect(!FileManager.default.fileExists(atPath: home.root.appendingPathComponent("no").path))
    }

    @Test("a plain copy of the log file alone, taken while the warm worker keeps it open, holds every log made: each change is folded into the file at once",
          .needs(.sqlite3))
    func plainCopyIsWhole() throws {
        let home = HostSandbox.standFit()
        for count in [20, 25] {
            #expect(home.run("run", "logexercise", "exercise=squats", "count=\(count)").status == 0)
        }
        // The file alone, as `cp` or a file backup takes it: no -wal, no -shm beside it.
        let log = home.dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite")
        let copy = home.root.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: log, to: copy)
        #expect(runProcess(ExternalTool.sqlite3.url, arguments: [copy.path, "SELECT group_concat(count) FROM log ORDER BY id"])
            == ProcessResult(status: 0, stdout: "20,25\n", stderr: ""))
    }
}
