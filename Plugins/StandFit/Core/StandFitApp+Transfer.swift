import Foundation
import PluginAPI

/// The log out to a file and back: `export` and `import` (LogFile has the formats).
extension StandFitApp {
    /// What `export` returns as data.
    public struct Exported: Encodable, Sendable {
        public var file: String
        public var format: String
        public var entries: Int
    }

    /// What `import` returns as data: what was (or, with `dryRun`, would be) added, what the log
    /// held already, and each row left out with where it is and why.
    public struct Imported: Encodable, Sendable {
        public var file: String
        public var format: String
        public var dryRun: Bool
        public var added: Int
        public var duplicates: Int
        public var skipped: [Skipped]
        public var progress: ProgressChange?
    }

    public struct Skipped: Encodable, Sendable, Equatable {
        /// The CSV line, or the JSON entry's number (from 1).
        public var place: Int
        public var reason: String
    }

    /// The most refused rows an answer lists; the rest are counted.
    static let listedProblems = 20

    /// Writes the whole log to `file` (CSV, or JSON for a `.json` name or `format=json`), oldest
    /// first, in one step: a reader of `file` sees the old file or the new one, never half of one.
    public func export(file: String, format: String?) throws -> ActionResult {
        guard let format = LogFile.Format.of(format, file: file) else {
            return .invalidInput(text("error.file.format", ["value": format ?? ""]), parameter: "format")
        }
        // Through a symbolic link to the file it names, which stays a link.
        let url = Self.url(file).resolvingSymlinksInPath()
        if let refusal = writable(url, as: file) { return refusal }
        let entries = try store.allEntries()
        let data = try LogFile.encode(entries, units: { catalogue.exercise(id: $0)?.unit }, format: format,
                                      zone: clock.calendar.timeZone)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            return .invalidInput(text("error.export.write", ["file": file, "why": Self.reason(error)]), parameter: "file")
        }
        let key = entries.isEmpty ? "export.empty" : "export.done"
        return .handled(text(key, ["entries": self.entries(entries.count), "file": file]),
                        data: Exported(file: url.path, format: format.rawValue, entries: entries.count))
    }

    /// The refusal of a `file` that is a directory, or nil.
    private func directoryRefusal(_ url: URL, as file: String) -> ActionResult? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return .invalidInput(text("error.file.directory", ["file": file]), parameter: "file")
    }

    /// Why `url` cannot be exported to, or nil: a directory, anything but a regular file (a
    /// pipe, a device: the export replaces the file whole), or a file in the log's own directory
    /// (told by device and inode, whatever path names it).
    private func writable(_ url: URL, as file: String) -> ActionResult? {
        if let refusal = directoryRefusal(url, as: file) { return refusal }
        var info = stat()
        if lstat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            return .invalidInput(text("error.file.notRegular", ["file": file]), parameter: "file")
        }
        var parent = stat(), data = stat()
        if stat(url.deletingLastPathComponent().path, &parent) == 0, stat(store.url.deletingLastPathComponent().path, &data) == 0,
           parent.st_dev == data.st_dev, parent.st_ino == data.st_ino {
            return .invalidInput(text("error.export.isLog", ["file": file]), parameter: "file")
        }
        return nil
    }

    /// The most an import reads: a year of logs is about 1 MB of CSV.
    public static let maximumImportBytes = 64 << 20

    /// What reading an import's file came to.
    enum FileRead {
        case data(Data)
        case refused(ActionResult)
    }

    /// `url`'s bytes, when it is a regular file of at most `maximumImportBytes`: opened without
    /// waiting (a pipe or a device is refused, never read until it ends).
    func readImport(_ url: URL, as file: String) -> FileRead {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .refused(.invalidInput(text("error.file.unreadable", ["file": file, "why": String(cString: strerror(errno))]),
                                          parameter: "file"))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .refused(.invalidInput(text("error.file.notRegular", ["file": file]), parameter: "file"))
        }
        let tooLarge = ActionResult.invalidInput(text("error.file.tooLarge", ["file": file, "size": "\(info.st_size)",
                                                                           "max": "\(StandFitApp.maximumImportBytes)"]), parameter: "file")
        guard info.st_size <= StandFitApp.maximumImportBytes else { return .refused(tooLarge) }
        do {
            let data = try handle.read(upToCount: StandFitApp.maximumImportBytes + 1) ?? Data()
            return data.count > StandFitApp.maximumImportBytes ? .refused(tooLarge) : .data(data)
        } catch {
            return .refused(.invalidInput(text("error.file.unreadable", ["file": file, "why": Self.reason(error)]), parameter: "file"))
        }
    }

    /// Adds the entries of `file` that the log does not hold yet (StandFit's CSV or JSON, or a
    /// `date,exercise,count[,note]` CSV), in one transaction. A row that cannot be imported
    /// stops the import, and each is named with its line, unless `skipBad`; with `dryRun`,
    /// says what would be added and writes nothing.
    public func importLog(file: String, format: String?, dryRun: Bool, skipBad: Bool) throws -> ActionResult {
        guard let format = LogFile.Format.of(format, file: file) else {
            return .invalidInput(text("error.file.format", ["value": format ?? ""]), parameter: "format")
        }
        let url = Self.url(file)
        if let refusal = directoryRefusal(url, as: file) { return refusal }
        let data: Data
        switch readImport(url, as: file) {
        case .data(let read): data = read
        case .refused(let refusal): return refusal
        }
        let rows: [LogFile.Read]
        do {
            rows = try LogFile.decode(data, format: format)
        } catch {
            let refusal: String = switch error {
            case .notText: text("error.file.notText", ["file": file])
            case .csv(let why): text("error.file.csv", ["file": file, "why": why])
            case .json(let why): text("error.file.json", ["file": file, "why": why])
            case .missingColumn(let column): text("error.file.column", ["file": file, "column": column])
            case .twiceNamed(let column): text("error.file.twice", ["file": file, "column": column])
            case .quote(let line): text("error.file.quote", ["file": file, "line": "\(line)"])
            case .empty: text("error.file.empty", ["file": file])
            }
            return .invalidInput(refusal, parameter: "file")
        }
        let (entries, problems) = read(rows, format: format)
        if !problems.isEmpty, !skipBad || entries.isEmpty {
            let key = entries.isEmpty ? "error.file.allBad" : "error.file.rows"
            return .invalidInput(([text(key, ["file": file, "rows": self.rows(problems.count), "count": "\(rows.count)"])]
                                  + listed(problems)).joined(separator: "\n"), parameter: "file")
        }
        let (merge, after) = try store.merge(entries, dryRun: dryRun, label: file, rules: rules)
        let change = progressChange(after)
        let values = ["file": file, "entries": self.entries(merge.added), "duplicates": "\(merge.duplicates)",
                      "count": "\(entries.count)"]
        let key = merge.added == 0 ? "import.none"
            : (dryRun ? "import.dryRun" : "import.added") + (merge.duplicates > 0 ? ".duplicates" : "")
        var lines = [announce(text(key, values), change?.0)]
        if !problems.isEmpty {
            lines.append(text("import.skipped", ["rows": self.rows(problems.count)]))
            lines += listed(problems)
        }
        return .handled(lines.joined(separator: "\n"),
                        data: Imported(file: url.path, format: format.rawValue, dryRun: dryRun, added: merge.added,
                                       duplicates: merge.duplicates, skipped: problems, progress: change?.1))
    }

    /// The entries `rows` hold, and why each other row cannot be imported.
    func read(_ rows: [LogFile.Read], format: LogFile.Format) -> ([LogEntry], [Skipped]) {
        let names = text.names(in: catalogue)
        let now = clock.now()
        var entries: [LogEntry] = []
        var problems: [Skipped] = []
        entries.reserveCapacity(rows.count)
        var exercises: [String: Exercise] = [:]
        for read in rows {
            func refuse(_ key: String, _ values: [String: String] = [:]) {
                let place = text(format == .csv ? "import.place.line" : "import.place.entry", ["n": "\(read.place)"])
                problems.append(Skipped(place: read.place, reason: text(key, values.merging(["place": place]) { $1 })))
            }
            let row = read.row
            if let fields = read.wrongFields {
                refuse(read.expectedFields == 4 ? "import.row.fields.bare" : "import.row.fields",
                       ["count": "\(fields)", "expected": "\(read.expectedFields ?? 0)"])
                continue
            }
            guard let date = LogTime.absolute(row.date, calendar: clock.calendar) else {
                refuse("import.row.date", ["value": Self.echo(row.date)])
                continue
            }
            guard date <= now.addingTimeInterval(60) else {
                refuse("import.row.future", ["value": Self.echo(row.date)])
                continue
            }
            guard let exercise = exercises[row.exercise] ?? catalogue.match(row.exercise, names: names) else {
                refuse("import.row.exercise", ["value": Self.echo(row.exercise)])
                continue
            }
            exercises[row.exercise] = exercise
            guard (1...StandFitApp.maximumCount).contains(row.count) else {
                refuse("import.row.count", ["value": Self.echo(read.countText), "max": "\(StandFitApp.maximumCount)"])
                continue
            }
            if let unit = row.unit, unit.lowercased() != exercise.unit.rawValue {
                refuse("import.row.unit", ["value": Self.echo(unit), "exercise": text.name(exercise.id, count: 2),
                                           "expected": exercise.unit.rawValue])
                continue
            }
            // As a log or an edit keeps a note: trimmed, and none when empty.
            let note = row.note.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
            if let note, note.count > StandFitApp.maximumNoteLength {
                refuse("import.row.note", ["length": "\(note.count)", "max": "\(StandFitApp.maximumNoteLength)"])
                continue
            }
            // To the second, as the files write it: importing the export again finds every entry.
            let second = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
            entries.append(LogEntry(exercise: exercise.id, count: row.count, note: note, loggedAt: second))
        }
        return (entries, problems)
    }

    /// The problems as lines of an answer: the first `listedProblems`, then how many more.
    private func listed(_ problems: [Skipped]) -> [String] {
        let shown = problems.prefix(StandFitApp.listedProblems).map { "  " + $0.reason }
        let more = problems.count - shown.count
        return shown + (more > 0 ? ["  " + text("import.more", ["count": "\(more)"])] : [])
    }

    /// A value from a file as a refusal quotes it: at most 60 characters, control characters
    /// (a terminal's escape sequences) shown as U+FFFD.
    static func echo(_ value: String) -> String {
        let cut = value.count > 60 ? value.prefix(60) + "…" : Substring(value)
        return String(String.UnicodeScalarView(cut.unicodeScalars.map { $0.properties.generalCategory == .control ? "\u{FFFD}" : $0 }))
    }

    /// "1 entry" / "20 entries".
    func entries(_ count: Int) -> String {
        text("entries.\(count == 1 ? "one" : "other")", ["count": "\(count)"])
    }

    /// "1 row" / "3 rows".
    func rows(_ count: Int) -> String {
        text("rows.\(count == 1 ? "one" : "other")", ["count": "\(count)"])
    }

    /// `file` as a URL: `~/` is the home directory; a relative path is the command's directory
    /// (the host runs the plugin there).
    static func url(_ file: String) -> URL {
        if file == "~" || file.hasPrefix("~/") {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            return URL(fileURLWithPath: home + file.dropFirst())
        }
        return URL(fileURLWithPath: file)
    }

    /// What the system said, without Foundation's wrapping ("No such file or directory").
    static func reason(_ error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        let error = error as NSError
        if error.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: error.code) {
            case .fileReadNoSuchFile, .fileNoSuchFile: return String(cString: strerror(ENOENT))
            case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
            case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
            case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
            default: break
            }
        }
        return error.localizedDescription
    }
}
