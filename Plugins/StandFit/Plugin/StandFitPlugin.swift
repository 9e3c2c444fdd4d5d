// StandFit — the bundled plugin: log exercise from a quick action, keep a streak, see the week.
//
//     standfit-host run logexercise exercise=squats count=20     → Logged 20 squats
//     standfit-host run loglast | viewstreak | viewprogress | undo
//
// The log lives in SQLite (GRDB) in the plugin's data directory; words come from
// Localization/<language>.lproj/Localizable.strings (English and Dutch).
import Foundation
import PluginAPI
import StandFitCore

enum StandFit: Plugin, DynamicItemsProvider {
    static let id = "com.standfit"
    static let name = "StandFit"
    static let version = "1.0.0"
    static let actions: [any ShortcutAction.Type] = [
        LogExercise.self, LogLast.self, ViewStreak.self, ViewProgress.self, Undo.self, Redo.self,
        History.self, DeleteLog.self, EditLog.self, Achievements.self, Export.self, Import.self,
        AddExercise.self, RenameExercise.self, HideExercise.self, SetGoal.self, GoalReminder.self,
    ]

    /// The default manifest: "Log Exercise", always shown. The rest depends on what is logged
    /// (`dynamicItems`), as in seed UX29.
    static var staticItems: [ShortcutItem] {
        let text = Environment.text(language: Environment.hostLanguage)
        return [
            ShortcutItem(type: StandFitTypes.logExercise, title: text("action.logexercise.title"), icon: "plus.circle.fill"),
        ]
    }

    static func dynamicItems(_ context: ProviderContext) throws -> [ShortcutItem] {
        try Environment.app(language: context.locale).dynamicItems()
    }
}

@_cdecl("standfit_plugin_entry_v1")
public func standfitPluginEntry() -> UnsafePointer<standfit_plugin_entry>? { export(StandFit.self) }
