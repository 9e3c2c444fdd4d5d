import Foundation
import Testing
import TestSupport

/// Logging afterwards as people say it (issue 52): "at 18:00 yesterday", "last monday", "this
/// morning", "gisteravond", and a note, through `say` and `run`.
@Suite("StandFit backfill as people say it", .timeLimit(.minutes(10)))
struct BackfillPhraseTests {
    @Test("say takes a spoken day and time and a note, in English and Dutch; run's at= reads the same words")
    func spoken() {
        let home = HostSandbox.standFit()
        #expect(home.run("say", "log 20 squats last monday")
            == ProcessResult(status: 0, stdout: "Logged 20 squats on 16 Nov at 14:05 · +20 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(home.run("say", "log 10 squats at 18:00 yesterday with note felt strong")
            == ProcessResult(status: 0, stdout: "Logged 10 squats on 21 Nov at 18:00 · +10 XP\n", stderr: ""))
        #expect(home.run("say", "--locale", "nl", "noteer 12 opdrukken gisteravond met notitie zwaar")
            == ProcessResult(status: 0, stdout: "12 push-ups gelogd (21 nov 19:00) · +18 XP\n", stderr: ""))
        #expect(home.run("run", "logexercise", "exercise=plank", "count=30", "at=this morning")
            == ProcessResult(status: 0, stdout: "Logged 30 seconds of plank at 09:00 · +8 XP\n", stderr: ""))
        #expect(home.run("run", "logexercise", "exercise=plank", "count=30", "at=this evening")
            == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: at: 'this evening' is in the future; log what was done, now or up to a year back.\n"))
        #expect(home.run("run", "history").stdout == """
            Logged in the last 7 days:
            #4  Sun 22 Nov 09:00  30 seconds of plank
            #3  Sat 21 Nov 19:00  12 push-ups — zwaar
            #2  Sat 21 Nov 18:00  10 squats — felt strong
            #1  Mon 16 Nov 14:05  20 squats

            """)
    }
}
