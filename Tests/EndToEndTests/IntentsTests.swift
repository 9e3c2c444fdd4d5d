import Foundation
import Testing
import TestSupport

/// Issue E on the built binary: entities, prompts and resolution, phrases, donations and
/// suggestions, routines. StandFit's exercise entity is Swift (PluginAPI); `intents.so` is the
/// same ABI written in C, run in a worker process since it is not trusted.
@Suite("Intents: entities, prompts, phrases, suggestions, routines", .timeLimit(.minutes(10)))
struct IntentsTests {
    let standFit = HostSandbox.standFit()

    /// The StandFit sandbox at `instant` (STANDFIT_NOW).
    func at(_ instant: String) -> HostSandbox {
        var sandbox = standFit
        sandbox.extraEnvironment["STANDFIT_NOW"] = instant
        return sandbox
    }

    /// `intents.so`, the C plugin of the `paint` sandbox.
    let intents: URL
    let paint: HostSandbox

    /// Throws, and so ends each test of the suite with one issue, when `intents.so` was not built.
    init() throws {
        intents = try FixturePlugins.url("intents.so")
        paint = HostSandbox(pluginPath: [intents])
    }

    /// The two registrations `intents.c` gets wrong on purpose, as the host reports them.
    var paintWarnings: String {
        let path = intents.path
        return """
            standfit-host: warning: Plugin 'com.fixture.intents' (\(path)) loads without a registration the host refused, because its init returned STANDFIT_OK regardless (have it return the failing call's status): the phrase "wave at {nobody}" of 'com.fixture.intents.wave' has placeholder {nobody}, which is not one of its parameters.
            standfit-host: warning: Plugin 'com.fixture.intents' (\(path)) loads without a registration the host refused, because its init returned STANDFIT_OK regardless (have it return the failing call's status): parameter 'coats' of 'com.fixture.intents.paint' is not a string, so it cannot have choices.
            standfit-host: warning: Plugin 'com.fixture.intents' (\(path)) loads without a registration the host refused, because its init returned STANDFIT_OK regardless (have it return the failing call's status): set_action_traits gives 'com.fixture.intents.paint' traits 6, with bits this host does not know (it knows STANDFIT_TRAIT_NOT_SUGGESTIBLE = 1).
            standfit-host: warning: Plugin 'com.fixture.intents' (\(path)) loads without a registration the host refused, because its init returned STANDFIT_OK regardless (have it return the failing call's status): set_action_traits names action 'com.fixture.intents.dance', which it has not registered; register the action first.
            standfit-host: warning: Plugin 'com.fixture.intents' (\(path)) loads without a registration the host refused, because its init returned STANDFIT_OK regardless (have it return the failing call's status): set_parameter_traits gives 'coats' of 'com.fixture.intents.paint' traits 4, with bits this host does not know (it knows STANDFIT_PARAM_TRAIT_NOT_SUGGESTIBLE = 1).

            """
    }

    /// What `TmuxSession.screen()` reads of its 100×24 terminal once `said` was written to it:
    /// each line wrapped at 100 columns (every character here takes one), the last 24 rows (the
    /// cursor's row among them: an empty one after a final newline), trailing blanks left out.
    static func terminal(_ said: String) -> String {
        let rows = said.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [Substring] in
            var wrapped: [Substring] = []
            var rest = line
            repeat {
                wrapped.append(rest.prefix(100))
                rest = rest.dropFirst(100)
            } while !rest.isEmpty
            return wrapped
        }
        return rows.suffix(24).map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            .joined(separator: "\n").trimmingCharacters(in: .newlines)
    }

    @Test("an entity takes any of its names; --dry-run shows each value and where it came from")
    func entities() {
        for (index, name) in ["push ups", "Pushups", "push-ups", "opdrukken"].enumerated() {
            #expect(standFit.run("run", "logexercise", "exercise=\(name)", "count=12").stdout
                == "Logged 12 push-ups · +18 XP\n" + (index == 0 ? "Achievement unlocked: First log\n" : ""))
        }
        #expect(standFit.run("run", "logexercise", "exercise=Plank", "--dry-run") == ProcessResult(status: 0, stdout: """
            Log Exercise (com.standfit.logexercise) would run with:
              exercise = plank (Plank)  [argument, from 'Plank']
              count    = 60  [value-default]
              seconds  = (not set)
              minutes  = (not set)
              note     = (not set)
              at       = (not set)
            Nothing ran (--dry-run).

            """, stderr: ""))
        // The count a value brings is the last one logged for it.
        #expect(standFit.run("run", "logexercise", "exercise=pushups", "--dry-run").stdout == """
            Log Exercise (com.standfit.logexercise) would run with:
              exercise = pushups (Push-Ups)  [argument]
              count    = 12  [value-default]
              seconds  = (not set)
              minutes  = (not set)
              note     = (not set)
              at       = (not set)
            Nothing ran (--dry-run).

            """)
        #expect(standFit.run("run", "logexercise", "exercise=yoga") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: exercise: no exercise is called 'yoga'; choose one of pushups, squats, plank, lunges, calfraises, stretching, jumpingjacks, wallsit, burpees, situps.

            """))
    }

    @Test("a C plugin's entity, choices and value defaults, answered in a worker process")
    func cEntity() {
        #expect(paint.run("run", "paint", "colour=navy blue", "finish=shiny")
            == ProcessResult(status: 0, stdout: "Painted 3 coats of blue (gloss)\n", stderr: paintWarnings))
        #expect(paint.run("run", "paint", "colour=Scarlet", "coats=1", "--dry-run").stdout == """
            Paint (com.fixture.intents.paint) would run with:
              colour = red (Red)  [argument, from 'Scarlet']
              coats  = 1  [argument]
              finish = (not set)
            Nothing ran (--dry-run).

            """)
        let finish = paint.run("run", "paint", "colour=green", "finish=satin")
        #expect(finish.status == 3)
        #expect(finish == ProcessResult(status: 3, stdout: "", stderr: paintWarnings + "standfit-host: finish: no value is called 'satin'; choose one of matte, gloss.\n"))
    }

    @Test("--no-input and a stdin that is not a terminal answer needsValue with the suggestions")
    func noInput() {
        let expected = ProcessResult(status: 3, stdout: """
            {
              "message" : "Missing required parameter 'colour' for com.fixture.intents.paint; pass colour=VALUE.",
              "needsValue" : "colour",
              "parameter" : "colour",
              "plugin" : "com.fixture.intents",
              "status" : "invalid-input",
              "suggestions" : [
                "blue",
                "red",
                "green"
              ],
              "type" : "com.fixture.intents.paint"
            }

            """, stderr: paintWarnings)
        #expect(paint.run(["run", "paint", "--json", "--no-input"]) == expected)
        #expect(paint.run(["run", "paint", "--json"], stdin: "red\n") == expected)
    }

    @Test("on a terminal, missing values are asked for, with suggestions, defaults and re-asking", .needs(.tmux))
    func prompts() throws {
        _ = standFit.run("run", "logexercise", "exercise=pushups", "count=10")
        try standFit.checkingHandBacks("run logexercise") {
            let tmux = try TmuxSession(command: standFit.shellCommand(["run", "logexercise"]))
            #expect(tmux.wait(for: "> ") == """
                Which exercise?
                   1. Push-Ups
                   2. Squats
                   3. Plank
                   4. Lunges
                   5. Calf Raises
                   6. Stretching
                   7. Jumping Jacks
                   8. Wall Sit
                   9. Burpees
                  10. Sit-Ups
                >
                """)
            // From here on the screen is all that was said, as the terminal shows it (`terminal`).
            let question = """
                Which exercise?
                   1. Push-Ups
                   2. Squats
                   3. Plank
                   4. Lunges
                   5. Calf Raises
                   6. Stretching
                   7. Jumping Jacks
                   8. Wall Sit
                   9. Burpees
                  10. Sit-Ups

                """ + "> "
            tmux.send("pushy", "Enter")
            var said = question + "pushy\nNothing is called 'pushy'; choose a number from 1 to 10, or a name.\n" + question
            #expect(tmux.wait(for: Self.terminal(said)) == Self.terminal(said))
            tmux.send("1", "Enter")
            said += "1\nHow many? (1–3600) [10]\n> "
            #expect(tmux.wait(for: Self.terminal(said)) == Self.terminal(said))
            tmux.send("ten", "Enter")
            said += "ten\nExpected a number from 1 to 3600, got 'ten'.\nHow many? (1–3600) [10]\n> "
            #expect(tmux.wait(for: Self.terminal(said)) == Self.terminal(said))
            // Out of range is asked again too, as a word is.
            tmux.send("--", "-5", "Enter")  // ("--": a key, not an option of send-keys)
            said += "-5\nExpected a number from 1 to 3600, got '-5'.\nHow many? (1–3600) [10]\n> "
            #expect(tmux.wait(for: Self.terminal(said)) == Self.terminal(said))
            tmux.send("Enter")
            said += "\nLogged 10 push-ups · +15 XP\nEXIT=0\n"
            #expect(tmux.wait(for: Self.terminal(said)) == Self.terminal(said))
        }
    }

    @Test("a value the handler refuses after a prompt is asked again with the handler's words; without a terminal it stays invalid input", .needs(.tmux))
    func handlerRefusalAsksAgain() throws {
        #expect(paint.run("run", "greet", "name=nobody", "--no-input") == ProcessResult(status: 3, stdout: "", stderr: paintWarnings + """
            standfit-host: name: 'nobody' is no one to greet; give a person's name.

            """))
        try paint.checkingHandBacks("run greet") {
            let tmux = try TmuxSession(command: paint.shellCommand(["run", "greet"]))
            // The screen: the plugin's warnings, then the conversation, as the terminal shows them.
            var said = paintWarnings + "Name?\n> "
            #expect(tmux.wait(for: Self.terminal(said)) == Self.terminal(said))
            tmux.send("nobody", "Enter")
            said += "nobody\nname: 'nobody' is no one to greet; give a person's name.\nName?\n> "
            #expect(tmux.wait(for: Self.terminal(said)) == Self.terminal(said))
            tmux.send("Ada", "Enter")
            said += "Ada\nGreeted Ada\nEXIT=0\n"
            #expect(tmux.wait(for: Self.terminal(said)) == Self.terminal(said))
        }
    }

    @Test("say: phrases bind words to parameters, in the run's language; near misses get the closest phrases")
    func say() {
        #expect(standFit.run("say", "log 15 push-ups") == ProcessResult(status: 0, stdout: "Logged 15 push-ups · +23 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(standFit.run("say", "noteer", "12", "opdrukken", "--locale", "nl").stdout == "12 push-ups gelogd · +18 XP\n")
        #expect(standFit.run("say", "log my plank", "--dry-run").stdout == """
            Log Exercise (com.standfit.logexercise) would run with:
              exercise = plank (Plank)  [phrase]
              count    = 60  [value-default]
              seconds  = (not set)
              minutes  = (not set)
              note     = (not set)
              at       = (not set)
            Nothing ran (--dry-run).

            """)
        #expect(standFit.run("say", "show my streak").stdout == "Streak: 1 day\nBest streak: 1 day · level 1 · 41 XP\n")
        // Done earlier: a time after the exercise, in the user's words and zone.
        #expect(standFit.run("say", "log 20 squats yesterday") == ProcessResult(status: 0, stdout: "Logged 20 squats on 21 Nov at 14:05 · +22 XP\n", stderr: ""))
        #expect(standFit.run("say", "log 20 squats yesterday at 18:00").stdout == "Logged 20 squats on 21 Nov at 18:00 · +20 XP\n")
        #expect(standFit.run("say", "log 5 burpees at 9:30").stdout == "Logged 5 burpees at 09:30 · +10 XP\n")
        #expect(standFit.run("say", "log 20 squats 2h ago").stdout == "Logged 20 squats at 12:05 · +20 XP\nLevel 2 reached\n")
        #expect(standFit.run("say", "noteer 20 squats gisteren om 18:00", "--locale", "nl").stdout == "20 squats gelogd (21 nov 18:00) · +20 XP\n")
        #expect(standFit.run("say", "log 10 squats om 9.30", "--locale", "nl").stdout == "10 squats gelogd (09:30) · +10 XP\n")
        #expect(standFit.run("say", "noteer 12 opdrukken 2 uur geleden", "--locale", "nl").stdout == "12 push-ups gelogd (12:05) · +18 XP\n")
        #expect(standFit.run("say", "log 20 squats soonish") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: at: 'soonish' is not a time StandFit reads; give an ISO 8601 time (2026-11-21T18:00:00Z), a local date and time \
            (2026-11-21 18:00), yesterday or today with an optional time (yesterday 18:00), or a time ago (-2h, 2h ago, 30 min ago).

            """))
        #expect(standFit.run("say", "lg 15 pushups") == ProcessResult(status: 2, stdout: "", stderr: """
            standfit-host: No action understands 'lg 15 pushups'; the closest phrases are 'log 20 push-ups' (Log Exercise) and 'do 20 push-ups' (Log Exercise).

            """))
        // No action found: the sentence is given as such, and there is no type.
        let lost = standFit.run("say", "lg 15 pushups", "--json")
        #expect(lost.status == 2)
        #expect(canonicalJSON(lost.stdout) == #"{"message":"No action understands 'lg 15 pushups'; the closest phrases are 'log 20 push-ups' (Log Exercise) and 'do 20 push-ups' (Log Exercise).","sentence":"lg 15 pushups","status":"unknown-type","suggestions":["log {count} {exercise}","log {count} {exercise} {at}","do {count} {exercise}"]}"#)
        let bare = standFit.run("say", "log exercise", "--no-input", "--json")
        #expect(bare.status == 3)
        #expect(canonicalJSON(bare.stdout) == #"{"message":"Missing required parameter 'exercise' for com.standfit.logexercise; pass exercise=VALUE.","needsValue":"exercise","parameter":"exercise","plugin":"com.standfit","status":"invalid-input","suggestions":["pushups","squats","burpees","plank","lunges","calfraises","stretching","jumpingjacks","wallsit","situps"],"type":"com.standfit.logexercise"}"#)
        #expect(paint.run("say", "paint", "2", "coats", "of", "crimson").stdout == "Painted 2 coats of red (no finish)\n")
    }

    @Test("an action a C plugin marks not suggestible (standfit.action-traits/1) is not donated; an unknown bit and an unregistered type are refused, each with a warning naming the plugin")
    func actionTraits() {
        let waved = paint.run("run", "com.fixture.intents.wave", "who=bob")
        #expect(waved.status == 0 && waved.stderr == paintWarnings, "\(waved)")
        #expect(paint.run("run", "com.fixture.intents.greet", "name=ann").status == 0)
        let donations = paint.run("donations").stdout
        // The greeting, not the wave.
        #expect(donations == "2026-11-22 13:05:00  com.fixture.intents.greet  name=ann\n", "\(donations)")
    }

    @Test("an action a C plugin marks to be confirmed (standfit.action-traits/2) says so in plugins check, text and --json; revision 1 still refuses the bit (paintWarnings); without a terminal it runs as asked (donationIDs runs it)")
    func confirmTrait() throws {
        let path = intents.path
        let check = paint.run("plugins", "check", "--json", path)
        let plugin = try #require((try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])?["plugin"] as? [String: Any], "\(check)")
        let confirms = (plugin["actions"] as? [[String: Any]] ?? []).map { "\($0["type"] ?? "?")=\($0["confirms"] ?? "?")" }
        #expect(confirms == ["com.fixture.intents.paint=0", "com.fixture.intents.greet=0", "com.fixture.intents.wave=0", "com.fixture.intents.scrape=1"])
        #expect(paint.run("plugins", "check", path).stdout.contains("\n      confirmed: asked on a terminal before it runs\n"))
    }

    @Test("a parameter a plugin marks not suggestible (standfit.parameter-traits/1) is left out of the donation: StandFit's at, intents.c's finish")
    func parameterTraits() {
        #expect(paint.run("run", "paint", "colour=red", "finish=gloss").stdout == "Painted 2 coats of red (gloss)\n")
        let painted = paint.run("donations").stdout.split(separator: "\n").map { $0.split(separator: "  ").dropFirst().joined(separator: "  ") }
        #expect(painted == ["com.fixture.intents.paint  coats=2  colour=red"])
        // A backfill is no habit: the suggestion it leaves logs for now, not for yesterday.
        #expect(standFit.run("run", "logexercise", "exercise=squats", "count=20", "at=yesterday 08:00").status == 0)
        #expect(standFit.run("donations").stdout == "2026-11-22 14:05:00  com.standfit.logexercise  count=20  exercise=squats\n")
        #expect(standFit.run("suggest").stdout == """
            1. Log 20 Squats  (com.standfit.logexercise count=20 exercise=squats)  score 3.00
               ran 1 time (frequency 1.00); last 0 min ago (recency 1.00); usually around 14:05, now 14:05 (time of day 1.00)

            """)
    }

    @Test("a C plugin names a run's donation and withdraws it when a later run undoes it (standfit.donations/1); a NULL or malformed id is refused with a warning naming the plugin and the type")
    func donationIDs() {
        #expect(paint.run("run", "paint", "colour=red").status == 0)
        #expect(paint.run("run", "paint", "colour=blue").status == 0)
        #expect(paint.run("run", "com.fixture.intents.scrape", "colour=red") == ProcessResult(status: 0, stdout: "Scraped the red off\n", stderr: paintWarnings + """
            standfit-host: warning: Plugin 'com.fixture.intents' passed NULL to withdraw_donations while running com.fixture.intents.scrape; report this to the plugin's author.
            standfit-host: warning: Plugin 'com.fixture.intents' passed set_donation_id an identifier that is not 1 to 200 bytes of UTF-8 without control characters while running com.fixture.intents.scrape; report this to the plugin's author.

            """))
        let donations = paint.run("donations").stdout.split(separator: "\n").map { $0.split(separator: "  ").dropFirst().joined(separator: "  ") }
        #expect(donations == ["com.fixture.intents.paint  coats=3  colour=blue", "com.fixture.intents.scrape  colour=red"])
    }

    @Test("say: an ambiguous sentence is listed without a terminal and asked about on one", .needs(.tmux))
    func sayAmbiguous() throws {
        #expect(paint.run("say", "hello bob") == ProcessResult(status: 2, stdout: "", stderr: paintWarnings + """
            standfit-host: 'hello bob' could mean Greet: name=bob or Wave: who=bob; say it more precisely or run one with 'standfit-host run'.

            """))
        try paint.checkingHandBacks("say hello bob") {
            let tmux = try TmuxSession(command: paint.shellCommand(["say", "hello bob"]))
            // The screen: the plugin's warnings, then the question, as the terminal shows them.
            var said = paintWarnings + """
                'hello bob' could mean several things; which one?
                  1. Greet: name=bob
                  2. Wave: who=bob

                """ + "> "
            #expect(tmux.wait(for: Self.terminal(said)) == Self.terminal(said))
            tmux.send("2", "Enter")
            said += "2\nWaved at bob\nEXIT=0\n"
            #expect(tmux.wait(for: Self.terminal(said)) == Self.terminal(said))
        }
    }

    @Test("donations: every handled run is logged; suggest ranks them and says why; the menu offers the best", .needs(.sqlite3))
    func donationsAndSuggestions() {
        for instant in ["2026-11-18T08:05:00Z", "2026-11-19T08:15:00Z", "2026-11-20T07:55:00Z"] {
            #expect(at(instant).run("say", "log 10 push ups").status == 0)
        }
        _ = at("2026-11-21T17:00:00Z").run("run", "logexercise", "exercise=squats", "count=20")
        _ = at("2026-11-21T17:01:00Z").run("run", "logexercise", "exercise=yoga")
        // In local time (TZ=Europe/Amsterdam), as everything else the host shows.
        #expect(standFit.run("donations") == ProcessResult(status: 0, stdout: """
            2026-11-18 09:05:00  com.standfit.logexercise  count=10  exercise=pushups
            2026-11-19 09:15:00  com.standfit.logexercise  count=10  exercise=pushups
            2026-11-20 08:55:00  com.standfit.logexercise  count=10  exercise=pushups
            2026-11-21 18:00:00  com.standfit.logexercise  count=20  exercise=squats

            """, stderr: ""))
        let morning = at("2026-11-22T08:20:00Z")
        #expect(morning.run("suggest") == ProcessResult(status: 0, stdout: """
            1. Log 10 Push-Ups  (com.standfit.logexercise count=10 exercise=pushups)  score 3.95
               ran 3 times (frequency 1.84); last 2 days ago (recency 0.50); usually around 09:05, now 09:20 (time of day 0.88)
            2. Log 20 Squats  (com.standfit.logexercise count=20 exercise=squats)  score 1.78
               ran 1 time (frequency 0.98); last 15 h ago (recency 0.80); usually around 18:00, now 09:20 (time of day 0.00)

            """, stderr: ""))
        #expect(morning.run("list", "--limit", "6").stdout == """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 4 days  (com.standfit.viewstreak)
            3. Log Squats — 20 reps  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)
            5. Log 10 Push-Ups — Suggested · usually around 09:05  (com.standfit.logexercise)

            """)
        // In the afternoon it is not the usual time: no suggestion.
        let withoutSuggestion = """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 4 days  (com.standfit.viewstreak)
            3. Log Squats — 20 reps  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """
        #expect(at("2026-11-22T14:20:00Z").run("list", "--limit", "6").stdout == withoutSuggestion)
        // In the morning it has a slot of its own even where StandFit's four items fill the
        // menu (the limit), as iOS shows a Siri Suggestion apart from an app's quick actions.
        #expect(morning.run("list").stdout == withoutSuggestion.dropLast() + """

            5. Log 10 Push-Ups — Suggested · usually around 09:05  (com.standfit.logexercise)

            """)
        #expect(morning.run("list", "--explain").stdout == """
            StandFit (com.standfit): its own menu, at most 4 shown
            1. Log Exercise  (com.standfit.logexercise)
                 default item of plugin com.standfit
            2. View Streak — 4 days  (com.standfit.viewstreak)
                 dynamic, from plugin com.standfit's provider, rank 1, true until 2026-11-23 00:00:00+01:00
            3. Log Squats — 20 reps  (com.standfit.logexercise)
                 dynamic, from plugin com.standfit's provider, rank 2
            4. View Progress  (com.standfit.viewprogress)
                 dynamic, from plugin com.standfit's provider, rank 3
            5. Log 10 Push-Ups — Suggested · usually around 09:05  (com.standfit.logexercise)
                 suggested from your past runs (standfit-host suggest), in a slot of its own that takes no app item's place

            """)
        #expect(standFit.run("donations", "clear", "com.standfit.logexercise")
            == ProcessResult(status: 0, stdout: "Forgot 4 runs of com.standfit.logexercise (Log Exercise).\n", stderr: ""))
        #expect(standFit.run("suggest").stdout == "Nothing to suggest yet: suggestions come from the runs you make (see 'standfit-host donations').\n")
        #expect(standFit.stateIntegrity() == "ok")
    }

    @Test("habits (issue 51): history looked at twice in a minute is no suggestion, on two days it is; push-ups mornings and evenings are two suggestions at 07:30 and 19:00, not one at 13:15", .needs(.sqlite3))
    func habits() {
        #expect(at("2026-11-21T16:29:00Z").run("run", "history").status == 0)
        #expect(at("2026-11-21T16:30:00Z").run("run", "history").status == 0)
        #expect(at("2026-11-21T16:31:00Z").run("list", "--limit", "6").stdout == "1. Log Exercise  (com.standfit.logexercise)\n")
        #expect(at("2026-11-22T16:30:00Z").run("run", "history").status == 0)
        #expect(at("2026-11-22T16:31:00Z").run("list", "--limit", "6").stdout == """
            1. Log Exercise  (com.standfit.logexercise)
            2. History — Suggested · usually around 17:30  (com.standfit.history)

            """)
        #expect(standFit.run("donations", "clear").status == 0)
        for day in 18...21 {
            #expect(at("2026-11-\(day)T06:30:00Z").run("say", "log 10 push ups").status == 0)
            #expect(at("2026-11-\(day)T18:00:00Z").run("say", "log 10 push ups").status == 0)
        }
        // The last exercise logged is the menu's own item; the suggestion is another's.
        #expect(at("2026-11-21T20:00:00Z").run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(at("2026-11-22T06:35:00Z").run("suggest").stdout == """
            1. Log 10 Push-Ups  (com.standfit.logexercise count=10 exercise=pushups)  score 5.13
               ran 4 times (frequency 2.20); last 12 h ago (recency 0.83); usually around 07:30, now 07:35 (time of day 0.96)
            2. Log 10 Push-Ups  (com.standfit.logexercise count=10 exercise=pushups)  score 3.03
               ran 4 times (frequency 2.20); last 12 h ago (recency 0.83); usually around 19:00, now 07:35 (time of day 0.00)
            3. Log 20 Squats  (com.standfit.logexercise count=20 exercise=squats)  score 1.84
               ran 1 time (frequency 0.98); last 10 h ago (recency 0.86); usually around 21:00, now 07:35 (time of day 0.00)

            """)
        let items = """
            1. Log Exercise  (com.standfit.logexercise)
            2. View Streak — 4 days  (com.standfit.viewstreak)
            3. Log Squats — 20 reps  (com.standfit.logexercise)
            4. View Progress  (com.standfit.viewprogress)

            """
        #expect(at("2026-11-22T06:35:00Z").run("list", "--limit", "6").stdout
            == items + "5. Log 10 Push-Ups — Suggested · usually around 07:30  (com.standfit.logexercise)\n")
        #expect(at("2026-11-22T18:05:00Z").run("list", "--limit", "6").stdout
            == items + "5. Log 10 Push-Ups — Suggested · usually around 19:00  (com.standfit.logexercise)\n")
        #expect(at("2026-11-22T12:15:00Z").run("list", "--limit", "6").stdout == items)
    }

    @Test("quiet hours learned from the runs (issue 51): 10 runs over 4 days between 07:30 and 21:00 make 21:30-07:30, said by suggestions and the offer; a 07:30 habit is offered; config.json's own hours win")
    func learnedQuietHours() throws {
        for day in 18...21 {
            #expect(at("2026-11-\(day)T06:30:00Z").run("run", "logexercise", "exercise=squats", "count=20").status == 0)
            #expect(at("2026-11-\(day)T20:00:00Z").run("run", "viewstreak").status == 0)
        }
        #expect(at("2026-11-20T11:00:00Z").run("run", "viewprogress").status == 0)
        #expect(at("2026-11-21T11:30:00Z").run("run", "viewprogress").status == 0)
        #expect(at("2026-11-22T06:35:00Z").run("suggestions") == ProcessResult(status: 0, stdout: """
            Suggestions come as notifications: off; 'standfit-host suggestions on' turns them on (quiet hours 21:30-07:30 (learned from your runs), at most 3 a day).
            Offered today: 0.

            """, stderr: ""))
        let status = try JSONSerialization.jsonObject(with: Data(at("2026-11-22T06:35:00Z").run("suggestions", "--json").stdout.utf8)) as? [String: Any]
        #expect(status?["quietHours"] as? String == "21:30-07:30" && status?["quietHoursLearned"] as? Bool == true, "\(String(describing: status))")
        #expect(at("2026-11-22T22:00:00Z").run("suggestions", "offer", "--dry-run").stdout
            == "Nothing offered: 23:00 is in the quiet hours (21:30-07:30, learned from your runs; suggestionQuietHours in config.json sets others).\n")
        // 07:30, which a fixed 22:00-08:00 kept quiet: the habit is offered.
        #expect(at("2026-11-22T06:30:00Z").run("suggestions", "offer", "--dry-run").stdout == "Would offer: Log 20 Squats (usually around 07:30).\n")
        standFit.writeConfig(#"{"suggestionQuietHours": "22:00-08:00"}"#)
        #expect(at("2026-11-22T06:30:00Z").run("suggestions", "offer", "--dry-run").stdout
            == "Nothing offered: 07:30 is in the quiet hours (22:00-08:00, suggestionQuietHours in config.json).\n")
    }

    @Test("a log moved aside starts afresh with ids from 1, and undoing its first entry withdraws only that entry's donation, not the old log's first", .needs(.sqlite3))
    func logStartedAfresh() throws {
        #expect(standFit.run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        standFit.server.stopAll()
        let log = standFit.dataHome.appendingPathComponent("standfit/data/com.standfit/standfit.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: log.path + suffix) {
            try FileManager.default.moveItem(atPath: log.path + suffix, toPath: log.path + ".old" + suffix)
        }
        // A log of its own: its first entry is a first log again.
        #expect(standFit.run("run", "logexercise", "exercise=plank", "count=30").stdout == "Logged 30 seconds of plank · +6 XP\nAchievement unlocked: First log\n")
        #expect(standFit.run("run", "history") == ProcessResult(status: 0, stdout: "Logged in the last 7 days:\n#1  Sun 22 Nov 14:05  30 seconds of plank\n", stderr: ""))
        #expect(standFit.run("run", "undo").status == 0)
        // The squats of the old log still count toward suggestions; the undone plank does not.
        #expect(standFit.run("donations") == ProcessResult(status: 0, stdout: """
            2026-11-22 14:05:00  com.standfit.logexercise  count=20  exercise=squats
            2026-11-22 14:05:00  com.standfit.history

            """, stderr: ""))
    }

    @Test("an undone or deleted log is no suggestion material: its donation is withdrawn (standfit.donations/1); donations names types as run does, in local time, with numbers as numbers", .needs(.sqlite3))
    func withdrawnDonations() throws {
        #expect(at("2026-11-20T07:00:00Z").run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(at("2026-11-21T07:00:00Z").run("run", "logexercise", "exercise=squats", "count=20").status == 0)
        #expect(at("2026-11-21T07:01:00Z").run("run", "logexercise", "exercise=plank", "count=60").status == 0)
        // Each named by the log's own id and the entry: "log/<store>/<entry>".
        let store = try #require(standFit.query(.standFit, "SELECT value FROM meta WHERE key = 'storeID'").first)
        #expect(store.count == 8 && store.allSatisfy(\.isHexDigit))
        #expect(standFit.query(.state, "SELECT plugin, effect FROM donation ORDER BY id")
            == ["com.standfit|log/\(store)/1", "com.standfit|log/\(store)/2", "com.standfit|log/\(store)/3"])
        // Undo removes log 3 and withdraws its donation; deletelog removes log 1 and its donation.
        #expect(at("2026-11-21T07:02:00Z").run("run", "undo").status == 0)
        #expect(at("2026-11-21T07:03:00Z").run("run", "deletelog", "id=1").status == 0)
        #expect(standFit.run("donations") == ProcessResult(status: 0, stdout: """
            2026-11-21 08:00:00  com.standfit.logexercise  count=20  exercise=squats

            """, stderr: ""))
        #expect(at("2026-11-22T07:00:00Z").run("suggest") == ProcessResult(status: 0, stdout: """
            1. Log 20 Squats  (com.standfit.logexercise count=20 exercise=squats)  score 2.64
               ran 1 time (frequency 0.96); last 24 h ago (recency 0.71); usually around 08:00, now 08:00 (time of day 1.00)

            """, stderr: ""))
        #expect(at("2026-11-22T07:00:00Z").run("suggest").stdout == """
            1. Log 20 Squats  (com.standfit.logexercise count=20 exercise=squats)  score 2.64
               ran 1 time (frequency 0.96); last 24 h ago (recency 0.71); usually around 08:00, now 08:00 (time of day 1.00)

            """)
        // --json: the count is a number, the time has the user's UTC offset.
        struct Document: Decodable {
            struct Entry: Decodable {
                struct Values: Decodable { var count: Int; var exercise: String }
                var date: String
                var parameters: Values
            }
            var donations: [Entry]
        }
        let document = try JSONDecoder().decode(Document.self, from: Data(standFit.run("donations", "--json").stdout.utf8))
        #expect(document.donations.map(\.date) == ["2026-11-21T08:00:00+01:00"])
        #expect(document.donations.map(\.parameters.count) == [20])
        let suggested = standFit.run("suggest", "--json").stdout
        #expect(suggested == """
            {
              "suggestions" : [
                {
                  "frequency" : 0.96,
                  "lastRun" : "2026-11-21T08:00:00+01:00",
                  "parameters" : {
                    "count" : 20,
                    "exercise" : "squats"
                  },
                  "reasons" : "ran 1 time (frequency 0.96); last 30 h ago (recency 0.65); usually around 08:00, now 14:05 (time of day 0.00)",
                  "recency" : 0.65,
                  "runs" : 1,
                  "score" : 1.6,
                  "timeOfDay" : 0,
                  "title" : "Log 20 Squats",
                  "type" : "com.standfit.logexercise",
                  "usualTime" : "08:00"
                }
              ]
            }

            """)
        // Names as run takes them: a last component in any case; an action whose runs are never recorded says so.
        #expect(standFit.run("donations", "list", "--type", "LogExercise").stdout == "2026-11-21 08:00:00  com.standfit.logexercise  count=20  exercise=squats\n")
        #expect(standFit.run("donations", "clear", "undo") == ProcessResult(status: 0, stdout: """
            Forgot 0 runs of com.standfit.undo (Undo Last Change); it is not suggestion material, so its runs are not recorded.

            """, stderr: ""))
        #expect(standFit.run("donations", "clear", "squatz") == ProcessResult(status: 2, stdout: "", stderr: """
            standfit-host: Unknown shortcut type 'squatz'; run 'standfit-host list --all' to see the types there are.

            """))
        #expect(standFit.run("donations", "clear", "com.standfit.LOGEXERCISE", "--json").stdout == """
            {
              "message" : "Forgot 1 run of com.standfit.logexercise (Log Exercise).",
              "removed" : 1,
              "type" : "com.standfit.logexercise"
            }

            """)
    }

    @Test("say: a timed exercise's time with its unit (issue 35): a minute, 30 seconds, two minutes, een minuut; a counted exercise refuses a time in words; seconds and minutes together are refused")
    func durations() {
        #expect(standFit.run("say", "log a minute of plank")
            == ProcessResult(status: 0, stdout: "Logged 60 seconds of plank · +12 XP\nAchievement unlocked: First log\n", stderr: ""))
        #expect(standFit.run("say", "log 30 seconds of plank").stdout == "Logged 30 seconds of plank · +6 XP\n")
        #expect(standFit.run("say", "do two minutes of wall sit").stdout == "Logged 120 seconds of wall sit · +24 XP\n")
        #expect(standFit.run("say", "noteer een minuut plank", "--locale", "nl").stdout == "60 seconden plank gelogd · +12 XP\n")
        #expect(standFit.run("say", "log a minute of plank", "--dry-run").stdout == """
            Log Exercise (com.standfit.logexercise) would run with:
              exercise = plank (Plank)  [phrase]
              count    = 60  [value-default]
              seconds  = (not set)
              minutes  = 1  [phrase]
              note     = (not set)
              at       = (not set)
            Nothing ran (--dry-run).

            """)
        #expect(standFit.run("say", "log a minute of squats") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: minutes: squats are counted, not timed; say how many, such as 'log 15 squats'.

            """))
        #expect(standFit.run("say", "noteer twee minuten squats", "--locale", "nl") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: minutes: squats worden geteld, niet getimed; zeg hoeveel, zoals 'noteer 15 squats'.

            """))
        #expect(standFit.run("run", "logexercise", "exercise=plank", "seconds=45", "minutes=1")
            == ProcessResult(status: 3, stdout: "", stderr: "standfit-host: minutes: give seconds or minutes, not both.\n"))
        // "log 20 squats" is still a count, and "log a squat" one.
        #expect(standFit.run("say", "log a squat").stdout == "Logged 1 squat · +1 XP\n")
    }

    @Test("a routine's title by language (issue 35): shown in the run's language, said in any")
    func routineTitles() throws {
        let shortcuts = standFit.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: shortcuts, withIntermediateDirectories: true)
        try Data(#"{"type": "user.evening", "title": {"en": "Evening stretch", "nl": "Avondrek"}, "subtitle": {"en": "Two minutes", "nl": "Twee minuten"}, "steps": [{"type": "com.standfit.logexercise", "parameters": {"exercise": "stretching", "count": 120}}]}"#.utf8)
            .write(to: shortcuts.appendingPathComponent("evening.json"))
        #expect(standFit.run("list", "--app", "user") == ProcessResult(status: 0, stdout: "1. Evening stretch — Two minutes  (user.evening)\n", stderr: ""))
        #expect(standFit.run("list", "--app", "user", "--locale", "nl_BE").stdout == "1. Avondrek — Twee minuten  (user.evening)\n")
        #expect(standFit.run("say", "avondrek") == ProcessResult(status: 0, stdout: """
            Logged 120 seconds of stretching · +12 XP
            Achievement unlocked: First log
            Evening stretch: ran 1 step.

            """, stderr: ""))
        #expect(standFit.run("say", "evening stretch", "--locale", "nl").stdout == "120 seconden rekken gelogd · +12 XP\nAvondrek: 1 stap uitgevoerd.\n")
        // A language of neither falls back to English; an empty title in any language is refused.
        #expect(standFit.run("list", "--app", "user", "--locale", "de").stdout == "1. Evening stretch — Two minutes  (user.evening)\n")
        try Data(#"{"type": "user.blank", "title": {"en": "Blank", "nl": " "}, "steps": [{"type": "com.standfit.viewstreak"}]}"#.utf8)
            .write(to: shortcuts.appendingPathComponent("blank.json"))
        #expect(standFit.run("list", "--app", "user").stderr == """
            standfit-host: warning: Shortcut \(shortcuts.path)/blank.json has an empty title; give it one to show in menus.

            """)
    }

    @Test("routines: listed, run step by step with each outcome, stopped by a failing step unless it continues")
    func routines() throws {
        let shortcuts = standFit.configDirectory.appendingPathComponent("shortcuts")
        try FileManager.default.createDirectory(at: shortcuts, withIntermediateDirectories: true)
        func write(_ name: String, _ json: String) throws {
            try Data(json.utf8).write(to: shortcuts.appendingPathComponent(name))
        }
        try write("morning.json", #"{"type": "user.morning", "title": "Morning routine", "steps": [{"type": "com.standfit.logexercise", "parameters": {"exercise": "stretching", "count": 1}}, {"type": "com.standfit.viewstreak"}]}"#)
        #expect(standFit.run("list").stdout == "Shortcuts (user)\n1. Morning routine  (user.morning)\n\nStandFit (com.standfit)\n2. Log Exercise  (com.standfit.logexercise)\n")
        #expect(standFit.run("run", "morning") == ProcessResult(status: 0, stdout: """
            Logged 1 second of stretching · +1 XP
            Achievement unlocked: First log
            Streak: 1 day
            Best streak: 1 day · level 1 · 1 XP
            Morning routine: ran 2 steps.

            """, stderr: ""))
        // One habit, one donation: the routine, not each of its steps.
        #expect(standFit.run("donations").stdout == "2026-11-22 14:05:00  user.morning\n")
        // Said by its title, in any language: the title is a phrase of its own.
        #expect(standFit.run("say", "morning routine", "--dry-run").stdout == """
            Log Exercise (com.standfit.logexercise) would run with:
              exercise = stretching (Stretching)  [argument]
              count    = 1  [argument]
              seconds  = (not set)
              minutes  = (not set)
              note     = (not set)
              at       = (not set)
            Nothing ran (--dry-run).
            View Streak (com.standfit.viewstreak) would run with:
              no parameters
            Nothing ran (--dry-run).
            Morning routine: would run 2 steps.

            """)
        #expect(standFit.run("say", "Morning Routine", "--locale", "nl", "--dry-run").status == 0)
        let json = standFit.run("run", "user.morning", "--json").stdout
        #expect(json == #"""
            {
              "message" : "Morning routine: ran 2 steps.",
              "status" : "handled",
              "steps" : [
                {
                  "data" : {
                    "count" : 1,
                    "exercise" : "stretching",
                    "id" : 2,
                    "loggedAt" : "2026-11-22T13:05:00Z",
                    "progress" : {
                      "level" : 1,
                      "takenBack" : [

                      ],
                      "totalXP" : 2,
                      "unlocked" : [

                      ],
                      "xp" : 1
                    },
                    "unit" : "seconds"
                  },
                  "message" : "Logged 1 second of stretching · +1 XP",
                  "plugin" : "com.standfit",
                  "status" : "handled",
                  "type" : "com.standfit.logexercise"
                },
                {
                  "data" : {
                    "best" : 1,
                    "days" : 1,
                    "includesToday" : true,
                    "level" : 1,
                    "xp" : 2
                  },
                  "message" : "Streak: 1 day\nBest streak: 1 day · level 1 · 2 XP",
                  "plugin" : "com.standfit",
                  "status" : "handled",
                  "type" : "com.standfit.viewstreak"
                }
              ],
              "type" : "user.morning"
            }

            """#)

        try write("morning.json", #"{"type": "user.morning", "title": "Morning routine", "steps": [{"type": "com.standfit.logexercise", "parameters": {"exercise": "yoga"}}, {"type": "com.standfit.viewstreak"}]}"#)
        #expect(standFit.run("run", "morning") == ProcessResult(status: 3, stdout: "", stderr: """
            standfit-host: Morning routine stopped at step 1 of 2 (com.standfit.logexercise): exercise: no exercise is called 'yoga'; choose one of stretching, squats, pushups, plank, lunges, calfraises, jumpingjacks, wallsit, burpees, situps.

            """))
        try write("morning.json", #"{"type": "user.morning", "title": "Morning routine", "steps": [{"type": "com.standfit.logexercise", "parameters": {"exercise": "yoga"}, "continueOnFailure": true}, {"type": "com.standfit.viewstreak"}]}"#)
        let continued = standFit.run("run", "morning")
        #expect(continued.status == 0)
        #expect(continued.stdout == "Streak: 1 day\nBest streak: 1 day · level 1 · 2 XP\nMorning routine: ran 2 steps; step 1 did not succeed and was passed over.\n")

        try write("bad.json", #"{"type": "user.bad", "title": "Bad", "steps": [{"type": "com.standfit.viewstreak"}, {"type": "com.standfit.viewstreek"}]}"#)
        try write("count.json", #"{"type": "user.count", "title": "Count", "steps": [{"type": "com.standfit.logexercise", "parameters": {"count": "many"}}]}"#)
        try write("loop.json", #"{"type": "user.loop", "title": "Loop", "steps": [{"type": "user.loop"}]}"#)
        try write("notes.json", #"{"type": "user.notes"}"#)
        let directory = shortcuts.path
        // Files that are not routines are reported first, then the steps of the others.
        #expect(standFit.run("run", "bad") == ProcessResult(status: 2, stdout: "", stderr: """
            standfit-host: warning: Shortcut \(directory)/notes.json is not a routine (title is missing); write it as {"type": "user.name", "title": "…", "steps": [{"type": "…"}]}.
            standfit-host: warning: Shortcut \(directory)/bad.json, step 2 names unknown shortcut type 'com.standfit.viewstreek' (did you mean com.standfit.viewstreak?); write a full type from 'standfit-host list --all'.
            standfit-host: warning: Shortcut \(directory)/count.json, step 1: count expects an integer, got "many"; fix the value.
            standfit-host: warning: Shortcut \(directory)/loop.json, step 1: routine 'user.loop' leads back to 'user.loop', which would never end; remove the loop.
            standfit-host: Unknown shortcut type 'bad'; run 'standfit-host list --all' to see the types there are.

            """))
    }
}
