import Foundation
import Testing
import TestSupport

/// Exercises of the user's own (issue 52): added, renamed and hidden; logged by name through
/// `run`, `say`, bash completion and speech; kept apart from StandFit's XP rules.
@Suite("StandFit: your own exercises", .timeLimit(.minutes(10)))
struct CustomExerciseTests {
    @Test("an exercise added by name is logged through run and say, in history and the entity's values; a name already taken, empty or too long is refused; --json data")
    func addAndLog() throws {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "addexercise", "name=burpees with a vest") == ProcessResult(status: 0, stdout: """
            Added burpees with a vest, counted in reps, 10 a log: 'standfit-host run logexercise exercise=burpees-with-a-vest' logs it.

            """, stderr: ""))
        #expect(home.run("run", "logexercise", "exercise=burpees with a vest", "count=8")
            == ProcessResult(status: 0, stdout: "Logged 8 burpees with a vest · +8 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(home.run("say", "log 6 burpees with a vest") == ProcessResult(status: 0, stdout: "Logged 6 burpees with a vest · +6 XP\n", stderr: ""))
        #expect(home.run("run", "addexercise", "name=stairs", "unit=seconds", "count=90", "icon=figure.stairs").stdout
            == "Added stairs, timed in seconds, 90 a log: 'standfit-host run logexercise exercise=stairs' logs it.\n")
        #expect(home.run("run", "logexercise", "exercise=stairs").stdout == "Logged 90 seconds of stairs · +9 XP\n")
        #expect(home.run("run", "history").stdout == """
            Logged in the last 7 days:
            #3  Sun 22 Nov 14:05  90 seconds of stairs
            #2  Sun 22 Nov 14:05  6 burpees with a vest
            #1  Sun 22 Nov 14:05  8 burpees with a vest

            """)
        for (name, sentence) in [("Push-Ups", "name: 'Push-Ups' already names Push-Ups; choose another name."),
                                 ("Burpees with a vest", "name: 'Burpees with a vest' already names Burpees with a vest; choose another name."),
                                 ("   ", "name: give a name of 1 to 40 characters, on one line and with a letter in it."),
                                 (String(repeating: "x", count: 41), "name: give a name of 1 to 40 characters, on one line and with a letter in it.")] {
            #expect(home.run("run", "addexercise", "name=\(name)") == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: \(sentence)\n"))
        }
        let json = home.run("run", "addexercise", "name=Rope jumps", "--json")
        let data = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["data"] as? [String: Any])
        #expect(data["id"] as? String == "rope-jumps" && data["unit"] as? String == "reps" && data["defaultCount"] as? Int == 10
            && data["icon"] as? String == "figure.mixed.cardio" && data["custom"] as? Bool == true, "\(json)")
    }

    @Test("renamed, an exercise keeps its logs under the new name; hidden, it is no longer offered but its logs stay and its name still logs it; shown again, it is offered")
    func renameAndHide() throws {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(home.run("run", "renameexercise", "exercise=squats", "name=knee bends")
            == ProcessResult(status: 0, stdout: "Renamed Squats to knee bends.\n", stderr: ""))
        #expect(home.run("run", "history").stdout == "Logged in the last 7 days:\n#1  Sun 22 Nov 14:05  20 knee bends\n")
        #expect(home.run("say", "log 5 knee bends").stdout == "Logged 5 knee bends · +5 XP\n")
        #expect(home.run("run", "hideexercise", "exercise=plank") == ProcessResult(status: 0, stdout: """
            Hid Plank: pickers and suggestions no longer offer it, and its logs stay; 'standfit-host run hideexercise exercise=plank hidden=false' shows it again.

            """, stderr: ""))
        let bash = try BashCompletion(home)
        #expect(bash.complete("standfit-host run logexercise exercise=p") == ["pushups"])
        // Asked which exercise, the picker leaves it out.
        let asked = home.run("run", "logexercise", "--no-input", "--json")
        let suggestions = try #require((try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [String: Any])?["suggestions"] as? [String])
        #expect(!suggestions.contains("plank") && suggestions.first == "squats", "\(suggestions)")
        // By its name it still logs.
        #expect(home.run("run", "logexercise", "exercise=plank", "count=30").stdout == "Logged 30 seconds of plank · +6 XP\n")
        #expect(home.run("run", "hideexercise", "exercise=plank", "hidden=false").stdout == "Plank is offered again.\n")
        #expect(bash.complete("standfit-host run logexercise exercise=p") == ["plank", "pushups"])
    }

    @Test("an exercise has a name of the user's in each language: language=nl names it in Dutch only, each language shows its own and both log it; a language StandFit does not speak is refused; a name without language is every language's again")
    func namePerLanguage() throws {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "addexercise", "name=stairs").status == 0)
        #expect(home.run("run", "renameexercise", "exercise=stairs", "name=traplopen", "language=nl")
            == ProcessResult(status: 0, stdout: "Renamed Stairs to traplopen in Dutch.\n", stderr: ""))
        #expect(home.run("run", "logexercise", "exercise=stairs", "count=3").stdout == "Logged 3 stairs · +3 XP\nAchievement unlocked: First log\n")
        #expect(home.run("say", "--locale", "nl", "noteer 2 traplopen") == ProcessResult(status: 0, stdout: "2 traplopen gelogd · +2 XP\n", stderr: ""))
        #expect(home.run("say", "log 4 traplopen").stdout == "Logged 4 stairs · +4 XP\n")
        #expect(home.run("run", "history").stdout == """
            Logged in the last 7 days:
            #3  Sun 22 Nov 14:05  4 stairs
            #2  Sun 22 Nov 14:05  2 stairs
            #1  Sun 22 Nov 14:05  3 stairs

            """)
        #expect(home.run("run", "history", "--locale", "nl").stdout == """
            Gelogd in de afgelopen 7 dagen:
            #3  zo 22 nov 14:05  4 traplopen
            #2  zo 22 nov 14:05  2 traplopen
            #1  zo 22 nov 14:05  3 traplopen

            """)
        #expect(home.run("run", "renameexercise", "exercise=squats", "name=kniebuigingen", "language=de") == ProcessResult(status: 3, stdout: "",
            stderr: "standfit-host: language: no value is called 'de'; choose one of en, nl.\n"))
        let json = home.run("run", "renameexercise", "exercise=squats", "name=diepe kniebuigingen", "language=nl", "--json")
        let data = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["data"] as? [String: Any])
        #expect(data["name"] as? String == "Squats" && data["names"] as? [String: String] == ["nl": "diepe kniebuigingen"], "\(json)")
        #expect(home.run("run", "renameexercise", "exercise=stairs", "name=steps").stdout == "Renamed Stairs to steps.\n")
        #expect(home.run("run", "history", "limit=1", "--locale", "nl").stdout.hasPrefix("Gelogd in de afgelopen 7 dagen:\n#3  zo 22 nov 14:05  4 steps\n"))
    }

    @Test("a spoken sentence names an exercise of the user's own: the recogniser's grammar has its name",
          .needs(.espeak, .sox, .pocketsphinx, .pocketsphinxEnglish))
    func spoken() throws {
        let home = HostSandbox.standFit()
        #expect(home.run("run", "addexercise", "name=mountain climbers").status == 0)
        let file = home.root.appendingPathComponent("climbers.wav")
        let made = runProcess(ExternalTool.espeak.url, arguments: ["-v", "en-us", "-w", file.path, "log twenty mountain climbers"])
        try #require(made.status == 0, "\(made)")
        #expect(home.run(["say", "--audio", file.path], stdin: "y\n") == ProcessResult(status: 0,
            stdout: "Logged 20 mountain climbers · +20 XP\nAchievement unlocked: First log\n",
            stderr: "Heard: log twenty mountain climbers\nLog 20 mountain climbers? [y/N] "))
    }
}
