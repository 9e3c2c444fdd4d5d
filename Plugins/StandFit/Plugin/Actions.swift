import PluginAPI
import StandFitCore

/// Titles are read while the plugin registers, in the language of the run.
private func localizedTitle(_ key: String) -> String {
    Environment.text(language: Environment.hostLanguage)(key)
}

struct LogExercise: ShortcutAction {
    static let type = StandFitTypes.logExercise
    static var title: String { localizedTitle("action.logexercise.title") }
    static var subtitle: String? { localizedTitle("action.logexercise.subtitle") }
    static let icon: String? = "plus.circle.fill"

    @Parameter(title: "Exercise") var exercise: String
    @Parameter(title: "Count") var count: Int?
    @Parameter(title: "Note") var note: String?

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).logExercise(exercise, count: count, note: note)
    }
}

struct LogLast: ShortcutAction {
    static let type = StandFitTypes.logLast
    static var title: String { localizedTitle("action.loglast.title") }
    static let icon: String? = "arrow.clockwise"

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).logLast()
    }
}

struct ViewStreak: ShortcutAction {
    static let type = StandFitTypes.viewStreak
    static var title: String { localizedTitle("action.viewstreak.title") }
    static let icon: String? = "flame.fill"

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).viewStreak()
    }
}

struct ViewProgress: ShortcutAction {
    static let type = StandFitTypes.viewProgress
    static var title: String { localizedTitle("action.viewprogress.title") }
    static let icon: String? = "chart.bar.fill"

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).viewProgress()
    }
}

struct Undo: ShortcutAction {
    static let type = StandFitTypes.undo
    static var title: String { localizedTitle("action.undo.title") }
    static let icon: String? = "arrow.uturn.backward"

    func perform(_ context: ActionContext) throws -> ActionResult {
        try Environment.app(language: context.locale).undo()
    }
}
