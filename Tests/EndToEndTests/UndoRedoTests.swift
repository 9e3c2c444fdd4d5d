import Foundation
import Testing
import TestSupport

/// `undo` takes back the last change made — a log, a deletion, an edit, an import — by when it
/// was made, not when it happened; `redo` brings back what undo took until the next change
/// (issue 52).
@Suite("StandFit undo and redo", .timeLimit(.minutes(10)))
struct UndoRedoTests {
    func expectRun(_ home: HostSandbox, _ arguments: String..., says stdout: String, status: Int32 = 0,
                   sourceLocation: SourceLocation = #_sourceLocation) {
        // A refusal (nothing to undo or redo, exit 1) is said on stderr.
        let expected = status == 0 ? ProcessResult(status: 0, stdout: stdout, stderr: "")
            : ProcessResult(status: status, stdout: "", stderr: "standfit-host: " + stdout)
        #expect(home.run(["run"] + arguments) == expected, sourceLocation: sourceLocation)
    }

    @Test("undo walks back through an edit, a deletion and a backfill, each said as what it did; redo brings the last back; a new change ends redo")
    func changes() {
        let home = HostSandbox.standFit()
        expectRun(home, "logexercise", "exercise=squats", "count=20", says: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\n")
        expectRun(home, "logexercise", "exercise=plank", "count=45", "at=yesterday 09:00", says: "Logged 45 seconds of plank on 21 Nov at 09:00 · +11 XP\n")
        expectRun(home, "deletelog", "id=1", says: "Removed 20 squats logged at 14:05 · −22 XP\n")
        expectRun(home, "editlog", "id=2", "count=60", "note=longer", says: "Changed #2 to 60 seconds of plank, logged on 21 Nov at 09:00 · +3 XP — longer\n")

        expectRun(home, "undo", says: "Changed #2 back to 45 seconds of plank, logged on 21 Nov at 09:00 · −3 XP\n")
        expectRun(home, "undo", says: "Restored 20 squats logged at 14:05 · +22 XP\n")
        #expect(home.run("run", "history").stdout == """
            Logged in the last 7 days:
            #1  Sun 22 Nov 14:05  20 squats
            #2  Sat 21 Nov 09:00  45 seconds of plank

            """)
        expectRun(home, "undo", says: "Removed 45 seconds of plank logged on 21 Nov at 09:00 · −11 XP\n")
        expectRun(home, "redo", says: "Logged 45 seconds of plank on 21 Nov at 09:00 again · +11 XP\n")
        expectRun(home, "redo", says: "Removed 20 squats logged at 14:05 again · −22 XP\n")
        // A new change: what was undone before it stays undone.
        expectRun(home, "logexercise", "exercise=lunges", "count=8", says: "Logged 8 lunges · +12 XP\n")
        expectRun(home, "redo", says: "Nothing to redo: only what undo took back, until the next change.\n", status: 1)
        #expect(home.run("run", "history").stdout == """
            Logged in the last 7 days:
            #3  Sun 22 Nov 14:05  8 lunges
            #2  Sat 21 Nov 09:00  45 seconds of plank

            """)
        expectRun(home, "undo", says: "Removed 8 lunges logged at 14:05 · −12 XP\n")
        // Past the new change, undo goes on through what came before it.
        expectRun(home, "undo", says: "Restored 20 squats logged at 14:05 · +22 XP\n")
        expectRun(home, "undo", says: "Removed 45 seconds of plank logged on 21 Nov at 09:00 · −11 XP\n")
        expectRun(home, "undo", says: "Removed 20 squats logged at 14:05 · −20 XP\nAchievement taken back: First log\n")
        expectRun(home, "undo", says: "Nothing to undo: the changes kept are undone already; 'standfit-host run redo' brings the last one back.\n", status: 1)
        expectRun(home, "redo", "--locale", "nl", says: "Opnieuw 20 squats gelogd (14:05) · +20 XP\nPrestatie behaald: Eerste log\n")
    }

    @Test("an import is one change: undo removes every entry it added, redo brings them back, with their XP")
    func importIsOneChange() throws {
        let home = HostSandbox.standFit()
        let file = home.root.appendingPathComponent("year.csv")
        try Data("2026-11-20,squats,20\n2026-11-21,squats,25\n2026-11-21 18:00,pushups,10\n".utf8).write(to: file)
        expectRun(home, "logexercise", "exercise=squats", "count=5", says: "Logged 5 squats · +5 XP\nAchievement unlocked: First log\n")
        let imported = home.run("run", "import", "file=\(file.path)")
        #expect(imported.status == 0 && imported.stdout.hasPrefix("Imported 3 entries from \(file.path) · +"), "\(imported)")
        let history = home.run("run", "history")
        // The XP it brought, and the streak it made, go with it.
        expectRun(home, "undo", says: "Removed the 3 entries imported from \(file.path) · −66 XP\nAchievement taken back: 3-day streak\n")
        #expect(imported.stdout.hasPrefix("Imported 3 entries from \(file.path) · +66 XP\n"), "\(imported)")
        #expect(home.run("run", "history").stdout == "Logged in the last 7 days:\n#1  Sun 22 Nov 14:05  5 squats\n")
        let redone = home.run("run", "redo")
        #expect(redone.status == 0 && redone.stdout.hasPrefix("Imported 3 entries from \(file.path) again · +"), "\(redone)")
        #expect(home.run("run", "history") == history)
        let json = home.run("run", "undo", "--json")
        let data = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["data"] as? [String: Any])
        #expect(data["file"] as? String == file.path && data["entries"] as? Int == 3, "\(json)")
    }

    static let pickHead = "id: give the number after a log's # to say which; the newest are below, and 'standfit-host run history' shows the rest."
    static let pickList = """
          #3  Sun 22 Nov 14:05  12 push-ups — after the run
          #1  Sun 22 Nov 14:05  20 squats
          #2  Sat 21 Nov 09:00  45 seconds of plank
        """

    /// A home with three logs, the newest made last but logged for yesterday.
    static func threeLogs() -> HostSandbox {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(home.run("run", "logexercise", "exercise=plank", "count=45", "at=yesterday 09:00").status == 0)
        #expect(home.run("run", "logexercise", "exercise=pushups", "count=12", "note=after the run").status == 0)
        return home
    }

    @Test("deletelog and editlog without an id, or with one no log has, list the newest logs and say how to name one (exit 3 where nothing can be asked); an empty log has nothing to correct; an editlog without a change says so first")
    func pickListed() {
        let empty = HostSandbox.standFit()
        #expect(empty.run("run", "deletelog") == ProcessResult(status: 1, stdout: "", stderr: "standfit-host: The log is empty: there is nothing to correct.\n"))
        let home = Self.threeLogs()
        #expect(home.run("run", "deletelog") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: \(Self.pickHead)
            \(Self.pickList)

            """))
        #expect(home.run("run", "editlog", "id=9", "count=3") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: id: no log has id 9; give the number after a log's #: the newest are below, and 'standfit-host run history' shows the rest.
            \(Self.pickList)

            """))
        #expect(home.run("run", "editlog") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: Nothing to change: give count=NUMBER, note=TEXT or at=TIME (an empty note removes it), and the log's id=.

            """))
    }

    @Test("on a terminal, deletelog and editlog without an id list the newest logs and ask which; the id typed runs the correction, with the values given, a deletion once confirmed; Enter at the question ends it", .needs(.tmux))
    func pickALog() throws {
        let home = Self.threeLogs()
        try home.checkingHandBacks("run deletelog, editlog count=50 (on a terminal)") {
            let tmux = try TmuxSession(command: home.shellCommand(["run", "deletelog"]))
            var said = Self.pickHead + "\n" + Self.pickList + "\nWhich log (its #)?\n> "
            #expect(tmux.wait(for: IntentsTests.terminal(said)) == IntentsTests.terminal(said))
            tmux.send("2", "Enter")
            said += "2\nDelete a Log (id=2): go ahead? (yes or no) [no]\n> "
            #expect(tmux.wait(for: IntentsTests.terminal(said)) == IntentsTests.terminal(said))
            tmux.send("yes", "Enter")
            said += "yes\nRemoved 45 seconds of plank logged on 21 Nov at 09:00 · −11 XP\nEXIT=0\n"
            #expect(tmux.wait(for: IntentsTests.terminal(said)) == IntentsTests.terminal(said))
            let list = """
                  #3  Sun 22 Nov 14:05  12 push-ups — after the run
                  #1  Sun 22 Nov 14:05  20 squats
                """
            let edit = try TmuxSession(command: home.shellCommand(["run", "editlog", "count=50"]))
            var asked = Self.pickHead + "\n" + list + "\nWhich log (its #)?\n> "
            #expect(edit.wait(for: IntentsTests.terminal(asked)) == IntentsTests.terminal(asked))
            edit.send("Enter")
            asked += "\nstandfit-host: " + Self.pickHead + "\n" + list + "\nEXIT=3\n"
            #expect(edit.wait(for: IntentsTests.terminal(asked)) == IntentsTests.terminal(asked))
            let again = try TmuxSession(command: home.shellCommand(["run", "editlog", "count=50"]))
            var typed = Self.pickHead + "\n" + list + "\nWhich log (its #)?\n> "
            #expect(again.wait(for: IntentsTests.terminal(typed)) == IntentsTests.terminal(typed))
            again.send("1", "Enter")
            typed += "1\nChanged #1 to 50 squats, logged at 14:05 · +30 XP\nEXIT=0\n"
            #expect(again.wait(for: IntentsTests.terminal(typed)) == IntentsTests.terminal(typed))
        }
        expectRun(home, "undo", says: "Changed #1 back to 20 squats, logged at 14:05 · −30 XP\n")
        expectRun(home, "undo", says: "Restored 45 seconds of plank logged on 21 Nov at 09:00 · +11 XP\n")
    }

    @Test("on a terminal, deleting a log given by id is confirmed first: anything but yes (no, Enter) deletes nothing and says so (exit 1), in Dutch too; --no-input and a script delete as asked", .needs(.tmux))
    func confirmDeletion() throws {
        let home = Self.threeLogs()
        try home.checkingHandBacks("run deletelog id=3 (on a terminal)") {
            for (answer, typed, words) in [("no", "no", [String]()), ("Enter", "", []), ("nee", "nee", ["--locale", "nl"])] {
                let tmux = try TmuxSession(command: home.shellCommand(["run", "deletelog", "id=3"] + words))
                var said = words.isEmpty ? "Delete a Log (id=3): go ahead? (yes or no) [no]\n> " : "Log verwijderen (id=3): doorgaan? (ja of nee) [nee]\n> "
                #expect(tmux.wait(for: IntentsTests.terminal(said)) == IntentsTests.terminal(said))
                if answer == "Enter" { tmux.send("Enter") } else { tmux.send(answer, "Enter") }
                said += typed + "\nstandfit-host: " + (words.isEmpty
                    ? "Not run: Delete a Log was not confirmed (answer yes to run it, or run it with --no-input).\nEXIT=1\n"
                    : "Niet uitgevoerd: Log verwijderen is niet bevestigd (antwoord ja om het uit te voeren, of voer het uit met --no-input).\nEXIT=1\n")
                #expect(tmux.wait(for: IntentsTests.terminal(said)) == IntentsTests.terminal(said))
            }
            let quiet = try TmuxSession(command: home.shellCommand(["run", "deletelog", "id=3", "--no-input"]))
            let said = "Removed 12 push-ups logged at 14:05 · −18 XP\nEXIT=0\n"
            #expect(quiet.wait(for: IntentsTests.terminal(said)) == IntentsTests.terminal(said))
        }
        expectRun(home, "deletelog", "id=1", says: "Removed 20 squats logged at 14:05 · −22 XP\n")
    }
}
