import PluginAPI
import StandFitCore

/// Titles are read while the plugin registers, in the language of the run.
private func localizedTitle(_ key: String) -> String {
    Environment.text(language: Environment.hostLanguage)(key)
}

struct LogExercise: ShortcutAction {
    static let type = StandFitTypes.logExercise
    static var title: String { localizedTitle("action.logexercise.title") }
    static var subtitle: String { localizedTitle("action.logexercise.subtitle") }
    static let icon = "plus.circle.fill"

    static var phrases: [Phrase] { StandFitPhrases.logExercise }

    @Parameter(title: "Exercise", prompt: localizedTitle("prompt.exercise"), entity: Exercises.self)
    var exercise: String
    /// The host checks the range before the handler runs, says it when it asks, and asks again.
    @Parameter(title: "Count", prompt: localizedTitle("prompt.count"), range: 1...StandFitApp.maximumCount) var count: Int?
    /// A timed exercise's time, as people say it: "30 seconds of plank", "a minute of plank".
    @Parameter(title: "Seconds", range: 1...StandFitApp.maximumCount) var seconds: Int?
    @Parameter(title: "Minutes", range: 1...(StandFitApp.maximumCount / 60)) var minutes: Int?
    @Parameter(title: "Note") var note: String?
    /// When it was done, for logging it afterwards: "yesterday 18:00", "2h ago", an ISO 8601 time.
    /// No habit: a suggestion never logs for "yesterday" again.
    @Parameter(title: "At", suggestible: false) var at: String?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).logExercise(exercise, count: count, seconds: seconds, minutes: minutes,
                                                                  note: note, at: at)
    }
}

struct LogLast: ShortcutAction {
    static let type = StandFitTypes.logLast
    static var title: String { localizedTitle("action.loglast.title") }
    static let icon = "arrow.clockwise"
    static var phrases: [Phrase] { StandFitPhrases.logLast }

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).logLast()
    }
}

struct ViewStreak: ShortcutAction {
    static let type = StandFitTypes.viewStreak
    static var title: String { localizedTitle("action.viewstreak.title") }
    static let icon = "flame.fill"
    static var phrases: [Phrase] { StandFitPhrases.viewStreak }

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).viewStreak()
    }
}

struct ViewProgress: ShortcutAction {
    static let type = StandFitTypes.viewProgress
    static var title: String { localizedTitle("action.viewprogress.title") }
    static let icon = "chart.bar.fill"
    static var phrases: [Phrase] { StandFitPhrases.viewProgress }

    /// This week unless asked: a week, a month or a year, `ago` of them back.
    @Parameter(title: "Period", choices: [EntityValue(id: "week", title: localizedTitle("period.week")),
                                          EntityValue(id: "month", title: localizedTitle("period.month")),
                                          EntityValue(id: "year", title: localizedTitle("period.year"))])
    var period: String?
    @Parameter(title: "Ago", range: 0...100) var ago: Int?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).viewProgress(period: period, ago: ago)
    }
}

struct Undo: ShortcutAction {
    /// Corrects a mistake: never suggested.
    static let isSuggestible = false
    static let type = StandFitTypes.undo
    static var title: String { localizedTitle("action.undo.title") }
    static let icon = "arrow.uturn.backward"
    static var phrases: [Phrase] { StandFitPhrases.undo }

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).undo()
    }
}

struct Redo: ShortcutAction {
    /// Corrects a mistake: never suggested.
    static let isSuggestible = false
    static let type = StandFitTypes.redo
    static var title: String { localizedTitle("action.redo.title") }
    static let icon = "arrow.uturn.forward"
    static var phrases: [Phrase] { StandFitPhrases.redo }

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).redo()
    }
}

struct Achievements: ShortcutAction {
    static let type = StandFitTypes.achievements
    static var title: String { localizedTitle("action.achievements.title") }
    static let icon = "star"
    static var phrases: [Phrase] { StandFitPhrases.achievements }

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).achievements()
    }
}

struct History: ShortcutAction {
    static let type = StandFitTypes.history
    static var title: String { localizedTitle("action.history.title") }
    static let icon = "clock"

    @Parameter(title: "Days") var days: Int?
    @Parameter(title: "Exercise", entity: Exercises.self) var exercise: String?
    /// One page of at most this many (the newest first), and how to see the rest.
    @Parameter(title: "Limit", range: 1...10_000) var limit: Int?
    /// The entries older than this one (an id `history` shows).
    @Parameter(title: "Before") var before: Int?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).history(days: days, exercise: exercise, limit: limit, before: before,
                                                                     withData: context.showsData)
    }
}

struct DeleteLog: ShortcutAction {
    /// Corrects a mistake: never suggested; confirmed on a terminal before it deletes.
    static let isSuggestible = false
    static let confirmsBeforeRunning = true
    static let type = StandFitTypes.deleteLog
    static var title: String { localizedTitle("action.deletelog.title") }
    static let icon = "trash"

    /// Without one, the newest logs are listed and the id asked for.
    @Parameter(title: "Id", prompt: localizedTitle("prompt.id")) var id: Int?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).deleteLog(id: id)
    }
}

struct EditLog: ShortcutAction {
    /// Corrects a mistake: never suggested.
    static let isSuggestible = false
    static let type = StandFitTypes.editLog
    static var title: String { localizedTitle("action.editlog.title") }
    static let icon = "square.and.pencil"

    /// Without one, the newest logs are listed and the id asked for.
    @Parameter(title: "Id", prompt: localizedTitle("prompt.id")) var id: Int?
    @Parameter(title: "Count", range: 1...StandFitApp.maximumCount) var count: Int?
    @Parameter(title: "Note") var note: String?
    @Parameter(title: "At") var at: String?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).editLog(id: id, count: count, note: note, at: at)
    }
}

/// The file formats `export` and `import` take.
private var logFormats: [EntityValue] {
    [EntityValue(id: "csv", title: "CSV"), EntityValue(id: "json", title: "JSON")]
}

struct Export: ShortcutAction {
    /// Not a habit to suggest.
    static let isSuggestible = false
    static let type = StandFitTypes.export
    static var title: String { localizedTitle("action.export.title") }
    static let icon = "square.and.arrow.up"

    /// Where to write: a new file or one to replace (a `.json` name writes JSON).
    @Parameter(title: "File", prompt: localizedTitle("prompt.file")) var file: String
    @Parameter(title: "Format", choices: logFormats) var format: String?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).export(file: file, format: format)
    }
}

struct Import: ShortcutAction {
    /// Not a habit to suggest.
    static let isSuggestible = false
    static let type = StandFitTypes.import
    static var title: String { localizedTitle("action.import.title") }
    static let icon = "square.and.arrow.down"

    @Parameter(title: "File", prompt: localizedTitle("prompt.file")) var file: String
    @Parameter(title: "Format", choices: logFormats) var format: String?
    /// Say what would be added, and write nothing.
    @Parameter(title: "Dry run") var dryrun: Bool = false
    /// Import the good rows of a file with bad ones, and list the bad ones.
    @Parameter(title: "Skip bad rows") var skipbad: Bool = false

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).importLog(file: file, format: format, dryRun: dryrun, skipBad: skipbad)
    }
}

struct AddExercise: ShortcutAction {
    static let isSuggestible = false
    static let type = StandFitTypes.addExercise
    static var title: String { localizedTitle("action.addexercise.title") }
    static let icon = "plus.square"
    static var phrases: [Phrase] {
        [Phrase("add an exercise called {name}", language: "en"), Phrase("add exercise {name}", language: "en"),
         Phrase("voeg oefening {name} toe", language: "nl")]
    }

    @Parameter(title: "Name", prompt: localizedTitle("prompt.exerciseName")) var name: String
    @Parameter(title: "Unit", choices: [EntityValue(id: "reps", title: localizedTitle("unit.reps")),
                                        EntityValue(id: "seconds", title: localizedTitle("unit.seconds"))]) var unit: String?
    /// A log's count when none is said (10 reps, or 60 seconds, unless given).
    @Parameter(title: "Count", range: 1...StandFitApp.maximumCount) var count: Int?
    @Parameter(title: "Icon") var icon: String?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).addExercise(name: name, unit: unit, count: count, icon: icon)
    }
}

struct RenameExercise: ShortcutAction {
    static let isSuggestible = false
    static let type = StandFitTypes.renameExercise
    static var title: String { localizedTitle("action.renameexercise.title") }
    static let icon = "pencil"

    @Parameter(title: "Exercise", prompt: localizedTitle("prompt.exercise"), entity: Exercises.self) var exercise: String
    @Parameter(title: "Name", prompt: localizedTitle("prompt.exerciseName")) var name: String
    /// The name in this language only; without it, in every language.
    @Parameter(title: "Language", choices: StandFitApp.languages.map { EntityValue(id: $0, title: localizedTitle("language.\($0)")) })
    var language: String?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).renameExercise(exercise, name: name, language: language)
    }
}

struct HideExercise: ShortcutAction {
    static let isSuggestible = false
    static let type = StandFitTypes.hideExercise
    static var title: String { localizedTitle("action.hideexercise.title") }
    static let icon = "eye"

    @Parameter(title: "Exercise", prompt: localizedTitle("prompt.exercise"), entity: Exercises.self) var exercise: String
    /// false shows it again.
    @Parameter(title: "Hidden") var hidden: Bool = true

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).hideExercise(exercise, hidden: hidden)
    }
}

struct SetGoal: ShortcutAction {
    static let isSuggestible = false
    static let type = StandFitTypes.setGoal
    static var title: String { localizedTitle("action.setgoal.title") }
    static let icon = "target"
    static var phrases: [Phrase] {
        [Phrase("set a goal of {count} {exercise} a {per}", language: "en"), Phrase("my goal is {count} {exercise} a {per}", language: "en"),
         Phrase("set a goal of {count} {exercise}", language: "en"), Phrase("set a goal of {count} reps a {per}", language: "en"),
         Phrase("stel een doel van {count} {exercise} per {per}", language: "nl"), Phrase("mijn doel is {count} {exercise} per {per}", language: "nl"),
         Phrase("stel een doel van {count} {exercise}", language: "nl"), Phrase("stel een doel van {count} herhalingen per {per}", language: "nl")]
    }

    /// Left out (or "all"): every exercise counted in reps, together.
    @Parameter(title: "Exercise", entity: Exercises.self) var exercise: String?
    /// 0 removes the goal.
    @Parameter(title: "Count", prompt: localizedTitle("prompt.goal"), range: 0...StandFitApp.maximumCount) var count: Int
    @Parameter(title: "Per", choices: [EntityValue(id: "day", title: localizedTitle("period.day")),
                                       EntityValue(id: "week", title: localizedTitle("period.week"))]) var per: String?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).setGoal(exercise: exercise, count: count, per: per)
    }
}

/// A reminder that follows the goals: `schedule add --remind '*-*-* 17:00' goalreminder` asks
/// which exercise while a goal is not met, logs what is left of it, and stays quiet once all are met.
struct GoalReminder: ShortcutAction {
    static let isSuggestible = false
    static let type = StandFitTypes.goalReminder
    static var title: String { localizedTitle("action.goalreminder.title") }
    static let icon = "bell"

    /// Left out, the handler asks for it while a goal is not met (the host shows the question).
    @Parameter(title: "Exercise", prompt: localizedTitle("prompt.exercise"), entity: Exercises.self) var exercise: String?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).goalReminder(exercise: exercise)
    }
}

/// StandFit's exercises as an entity: people say "push ups" or "opdrukken" and the action gets
/// "pushups"; asked which one, they see the ones they logged last first.
enum Exercises: EntityQuery {
    static let id = "com.standfit.exercise"
    static var title: String { localizedTitle("entity.exercise.title") }

    static func values(_ context: EntityContext) throws -> [EntityValue] {
        try Environment.app(language: context.locale).exerciseValues()
    }

    static func suggested(_ context: EntityContext) throws -> [EntityValue] {
        try Environment.app(language: context.locale).suggestedExercises()
    }
}

/// What people say to StandFit, in English and Dutch.
enum StandFitPhrases {
    static let logExercise: [Phrase] = [
        Phrase("log {count} {exercise}", language: "en"), Phrase("do {count} {exercise}", language: "en"),
        // Done earlier: "log 20 squats yesterday", "log 20 squats at 18:00", "... 2h ago".
        Phrase("log {count} {exercise} {at}", language: "en"), Phrase("log {count} {exercise} at {at}", language: "en"),
        Phrase("log {count} {exercise} {at}", language: "nl"), Phrase("noteer {count} {exercise} {at}", language: "nl"),
        Phrase("noteer {count} {exercise} om {at}", language: "nl"), Phrase("log {count} {exercise} om {at}", language: "nl"),
        Phrase("log my {exercise}", language: "en"), Phrase("log {exercise}", language: "en"),
        Phrase("log exercise", language: "en"), Phrase("log a workout", language: "en"),
        Phrase("log {count} {exercise}", language: "nl"), Phrase("noteer {count} {exercise}", language: "nl"),
        Phrase("registreer {count} {exercise}", language: "nl"), Phrase("log mijn {exercise}", language: "nl"),
        Phrase("oefening loggen", language: "nl"),
        // With a note, and a time before it: "log 20 squats yesterday at 18:00 with note felt strong".
        Phrase("log {count} {exercise} with note {note}", language: "en"),
        Phrase("log {count} {exercise} {at} with note {note}", language: "en"),
        Phrase("noteer {count} {exercise} met notitie {note}", language: "nl"),
        Phrase("noteer {count} {exercise} {at} met notitie {note}", language: "nl"),
        Phrase("log {count} {exercise} met notitie {note}", language: "nl"),
        // A timed exercise's time with its unit: "log 30 seconds of plank", "a minute of plank"
        // ("a" is one), "noteer een minuut plank".
        Phrase("log {seconds} seconds of {exercise}", language: "en"), Phrase("log {seconds} seconds {exercise}", language: "en"),
        Phrase("log {minutes} minutes of {exercise}", language: "en"), Phrase("log {minutes} minute of {exercise}", language: "en"),
        Phrase("log {minutes} minutes {exercise}", language: "en"), Phrase("log {minutes} minute {exercise}", language: "en"),
        Phrase("do {seconds} seconds of {exercise}", language: "en"), Phrase("do {minutes} minutes of {exercise}", language: "en"),
        Phrase("do {minutes} minute of {exercise}", language: "en"),
        Phrase("noteer {seconds} seconden {exercise}", language: "nl"), Phrase("log {seconds} seconden {exercise}", language: "nl"),
        Phrase("noteer {minutes} minuten {exercise}", language: "nl"), Phrase("noteer {minutes} minuut {exercise}", language: "nl"),
        Phrase("log {minutes} minuten {exercise}", language: "nl"), Phrase("log {minutes} minuut {exercise}", language: "nl"),
    ]
    static let logLast: [Phrase] = [
        Phrase("log the same again", language: "en"), Phrase("log last exercise", language: "en"),
        Phrase("again", language: "en"),
        Phrase("nog een keer", language: "nl"), Phrase("laatste oefening loggen", language: "nl"),
    ]
    static let viewStreak: [Phrase] = [
        Phrase("show my streak", language: "en"), Phrase("what is my streak", language: "en"),
        Phrase("view streak", language: "en"),
        Phrase("toon mijn reeks", language: "nl"), Phrase("reeks bekijken", language: "nl"),
    ]
    static let viewProgress: [Phrase] = [
        Phrase("show my progress", language: "en"), Phrase("how am i doing", language: "en"),
        Phrase("view progress", language: "en"),
        Phrase("show my progress this {period}", language: "en"), Phrase("how was my {period}", language: "en"),
        Phrase("toon mijn voortgang deze {period}", language: "nl"), Phrase("toon mijn voortgang dit {period}", language: "nl"),
        Phrase("hoe was mijn {period}", language: "nl"),
        Phrase("toon mijn voortgang", language: "nl"), Phrase("hoe gaat het", language: "nl"),
        Phrase("voortgang bekijken", language: "nl"),
    ]
    static let achievements: [Phrase] = [
        Phrase("show my achievements", language: "en"), Phrase("view achievements", language: "en"),
        Phrase("achievements", language: "en"), Phrase("what is my level", language: "en"),
        Phrase("toon mijn prestaties", language: "nl"), Phrase("prestaties bekijken", language: "nl"),
        Phrase("prestaties", language: "nl"),
    ]
    static let undo: [Phrase] = [
        Phrase("undo last log", language: "en"), Phrase("undo", language: "en"),
        Phrase("laatste log wissen", language: "nl"), Phrase("ongedaan maken", language: "nl"),
    ]
    static let redo: [Phrase] = [
        Phrase("redo", language: "en"), Phrase("redo the undo", language: "en"),
        Phrase("opnieuw doen", language: "nl"), Phrase("opnieuw uitvoeren", language: "nl"),
    ]
}
