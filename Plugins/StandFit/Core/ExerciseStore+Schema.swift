import GRDB

/// The log's schema, one migration per change, each applied once and in order.
extension ExerciseStore {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: LogEntry.databaseTableName) { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("exercise", .text).notNull()
                table.column("count", .integer).notNull().check { $0 > 0 }
                table.column("note", .text)
                table.column("loggedAt", .datetime).notNull().indexed()
            }
        }
        migrator.registerMigration("v2") { db in
            // XP and achievements, kept beside the log they are derived from (Progression):
            // each entry's XP, and each achievement earned with when and by which entry. The
            // first change after this migration fills them in.
            try db.alter(table: LogEntry.databaseTableName) { table in
                table.add(column: "xp", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "achievement") { table in
                table.primaryKey("id", .text)
                table.column("earnedAt", .datetime).notNull()
                table.column("entryId", .integer)
            }
        }
        migrator.registerMigration("v3") { db in
            // The replay's state after each logged local day (ExerciseStore+Progress), and the
            // zone and rules they hold for. Empty until the first change fills them.
            try db.create(table: "progressDay") { table in
                table.primaryKey("day", .double)
                table.column("state", .text).notNull()
            }
            try db.create(table: "progressRules") { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("signature", .text).notNull()
            }
            // Each exercise's latest log in one lookup (the menu's "Log ⟨exercise⟩" counts).
            try db.create(index: "log_exercise_loggedAt", on: LogEntry.databaseTableName, columns: ["exercise", "loggedAt", "id"])
        }
        migrator.registerMigration("v4") { db in
            // This database's own id, in the names of its logs' donations ("log/<id>/42"): a log
            // moved aside and started afresh numbers its entries from 1 again, and undoing the new
            // entry 1 must not withdraw the old one's donation. A log that has entries already
            // keeps the names its donations were given ("log/42"): its id is empty.
            try db.create(table: "meta") { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()
            }
            try db.execute(sql: """
                INSERT INTO meta (key, value) VALUES ('storeID',
                    CASE WHEN EXISTS (SELECT 1 FROM log) THEN '' ELSE lower(hex(randomblob(4))) END)
                """)
        }
        migrator.registerMigration("v5") { db in
            // The changes the user made, for undo and redo (ExerciseStore+Journal): what each
            // removed or replaced (`before`), and the ids it added or replaced (`addedFirst` to
            // `addedLast`); once undone, those rows as they were (`after`), for redo.
            try db.create(table: "change") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("kind", .text).notNull()
                table.column("label", .text)
                table.column("before", .text).notNull()
                table.column("addedFirst", .integer)
                table.column("addedLast", .integer)
                table.column("after", .text)
                table.column("undone", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("v6") { db in
            // The user's own exercises, and the catalogue's exercises the user renamed or hid
            // (ExerciseStore+Exercises): `name` nil keeps the catalogue's names.
            try db.create(table: "exercise") { table in
                table.primaryKey("id", .text)
                table.column("name", .text)
                table.column("unit", .text)
                table.column("defaultCount", .integer)
                table.column("icon", .text)
                table.column("hidden", .boolean).notNull().defaults(to: false)
                table.column("custom", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("v7") { db in
            // Goals (ExerciseStore+Goals): an amount of one exercise (`exercise`), or of every
            // exercise counted in reps (`exercise` empty), per day or week; kept with when each
            // was set and changed or removed, so past days are measured against the goal of then.
            try db.create(table: "goal") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("exercise", .text).notNull()
                table.column("per", .text).notNull()
                table.column("count", .integer).notNull().check { $0 > 0 }
                table.column("since", .datetime).notNull()
                table.column("until", .datetime)
            }
        }
        migrator.registerMigration("v8") { db in
            // An exercise's name per language (`{"nl": "kniebuigingen"}`), over `name`.
            try db.alter(table: "exercise") { table in
                table.add(column: "names", .text)
            }
        }
        return migrator
    }
}
