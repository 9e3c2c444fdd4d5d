import Foundation
import Testing
import TestSupport

/// Goals (issue 52): set, changed and removed with `setgoal`; how the log stands against them in
/// View Streak and View Progress; the achievements and the quick action that follow them.
/// The sandbox's clock is Sunday 22 November 2026, 14:05 in Amsterdam (an English week starts on Sunday).
@Suite("StandFit: goals", .timeLimit(.minutes(10)))
struct GoalCommandTests {
    @Test("setgoal sets, changes and removes a goal, each said with today's standing; a goal already met earns its achievement at once, and a raised one takes it back; a goal in total counts reps only")
    func setChangeRemove() {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "setgoal", "exercise=squats", "count=20") == ProcessResult(status: 0, stdout: """
            Goal set: 20 squats a day.
            · 20 squats a day: 0 today, 20 to go

            """, stderr: ""))
        #expect(home.run("run", "logexercise", "exercise=squats", "count=12").stdout == "Logged 12 squats · +12 XP\nAchievement unlocked: First log\n")
        #expect(home.run("run", "logexercise", "exercise=squats", "count=10")
            == ProcessResult(status: 0, stdout: "Logged 10 squats · +10 XP\nAchievement unlocked: A day's goal met\n", stderr: ""))
        #expect(home.run("run", "logexercise", "exercise=plank", "count=60").status == 0)
        #expect(home.run("run", "setgoal", "count=100", "per=week") == ProcessResult(status: 0, stdout: """
            Goal set: 100 reps a week in total.
            · 100 reps a week in total: 22 this week, 78 to go

            """, stderr: ""))
        #expect(home.run("run", "setgoal", "exercise=squats", "count=20") == ProcessResult(status: 0, stdout: """
            Your goal is 20 squats a day already.
            · 20 squats a day: 22 today ✓

            """, stderr: ""))
        #expect(home.run("run", "setgoal", "exercise=Squats", "count=30") == ProcessResult(status: 0, stdout: """
            Goal changed: 30 squats a day (was 20).
            Achievement taken back: A day's goal met
            · 30 squats a day: 22 today, 8 to go

            """, stderr: ""))
        #expect(home.run("run", "setgoal", "exercise=plank", "count=90") == ProcessResult(status: 0, stdout: """
            Goal set: 90 seconds of plank a day.
            · 90 seconds of plank a day: 60 today, 30 to go

            """, stderr: ""))
        #expect(home.run("run", "setgoal", "exercise=plank", "count=0")
            == ProcessResult(status: 0, stdout: "Goal removed: 90 seconds of plank a day.\n", stderr: ""))
        // Refused, each naming its parameter and the way out; nothing changes.
        #expect(home.run("run", "setgoal", "exercise=plank", "count=0") == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: count: there is no goal for plank a day to remove; give a count above 0 to set one.\n"))
        #expect(home.run("run", "setgoal", "exercise=squats", "count=5", "per=month") == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: per: no value is called 'month'; choose one of day, week.\n"))
        // (The exercises as the picker offers them: logged today first.)
        #expect(home.run("run", "setgoal", "exercise=skipping", "count=5") == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: exercise: no exercise is called 'skipping'; choose one of squats, plank, pushups, lunges, calfraises, stretching, jumpingjacks, wallsit, burpees, situps.\n"))
        #expect(home.run("run", "setgoal", "exercise=squats", "count=-1").status == 3)
        #expect(home.run("run", "viewstreak") == ProcessResult(status: 0, stdout: """
            Streak: 1 day
            Best streak: 1 day · level 1 · 34 XP
            Goals
            · 30 squats a day: 22 today, 8 to go
            · 100 reps a week in total: 22 this week, 78 to go

            """, stderr: ""))
    }

    @Test("View Progress ends with the goals: this week's standing, then a past week's days met and its weekly goal met or missed; by month, the days and weeks met; --json data holds them, and has no goals key without goals")
    func progressAgainstGoals() throws {
        var home = HostSandbox.standFit()
        #expect(home.run("run", "viewprogress", "--json").stdout.contains("\"goals\"") == false)
        #expect(home.run("run", "setgoal", "exercise=squats", "count=20").status == 0)
        #expect(home.run("run", "setgoal", "count=50", "per=week").status == 0)
        #expect(home.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(home.run("run", "viewprogress") == ProcessResult(status: 0, stdout: """
            This week, 22 Nov – 28 Nov 2026
            Sun 22  █ 1
            Mon 23  · 0
            Tue 24  · 0
            Wed 25  · 0
            Thu 26  · 0
            Fri 27  · 0
            Sat 28  · 0

            By exercise
            Squats  █ 1 log, 20 reps

            Goals
            · 20 squats a day: met on 1 of 1 day
            · 50 reps a week in total: 20 this week, 30 to go

            █ = 1 log

            """, stderr: ""))
        // Four days later: Sunday, Monday and Wednesday met, Tuesday missed, Thursday under way.
        for (day, count) in [("23", 25), ("24", 5), ("25", 20), ("26", 10)] {
            home.extraEnvironment["STANDFIT_NOW"] = "2026-11-\(day)T09:00:00Z"
            #expect(home.run("run", "logexercise", "exercise=squats", "count=\(count)").status == 0)
        }
        #expect(home.run("run", "viewprogress").stdout.hasSuffix("""
            Goals
            · 20 squats a day: met on 3 of 4 days
            · 50 reps a week in total: 80 this week ✓

            █ = 1 log

            """))
        home.extraEnvironment["STANDFIT_NOW"] = "2026-12-01T09:00:00Z"
        #expect(home.run("run", "viewprogress", "ago=1").stdout.hasSuffix("""
            Goals
            · 20 squats a day: met on 3 of 7 days
            · 50 reps a week in total: met ✓

            █ = 1 log

            """))
        #expect(home.run("run", "viewprogress", "period=month", "ago=1").stdout.hasSuffix("""
            Goals
            · 20 squats a day: met on 3 of 9 days
            · 50 reps a week in total: met on 1 of 1 week

            █ = 1 log

            """))
        let json = home.run("run", "viewprogress", "ago=1", "--json")
        let data = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["data"] as? [String: Any])
        let goals = try #require(data["goals"] as? [[String: Any]], "\(json)")
        #expect(goals.count == 2)
        #expect(goals[0]["exercise"] as? String == "squats" && goals[0]["per"] as? String == "day" && goals[0]["count"] as? Int == 20
            && goals[0]["unit"] as? String == "reps" && goals[0]["periods"] as? Int == 7 && goals[0]["met"] as? Int == 3 && goals[0]["current"] == nil)
        #expect(goals[1]["exercise"] == nil && goals[1]["per"] as? String == "week" && goals[1]["count"] as? Int == 50
            && goals[1]["periods"] as? Int == 1 && goals[1]["met"] as? Int == 1)
    }

    @Test("a goal not met takes the 'Log ⟨exercise⟩' quick action with what is left, and leaves it once met; set and seen by voice and in Dutch")
    func quickActionAndWords() {
        let home = HostSandbox.standFit()
        #expect(home.run("say", "set a goal of 20 squats a day") == ProcessResult(status: 0, stdout: """
            Goal set: 20 squats a day.
            · 20 squats a day: 0 today, 20 to go

            """, stderr: ""))
        #expect(home.run("run", "logexercise", "exercise=pushups", "count=10").status == 0)
        #expect(home.run("list").stdout == """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 1 day  (com.standfit.viewstreak)
            3. Log Squats — 20 squats to go  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """)
        // The exercise picker (a reminder's question) offers the goal's exercise first, then the
        // one logged last.
        let asked = home.run("run", "logexercise", "--no-input", "--json")
        let suggestions = (try? JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [String: Any])?["suggestions"] as? [String]
        #expect(suggestions?.prefix(3) == ["squats", "pushups", "plank"], "\(asked)")
        #expect(home.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(home.run("list").stdout == """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 1 day  (com.standfit.viewstreak)
            3. Log Squats — 20 reps  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """)
        #expect(home.run("say", "--locale", "nl", "stel een doel van 5 opdrukken per week") == ProcessResult(status: 0, stdout: """
            Doel gesteld: 5 push-ups per week.
            · 5 push-ups per week: 10 deze week ✓

            """, stderr: ""))
        #expect(home.run("say", "set a goal of 100 reps a week") == ProcessResult(status: 0, stdout: """
            Goal set: 100 reps a week in total.
            · 100 reps a week in total: 30 this week, 70 to go

            """, stderr: ""))
        #expect(home.run("run", "setgoal", "exercise=all", "count=5").status == 3)
        #expect(home.run("run", "viewstreak", "--locale", "nl") == ProcessResult(status: 0, stdout: """
            Reeks: 1 dag
            Beste reeks: 1 dag · niveau 1 · 35 XP
            Doelen
            · 20 squats per dag: 20 vandaag ✓
            · 100 herhalingen per week in totaal: 30 deze week, nog 70
            · 5 push-ups per week: 10 deze week ✓

            """, stderr: ""))
    }

    @Test("goalreminder asks which exercise while a goal is not met, in its own words with the exercises as the picker has them (goals first), logs what is left of the goal picked, and declines once every goal is met; with no goals it says how to set one")
    func reminderInTheTerminal() throws {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "goalreminder", "--no-input") == ProcessResult(status: 1, stdout: "",
            stderr: "standfit-host: There are no goals to follow yet: 'standfit-host run setgoal exercise=squats count=20' sets one.\n"))
        #expect(home.run("run", "setgoal", "exercise=squats", "count=20").status == 0)
        #expect(home.run("run", "setgoal", "count=50", "per=week").status == 0)
        let asked = home.run("run", "goalreminder", "--no-input", "--json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [String: Any], "\(asked)")
        #expect(asked.status == 3 && document["needsValue"] as? String == "exercise"
            && document["message"] as? String == "Still to do: 20 squats today, 50 reps in total this week. Which exercise?"
            && (document["suggestions"] as? [String])?.first == "squats", "\(asked)")
        #expect(home.run("run", "goalreminder", "exercise=squats")
            == ProcessResult(status: 0, stdout: "Logged 20 squats · +20 XP\nAchievement unlocked: First log\nAchievement unlocked: A day's goal met\n", stderr: ""))
        #expect(home.run("run", "goalreminder", "--no-input").stderr
            == "standfit-host: Still to do: 30 reps in total this week. Which exercise?\n")
        // No goal of its own left: its usual count.
        #expect(home.run("run", "goalreminder", "exercise=lunges").stdout == "Logged 12 lunges · +14 XP\n")
        #expect(home.run("run", "logexercise", "exercise=burpees", "count=20").status == 0)
        #expect(home.run("run", "goalreminder") == ProcessResult(status: 1, stdout: "", stderr: "standfit-host: Every goal is met for now ✓\n"))
    }

    @Test("schedule add --remind takes goalreminder (it asks for the exercise itself); one that asks nothing, and a confirmed action, are refused as before",
          .needs(.systemdAnalyze))
    func reminderScheduled() {
        let home = HostSandbox.standFit()
        #expect(home.run("schedule", "add", "--remind", "*-*-* 17:00", "goalreminder").status == 0)
        #expect(home.run("schedule", "add", "--remind", "*-*-* 17:00", "viewstreak") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: error: A reminder asks for a value, and com.standfit.viewstreak has every value it needs here; leave out the one it should ask for (such as exercise), or drop --remind to run it at those times.

            """))
        #expect(home.run("schedule", "add", "--remind", "*-*-* 17:00", "deletelog").status == 3)
    }

    @Test("a goal reminder on the desktop: while a goal is not met it asks with the exercises as buttons, the goal's first, and the one pressed logs what is left; once every goal is met it shows nothing and succeeds",
          .needs(.dbusDaemon, .python3, .pythonGI))
    func reminderOnTheDesktop() throws {
        let (sandbox, bus, record) = try DesktopBusTests.sandboxWithNotifications(press: "Lunges")
        defer { bus.stop() }
        #expect(sandbox.run("run", "setgoal", "exercise=lunges", "count=24").status == 0)
        #expect(sandbox.run("run", "--notify", "--scheduled", "--remind", "--", "goalreminder")
            == ProcessResult(status: 0, stdout: "Still to do: 24 lunges today. Which exercise?\n", stderr: ""))
        let head = "Goal Reminder | Still to do: 24 lunges today. Which exercise?"
        let tail = "preferences-system-notifications | 1 | org.standfit.Host"
        if HostPath.current == .warm {
            // Through the warm server the exercises are buttons, and it hears the press.
            #expect(eventually { DesktopBusTests.shown(record).count == 2 })
            #expect(DesktopBusTests.shown(record).first == "\(head) | \(tail) | 1=Lunges,2=Squats,3=Push-Ups")
            #expect(DesktopBusTests.shown(record).last?.hasPrefix("Goal Reminder | Logged 24 lunges · +") == true, "\(DesktopBusTests.shown(record))")
        } else {
            // Run cold, the command ends at once: it names them in the text.
            #expect(eventually { DesktopBusTests.shown(record).count == 1 })
            #expect(DesktopBusTests.shown(record) == ["\(head) Lunges, Squats, Push-Ups, Plank, Calf Raises, Stretching, Jumping Jacks, Wall Sit, Burpees, Sit-Ups | \(tail) | "])
        }
        // (A press reaches a server a command started, which runs on the real clock, not the
        // sandbox's day: the goal of the sandbox's day is met by hand.)
        #expect(sandbox.run("run", "logexercise", "exercise=lunges", "count=24").status == 0)
        let shown = DesktopBusTests.shown(record).count
        #expect(sandbox.run("run", "--notify", "--scheduled", "--remind", "--", "goalreminder")
            == ProcessResult(status: 0, stdout: "Every goal is met for now ✓\n", stderr: ""))
        // Nothing more was shown.
        #expect(DesktopBusTests.shown(record).count == shown)
    }
}
