import Foundation
import GRDB

/// One logged set: which exercise, how many (reps or seconds), when, and an optional note.
/// `loggedAt` is an instant; GRDB stores it as UTC text, and days are computed from it in
/// the user's time zone only when read.
public struct LogEntry: Sendable, Equatable, Codable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "log"

    public var id: Int64?
    public var exercise: String
    public var count: Int
    public var note: String?
    public var loggedAt: Date

    public init(id: Int64? = nil, exercise: String, count: Int, note: String? = nil, loggedAt: Date) {
        self.id = id
        self.exercise = exercise
        self.count = count
        self.note = note
        self.loggedAt = loggedAt
    }

    /// Rationale: GRDB reads a record through Codable unless it has this initializer; reading
    /// the columns themselves is what GRDB's guide advises where speed counts (a year of
    /// `history` is 20,000 rows).
    public init(row: Row) throws {
        id = row[Columns.id]
        exercise = row[Columns.exercise]
        count = row[Columns.count]
        note = row[Columns.note]
        loggedAt = row[Columns.loggedAt]
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let loggedAt = Column(CodingKeys.loggedAt)
        static let exercise = Column(CodingKeys.exercise)
        static let count = Column(CodingKeys.count)
        static let note = Column(CodingKeys.note)
    }
}
