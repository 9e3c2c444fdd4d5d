import Foundation
import PluginAPI

/// XP, levels and achievements in what StandFit answers: the change a log, undo or correction
/// made, `achievements`, and the best streak and level under `viewstreak`.
extension StandFitApp {
    /// How the store derives XP and achievements: the user's calendar and StandFit's own
    /// catalogue (the user's own exercises earn a point per rep or ten seconds, and "Every
    /// exercise tried" means StandFit's ten; adding or hiding one replays nothing).
    /// Without goals: the store reads them inside each change's (and each read's) transaction,
    /// so a change is folded under the goals it is made under, and nothing reads them twice.
    public var rules: ExerciseStore.Rules { rules(goals: []) }

    /// The rules with `goals` (a replay of the log outside the store needs them).
    public func rules(goals: [Goal]) -> ExerciseStore.Rules {
        let standard = Set(ExerciseCatalogue.standard.exercises.map(\.id))
        let timed = (catalogue.exercises + catalogue.hidden).filter { $0.unit == .seconds && !standard.contains($0.id) }.map(\.id)
        return ExerciseStore.Rules(calendar: clock.calendar, catalogue: .standard, timed: Set(timed), goals: goals)
    }

    /// What a change did, as `logexercise`, `undo`, `deletelog` and `editlog` return it in their data.
    public struct ProgressChange: Encodable, Sendable, Equatable {
        /// XP gained by the change; negative when it took XP back.
        public var xp: Int
        public var totalXP: Int
        public var level: Int
        /// Ids of the achievements it earned and took back.
        public var unlocked: [String]
        public var takenBack: [String]
    }

    /// The change one write made, or nil when the store did not derive one.
    func progressChange(_ progression: ExerciseStore.ProgressionChange?) -> (Progression.Change, ProgressChange)? {
        guard let (before, after) = progression else { return nil }
        let change = Progression.change(from: before, to: after)
        return (change, ProgressChange(xp: change.xp, totalXP: after.totalXP, level: after.level,
                                       unlocked: change.unlocked, takenBack: change.takenBack))
    }

    /// `sentence` with the XP it gained or took back ("Logged 20 squats · +24 XP"), then a line
    /// per achievement earned or taken back and for a level reached.
    /// A note goes last on the first line ("… · +24 XP — felt good").
    func announce(_ sentence: String, _ change: Progression.Change?, note: String? = nil) -> String {
        let note = note.map { " — \(StandFitText.oneLine($0))" } ?? ""
        guard let change else { return sentence + note }
        var lines = [sentence + (change.xp > 0 ? text("xp.gained", ["xp": "\(change.xp)"])
                                 : change.xp < 0 ? text("xp.lost", ["xp": "\(-change.xp)"]) : "") + note]
        lines += change.unlocked.map { text("achievement.unlocked", ["title": achievementTitle($0)]) }
        lines += change.takenBack.map { text("achievement.takenBack", ["title": achievementTitle($0)]) }
        if let level = change.newLevel { lines.append(text("level.reached", ["level": "\(level)"])) }
        return lines.joined(separator: "\n")
    }

    func achievementTitle(_ id: String) -> String { text("achievement.\(id).title") }

    /// The line under the streak: best streak, level and XP; nil before anything is logged.
    func bestStreakLine(_ progression: Progression) -> String? {
        guard progression.bestStreak > 0 else { return nil }
        return text("streak.best", ["days": text.days(progression.bestStreak), "level": "\(progression.level)",
                                    "xp": "\(progression.totalXP)"])
    }

    /// What `achievements` returns as data.
    public struct AchievementsReport: Encodable, Sendable {
        public struct Item: Encodable, Sendable {
            public var id: String
            public var title: String
            public var progress: Int
            public var target: Int
            public var earnedAt: Date?
        }
        public var level: Int
        public var xp: Int
        public var xpToNextLevel: Int
        public var bestStreak: Int
        public var earned: [Item]
        public var next: [Item]
    }

    /// `achievements`: level and XP, the achievements earned (with the day), and the next ones
    /// with how far the log is.
    public func achievements() throws -> ActionResult {
        let progression = try store.progression(rules)
        let items = progression.achievements.map { achievement in
            AchievementsReport.Item(id: achievement.id, title: achievementTitle(achievement.id),
                                    progress: achievement.progress, target: achievement.target,
                                    earnedAt: achievement.earnedAt)
        }
        let report = AchievementsReport(level: progression.level, xp: progression.totalXP,
                                        xpToNextLevel: progression.xpToNextLevel, bestStreak: progression.bestStreak,
                                        earned: items.filter { $0.earnedAt != nil }, next: items.filter { $0.earnedAt == nil })
        var lines = [text("achievements.header", ["level": "\(progression.level)", "xp": "\(progression.totalXP)",
                                                  "next": "\(progression.xpToNextLevel)", "nextLevel": "\(progression.level + 1)"])]
        if !report.earned.isEmpty {
            lines.append(text("achievements.earned"))
            let now = clock.now()
            lines += report.earned.map { "✓ \($0.title) · \(text.day($0.earnedAt ?? now, now: now))" }
        }
        if !report.next.isEmpty {
            lines.append(text("achievements.next"))
            let width = report.next.map(\.title.count).max() ?? 0
            lines += report.next.map { "· \($0.title.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.progress)/\($0.target)" }
        }
        return .handled(lines.joined(separator: "\n"), data: report)
    }
}
