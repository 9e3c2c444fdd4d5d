import Foundation
import Testing
import TestSupport

/// Questions persist until answered (issue 51): a question never expires, is kept where the
/// server keeps notifications, asks again when clicked, and a question closed unanswered runs
/// nothing and says so.
extension DesktopBusTests {
    /// Each Notify's timeout, resident hint and action keys, in order.
    static func sent(_ record: URL) -> [String] {
        SessionBus.notifications(in: record).filter { $0["closed"] == nil }.map { note in
            let keys = (note["actions"] as? [[String]] ?? []).map { $0[0] }.joined(separator: ",")
            return "\(note["timeout"] ?? "?") \((note["resident"] as? Bool) == true ? "resident" : "-") [\(keys)]"
        }
    }

    @Test("a question (a prompt's values) never expires (timeout 0), is resident where the server advertises persistence and not elsewhere, and has a default action; an outcome keeps the server's timeout",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI, .sqlite3),
          arguments: [true, false])
    func questionsPersist(persistence: Bool) throws {
        let capabilities = ["actions", "body"] + (persistence ? ["persistence"] : [])
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(press: "Squats", capabilities: capabilities)
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <20>}"]).status == 0)
        #expect(eventually { Self.shown(record).count == 2 })
        // Where the server keeps notifications, resident with a default action (a click asks
        // again); elsewhere a click keeps the server's own meaning.
        #expect(Self.sent(record) == [persistence ? "0 resident [1,2,3,default]" : "0 - [1,2,3]", "-1 - []"])
        #expect(Self.shown(record).last == "Log Exercise | Logged 20 squats · +20 XP\nAchievement unlocked: First log | org.standfit.Host.log | 1 | org.standfit.Host | ")
        #expect(Self.logged(sandbox) == "squats|20\n")
    }

    @Test("where the server's list shows no buttons and takes no typed answer (GNOME's: persistence, no inline reply), a click on a question puts each choice there as a notification of its own; a click on Push-Ups logs 20 push-ups and takes the other choices away, with no 'Not run'",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI, .sqlite3))
    func choicesInTheList() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(press: "(bubble)", capabilities: ["actions", "body", "persistence"],
                                                                       choose: "Push-Ups")
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <20>}"]).status == 0)
        #expect(eventually { Self.logged(sandbox) == "pushups|20\n" }, "\(Self.serverLog(sandbox))")
        let choice = { (label: String) in "Log Exercise | \(label) | org.standfit.Host.log | 1 | org.standfit.Host | " }
        #expect(eventually { Self.shown(record).count == 5 }, "\(Self.shown(record))")
        #expect(Self.shown(record) == [
            "Log Exercise | Which exercise? | org.standfit.Host.log | 1 | org.standfit.Host | 1=Squats,2=Push-Ups,3=Plank",
            // Sent last first, so that GNOME's list, newest on top, reads in the question's order.
            choice("Plank"), choice("Push-Ups"), choice("Squats"),
            "Log Exercise | Logged 20 push-ups · +30 XP\nAchievement unlocked: First log | org.standfit.Host.log | 1 | org.standfit.Host | ",
        ])
        // The question and every choice are taken away: the clicked question, the chosen one and the two others.
        let closed = Set(SessionBus.notifications(in: record).compactMap { $0["closed"] as? Int })
        #expect(closed == [1, 2, 3, 4], "\(closed)")
        #expect(!Self.serverLog(sandbox).contains("closed unanswered"))
        #expect(Self.serverLogLines(sandbox).contains("standfit-host: info: Asked again as 3 choices: Squats | Push-Ups | Plank"), "\(Self.serverLog(sandbox))")
    }

    @Test("a click on a question that the server then closes (as dunst closes what was clicked) asks it again and is no dismissal: the question shown again keeps its buttons, and no 'Not run' is said",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI, .sqlite3))
    func clickThenClose() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(press: "(bubble-close)", capabilities: ["actions", "body", "persistence", "inline-reply"])
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <20>}"]).status == 0)
        #expect(eventually { Self.shown(record).count == 2 })
        #expect(eventually(20) { Self.serverLogLines(sandbox).contains("standfit-host: info: Notification 1: clicked; asked again") })
        Thread.sleep(forTimeInterval: 1)
        let question = "Log Exercise | Which exercise? | org.standfit.Host.log | 1 | org.standfit.Host | 1=Squats,2=Push-Ups,3=Plank,inline-reply=Reply"
        #expect(Self.shown(record) == [question, question])
        #expect(!Self.serverLog(sandbox).contains("closed unanswered"))
        #expect(Self.logged(sandbox) == "")
    }

    @Test("a question dismissed without an answer runs nothing and says so in one line ('Not run: no answer.'), in the session's language",
          .needs(.dbusDaemon, .gapplication, .python3, .pythonGI, .sqlite3))
    func dismissedQuestion() throws {
        let (sandbox, bus, record) = try Self.sandboxWithNotifications(dismiss: true)
        defer { bus.stop() }
        #expect(sandbox.run("export", "desktop", "--install").status == 0)
        #expect(bus.run(.gapplication, ["action", Self.applicationID, "logexercise", "{'count': <20>}"]).status == 0)
        #expect(eventually { Self.shown(record).count == 2 })
        #expect(Self.shown(record) == [
            "Log Exercise | Which exercise? | org.standfit.Host.log | 1 | org.standfit.Host | 1=Squats,2=Push-Ups,3=Plank",
            "Log Exercise | Not run: no answer. | org.standfit.Host.log | 1 | org.standfit.Host | ",
        ])
        #expect(eventually(20) { Self.serverLogLines(sandbox).contains("standfit-host: info: Notification 1: closed unanswered (dismissed)") })
        #expect(Self.logged(sandbox) == "")
    }
}
