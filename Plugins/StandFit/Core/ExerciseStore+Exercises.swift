import Foundation
import GRDB

/// The user's own exercises, and the catalogue's ones renamed or hidden (the `exercise` table).
extension ExerciseStore {
    /// One row of the `exercise` table: an exercise of the user's own (`custom`), or what the
    /// user changed of one of the catalogue's (its name, or hidden).
    public struct ExerciseSetting: Sendable, Equatable {
        public var id: String
        /// The user's name for it; nil keeps the catalogue's names.
        public var name: String?
        /// The user's name for it in a language (by code: `nl`), which wins over `name` there.
        public var names: [String: String] = [:]
        public var unit: Exercise.Unit
        public var defaultCount: Int
        public var icon: String
        public var hidden: Bool
        public var custom: Bool

        public init(id: String, name: String?, unit: Exercise.Unit, defaultCount: Int, icon: String, hidden: Bool = false,
                    custom: Bool) {
            self.id = id
            self.name = name
            self.unit = unit
            self.defaultCount = defaultCount
            self.icon = icon
            self.hidden = hidden
            self.custom = custom
        }
    }

    /// Every row, the user's own exercises in the order they were added.
    public func exerciseSettings() throws -> [ExerciseSetting] {
        try pools.reader().read { db in
            guard try db.tableExists("exercise") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT * FROM exercise ORDER BY rowid").map { row in
                var setting = ExerciseSetting(id: row["id"], name: row["name"], unit: Exercise.Unit(rawValue: row["unit"] ?? "") ?? .reps,
                                              defaultCount: row["defaultCount"] ?? 10, icon: row["icon"] ?? "", hidden: row["hidden"],
                                              custom: row["custom"])
                if let names: String = row["names"] {
                    setting.names = (try? JSONDecoder().decode([String: String].self, from: Data(names.utf8))) ?? [:]
                }
                return setting
            }
        }
    }

    /// Writes `setting` (a new exercise of the user's own, or a change to one); false when
    /// `insertOnly` and an exercise with its id exists.
    @discardableResult
    public func save(_ setting: ExerciseSetting, insertOnly: Bool = false) throws -> Bool {
        try pools.writer().write { db in
            if insertOnly, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM exercise WHERE id = ?)", arguments: [setting.id]) == true {
                return false
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let names = setting.names.isEmpty ? nil : String(decoding: try encoder.encode(setting.names), as: UTF8.self)
            try db.execute(sql: """
                INSERT OR REPLACE INTO exercise (id, name, unit, defaultCount, icon, hidden, custom, names) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [setting.id, setting.name, setting.unit.rawValue, setting.defaultCount, setting.icon,
                                 setting.hidden, setting.custom, names])
            return true
        }
    }
}

extension ExerciseStore.ExerciseSetting {
    /// Its name in `language`: the one given for that language, else the one for every language.
    public func name(in language: String) -> String? {
        names[language] ?? name
    }
}

extension ExerciseCatalogue {
    /// The catalogue with the user's settings: their own exercises after the catalogue's, and
    /// hidden ones kept apart (still known by name, for the logs that name them, but not offered).
    public func with(_ settings: [ExerciseStore.ExerciseSetting]) -> ExerciseCatalogue {
        var catalogue = self
        let byID = Dictionary(settings.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        var shown: [Exercise] = [], hidden: [Exercise] = []
        for exercise in exercises {
            if byID[exercise.id]?.hidden == true { hidden.append(exercise) } else { shown.append(exercise) }
        }
        for setting in settings where setting.custom && exercises.allSatisfy({ $0.id != setting.id }) {
            let exercise = Exercise(id: setting.id, unit: setting.unit, defaultCount: setting.defaultCount, icon: setting.icon)
            if setting.hidden { hidden.append(exercise) } else { shown.append(exercise) }
        }
        catalogue.exercises = shown
        catalogue.hidden = hidden
        return catalogue
    }
}
