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
            // Rationale: CSV.swift's writer (which `import` keeps for reading) spent 53 % of a
            // 20,000-row export in `write(row:)`: five bridged NSString searches per field and one
            // stream write per byte, then 15 % turning its memory stream back into Data (perf,
            // docs/BENCHMARKS.md). RFC 4180's quoting is one rule, applied here in one pass.
            var text = columns.joined(separator: ",") + "\n"
            text.reserveCapacity(rows.count * 48)
            for row in rows {
                text += row.date + "," + quoted(row.exercise) + "," + String(row.count) + "," + (row.unit ?? "") + ","
                text += quoted(row.note.map(spreadsheetSafe) ?? "") + "\n"
            }
            return Data(text.utf8)
        }
    }

    /// A field as RFC 4180 writes it: in quotes, each quote doubled, when it holds a comma, a
    /// quote or a line break; else as it is.
    static func quoted(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The characters a spreadsheet reads as the start of a formula when a cell begins with one.
    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// A note as the CSV writes it: one a spreadsheet would take for a formula (`=HYPERLINK(…)`)
    /// gets a leading `'`, as OWASP advises against CSV injection; `import` takes it off again.
    static func spreadsheetSafe(_ note: String) -> String {
        needsMark(Substring(note)) ? "'" + note : note
    }

    /// A note as read from a CSV: the `'` that `spreadsheetSafe` put before it taken off.
    static func readNote(_ field: String) -> String {
        field.hasPrefix("'") && needsMark(field.dropFirst()) ? String(field.dropFirst()) : field
    }

    /// Whether `text` is written with a leading `'`: it starts like a formula, or with `'`s
    /// before one (so that a note that begins with `'=` comes back as it was).
    private static func needsMark(_ text: Substring) -> Bool {
        let rest = text.drop { $0 == "'" }
        return rest.first.map(formulaStarts.contains) ?? false
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
        /// How many the header (or `date,exercise,count[,note]`) says, with `wrongFields`.
        public var expectedFields: Int?
    }

    /// Why a whole file cannot be read; worded by the app.
    public enum Unreadable: Error, Equatable {
        case notText
        case csv(String)
        case json(String)
        case missingColumn(String)
        /// A column named twice (other than a date and a time, which are read together).
        case twiceNamed(String)
        /// A quote where RFC 4180 has none, or one never closed: the line it is on.
        case quote(line: Int)
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
            guard (1...).contains(document.version) else { throw .json("its version is \(document.version), not a version StandFit writes") }
            guard document.version <= jsonVersion else {
                throw .json("its version is \(document.version); this StandFit reads version \(jsonVersion)")
            }
            guard !document.entries.isEmpty else { throw .empty }
            return document.entries.enumerated().map { Read(place: $0.offset + 1, row: $0.element, countText: "\($0.element.count)") }
        case .csv:
            // UTF-16 without its mark reads as UTF-8 full of NULs: no CSV holds one.
            guard !data.contains(0), var text = String(data: data, encoding: .utf8) else { throw .notText }
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            return try csvRows(text)
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let path = keys.map { $0.intValue.map { "[\($0 + 1)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
        return path.isEmpty ? "the document" : path
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

    /// Where `text` breaks RFC 4180's quoting, or nil: a quote inside an unquoted field, a closing
    /// quote followed by anything but a comma or a line break, or a quoted field never closed —
    /// the line it is on. Rationale: CSV.swift reads on past such a quote and takes the rows that
    /// follow into one field without reporting an error for a string, so an import would add a
    /// note holding the next rows; this one pass over the text refuses the file instead.
    static func badQuote(_ text: String, delimiter: Character = ",") -> Int? {
        var line = 1, quoted = false, fieldStart = true, closed = false, opened = 1
        for character in text {
            if quoted {
                if character == "\"" { quoted = false; closed = true } else if character.isNewline { line += 1 }
                continue
            }
            if character == delimiter {
                fieldStart = true
                closed = false
                continue
            }
            switch character {
            case "\"":
                if closed { quoted = true; closed = false; continue }  // "" inside a quoted field
                guard fieldStart else { return line }
                quoted = true
                opened = line
            default:
                if fieldStart, character.isWhitespace, !character.isNewline { continue }  // trimmed
                if character.isNewline {
                    line += 1
                    fieldStart = true
                    closed = false
                    continue
                }
                if closed, !character.isWhitespace { return line }
            }
            fieldStart = false
        }
        return quoted ? opened : nil
    }

    /// The delimiter of `text`: the first of `,`, `;` (what spreadsheets write where the decimal
    /// mark is a comma, as in Dutch) and a tab that splits each of its first five lines, outside
    /// quotes, into the same number of 3 to 5 fields; else the one found most often.
    public static func delimiter(of text: String) -> Character {
        let candidates: [Character] = [",", ";", "\t"]
        var lines: [[Character: Int]] = [], counts: [Character: Int] = [:], quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if quoted { continue }
            if character.isNewline {
                if !counts.isEmpty { lines.append(counts) }
                counts = [:]
                if lines.count == 5 { break }
                continue
            }
            if candidates.contains(character) { counts[character, default: 0] += 1 }
        }
        if !counts.isEmpty, lines.count < 5 { lines.append(counts) }
        for candidate in candidates {
            let fields = Set(lines.map { ($0[candidate] ?? 0) + 1 })
            if fields.count == 1, let only = fields.first, (3...5).contains(only) { return candidate }
        }
        let totals = candidates.map { candidate in (candidate, lines.reduce(0) { $0 + ($1[candidate] ?? 0) }) }
        return totals.max { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 != ",") }?.0 ?? ","
    }

    private static func csvRows(_ text: String) throws(Unreadable) -> [Read] {
        let delimiter = delimiter(of: text)
        if let line = badQuote(text, delimiter: delimiter) { throw .quote(line: line) }
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: false, trimFields: true,
                                   delimiter: delimiter.unicodeScalars.first ?? ",")
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
        // A header names at least two columns and holds no number: a row of data whose note
        // happens to be "Notes" has its count.
        if named.compactMap({ $0 }).count >= 2, !first.fields.contains(where: { Int($0) != nil }) {
            for needed in ["date", "exercise", "count"] where !named.contains(needed) { throw .missingColumn(needed) }
            for column in Set(named.compactMap { $0 }) where column != "date" && named.filter({ $0 == column }).count > 1 {
                throw .twiceNamed(column)
            }
            columns = named.map { $0 ?? "" }
            records.removeFirst()
        }
        guard !records.isEmpty else { throw .empty }
        return records.map { record in
            guard record.fields.count == columns.count || (columns.count == 4 && record.fields.count == 3 && columns[3] == "note") else {
                return Read(place: record.line, row: Row(date: "", exercise: "", count: 0), countText: "",
                            wrongFields: record.fields.count, expectedFields: columns.count)
            }
            var values: [String: String] = [:]
            // A date and a time in columns of their own ("Date,Time,…") are read as one.
            for (column, field) in zip(columns, record.fields) where !column.isEmpty {
                values[column] = values[column].map { $0 + " " + field } ?? field
            }
            let count = values["count"] ?? ""
            return Read(place: record.line, row: Row(date: values["date"] ?? "", exercise: values["exercise"] ?? "",
                                                     count: Int(count) ?? 0,
                                                     unit: values["unit"].flatMap { $0.isEmpty ? nil : $0 },
                                                     note: values["note"].flatMap { $0.isEmpty ? nil : readNote($0) }),
                        countText: count)
        }
    }
}
