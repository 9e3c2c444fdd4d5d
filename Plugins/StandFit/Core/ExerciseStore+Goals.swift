import Foundation
import GRDB

/// The user's goals, with their history (the `goal` table).
extension ExerciseStore {
    /// Every goal ever set, the ones that hold and the ones changed or removed, oldest first.
    public func goals() throws -> [Goal] {
        try pools.reader().read { db in try ExerciseStore.goals(db) }
    }

    static func goals(_ db: Database) throws -> [Goal] {
        guard try db.tableExists("goal") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT * FROM goal ORDER BY since, id").compactMap { row in
            guard let per = Goal.Per(rawValue: row["per"] ?? "") else { return nil }
            let exercise: String = row["exercise"]
            return Goal(exercise: exercise.isEmpty ? nil : exercise, per: per, count: row["count"], since: row["since"], until: row["until"])
        }
    }

    /// Sets the goal `key` to `count` at `now` (0 removes it): the goal that held is kept as
    /// changed at `now`, and the XP, states and achievements are folded again under the new
    /// goals (`rules(goals)` gives the rules for them). The goal that held before, or nil, and
    /// the progression before and after (a goal met already earns its achievement at once).
    @discardableResult
    public func setGoal(_ key: Goal.Key, count: Int, now: Date, rules: @escaping ([Goal]) -> Rules) throws
        -> (holding: Goal?, progression: ProgressionChange) {
        // Not through `write`: its rules are the ones before the change, and these are after it.
        let writer = try pools.writer()
        let written = try writer.write { db -> (Goal?, ProgressionChange) in
            let before = try ProgressDays.progression(db, rules(try ExerciseStore.goals(db)))
            let holding = try ExerciseStore.goals(db).last { $0.key == key && $0.until == nil }
            try db.execute(sql: "UPDATE goal SET until = ? WHERE exercise = ? AND per = ? AND until IS NULL",
                           arguments: [now, key.exercise ?? "", key.per.rawValue])
            if count > 0 {
                try db.execute(sql: "INSERT INTO goal (exercise, per, count, since) VALUES (?, ?, ?, ?)",
                               arguments: [key.exercise ?? "", key.per.rawValue, count, now])
            }
            // Achievements follow goals: fold the log again under the goals as they are now.
            let after = rules(try ExerciseStore.goals(db))
            let state = try ProgressDays.update(db, touched: [], rules: after)
            return (holding, (before, Progression(state: state, catalogue: after.catalogue, goals: !after.goals.isEmpty)))
        }
        _ = try? writer.writeWithoutTransaction { db in try db.checkpoint(.passive) }
        return written
    }
}
