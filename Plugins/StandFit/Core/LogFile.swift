import CSV
import Foundation

/// The log as a file, for `export` and `import`: StandFit's own CSV and JSON, and the rows read
/// back from them or from a generic `date,exercise,count[,note]` CSV another app wrote.
///
/// Both formats carry every field a person logged — when (ISO 8601 with the offset of the
/// user's zone at that moment, to the second), which exercise (its id), how many, its unit and
/// the note — and nothing the log derives (ids, XP, achievements), which an import recomputes.
/// A file written by `export` and imported into an empty log exports to the same bytes.
public enum LogFile {
    public enum Format: String, Sendable, CaseIterable {
        case csv, json

        /// The format `name` asks for, else the one the file's extension says (`.json`; CSV
        /// otherwise); nil for a name that is neither.
        public static func of(_ name: String?, file: String) -> Format? {
            if let name { return Format(rawValue: name.lowercased()) }
            return file.lowercased().hasSuffix(".json") ? .json : .csv
        }
    }

    /// The columns of StandFit's CSV, in order.
    public static let columns = ["date", "exercise", "count", "unit", "note"]

    /// What the JSON export's `format` says.
    public static let jsonFormat = "standfit-log"
    public static let jsonVersion = 1

    /// One entry as the files hold it.
    public struct Row: Codable, Sendable, Equatable {
        public var date: String
        public var exercise: String
        public var count: Int
        public var unit: String?
        public var note: String?

        public init(date: String, exercise: String, count: Int, unit: String? = nil, note: String? = nil) {
            self.date = date
            self.exercise = exercise
            self.count = count
            self.unit = unit
            self.note = note
        }
    }

    struct Document: Codable {
        var format: String
        var version: Int
        var entries: [Row]
    }

    /// An instant as the files write it: local time with the offset (`2026-11-22T14:05:00+01:00`;
    /// `Z` in UTC), to the second.
    public static func time(_ date: Date, in zone: TimeZone) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone))
    }

    /// The file `export` writes for `entries` (oldest first), ending in a line break.
    public static func encode(_ entries: [LogEntry], units: (String) -> Exercise.Unit?, format: Format,
                              zone: TimeZone) throws -> Data {
        let style = Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone)
        let rows = entries.map { entry in
            Row(date: entry.loggedAt.formatted(style), exercise: entry.exercise, count: entry.count,
                unit: units(entry.exercise)?.rawValue, note: entry.note)
        }
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(Document(format: jsonFormat, version: jsonVersion, entries: rows)) + Data("\n".utf8)
        case .csv:
            let stream = OutputStream.toMemory()
            stream.open()
            let writer = try CSVWriter(stream: stream, newline: .lf)
            try writer.write(row: columns)
            for row in rows {
                try writer.write(row: [row.date, row.exercise, String(row.count), row.unit ?? "", row.note ?? ""])
            }
            stream.close()
            guard let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data else {
                throw StandFitError("The CSV writer kept nothing in memory.")
            }
            return data + Data("\n".utf8)
        }
    }

    /// A row as read, with where it is in the file: a CSV line, or a JSON entry's number.
    public struct Read: Sendable, Equatable {
        public var place: Int
        public var row: Row
        /// The count as written, for a refusal that quotes it.
        public var countText: String
        /// How many fields the line has, when that is not what the header (or
        /// `date,exercise,count[,note]`) says; nil otherwise.
        public var wrongFields: Int?
    }

    /// Why a whole file cannot be read; worded by the app.
    public enum Unreadable: Error, Equatable {
        case notText
        case csv(String)
        case json(String)
        case missingColumn(String)
        case empty
    }

    /// The rows of `data`, in order. A CSV's first line is a header when it names the columns
    /// (`date`, `exercise`, `count`, and optionally `unit` and `note`, in any order; a few
    /// common other names are understood); else the columns are `date,exercise,count[,note]`.
    /// A row with the wrong number of fields is read with `wrongFields`, to be refused with its line.
    public static func decode(_ data: Data, format: Format) throws(Unreadable) -> [Read] {
        switch format {
        case .json:
            let document: Document
            do {
                document = try JSONDecoder().decode(Document.self, from: data)
            } catch let DecodingError.dataCorrupted(context) {
                throw .json(context.debugDescription)
            } catch let DecodingError.keyNotFound(key, context) {
                throw .json("\(path(context.codingPath + [key])) is missing")
            } catch let DecodingError.typeMismatch(_, context) {
                throw .json("\(path(context.codingPath)) has the wrong type")
            } catch let DecodingError.valueNotFound(_, context) {
                throw .json("\(path(context.codingPath)) is null")
            } catch {
                throw .json("\(error)")
            }
            guard document.format == jsonFormat else { throw .json("its format is '\(document.format)', not '\(jsonFormat)'") }
            guard document.version <= jsonVersion else {
                throw .json("its version is \(document.version); this StandFit reads version \(jsonVersion)")
            }
            guard !document.entries.isEmpty else { throw .empty }
            return document.entries.enumerated().map { Read(place: $0.offset + 1, row: $0.element, countText: "\($0.element.count)") }
        case .csv:
            guard var text = String(data: data, encoding: .utf8) else { throw .notText }
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            return try csvRows(text)
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0 + 1)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
    }

    /// Header names understood besides StandFit's own, by column.
    static let headerNames: [String: String] = [
        "date": "date", "time": "date", "datetime": "date", "timestamp": "date", "when": "date", "loggedat": "date",
        "datum": "date", "tijd": "date",
        "exercise": "exercise", "activity": "exercise", "oefening": "exercise",
        "count": "count", "reps": "count", "amount": "count", "repetitions": "count", "aantal": "count",
        "unit": "unit", "eenheid": "unit",
        "note": "note", "notes": "note", "comment": "note", "notitie": "note",
    ]

    private static func csvRows(_ text: String) throws(Unreadable) -> [Read] {
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: false, trimFields: true)
        } catch {
            throw .csv("\(error)")
        }
        var records: [(line: Int, fields: [String])] = []
        var line = 1
        while let fields = reader.next() {
            records.append((line, fields))
            // A quoted field may hold line breaks: the next record starts that many lines later.
            line += 1 + fields.reduce(0) { $0 + $1.reduce(0) { $0 + ($1 == "\n" || $1 == "\r\n" || $1 == "\r" ? 1 : 0) } }
        }
        if let error = reader.error { throw .csv("\(error)") }
        records.removeAll { $0.fields.allSatisfy(\.isEmpty) }
        guard let first = records.first else { throw .empty }
        var columns = ["date", "exercise", "count", "note"]
        let named = first.fields.map { headerNames[$0.lowercased().filter { $0.isLetter }] }
        if named.contains(where: { $0 != nil }) {
            for needed in ["date", "exercise", "count"] where !named.contains(needed) { throw .missingColumn(needed) }
            columns = named.map { $0 ?? "" }
            records.removeFirst()
        }
        guard !records.isEmpty else { throw .empty }
        return records.map { record in
            guard record.fields.count == columns.count || (columns.count == 4 && record.fields.count == 3 && columns[3] == "note") else {
                return Read(place: record.line, row: Row(date: "", exercise: "", count: 0), countText: "",
                            wrongFields: record.fields.count)
            }
            var values: [String: String] = [:]
            for (column, field) in zip(columns, record.fields) where !column.isEmpty { values[column] = field }
            let count = values["count"] ?? ""
            return Read(place: record.line, row: Row(date: values["date"] ?? "", exercise: values["exercise"] ?? "",
                                                     count: Int(count) ?? 0,
                                                     unit: values["unit"].flatMap { $0.isEmpty ? nil : $0 },
                                                     note: values["note"].flatMap { $0.isEmpty ? nil : $0 }),
                        countText: count)
        }
    }
}
