/// A `.desktop` file read into groups of raw `key=value` entries, for the tests: just enough of
/// the key-file format to find a group's Exec or Name. Values stay escaped.
public struct DesktopFile {
    public struct Group {
        public var name: String
        public var entries: [(key: String, value: String)]

        /// The raw value of the first `key` in the group.
        public subscript(key: String) -> String? {
            entries.first { $0.key == key }?.value
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var line: Int
        public var text: String
        public var description: String { "line \(line) is not a header, key=value, comment or blank: \(text)" }
    }

    public var groups: [Group]

    /// Lines are split on LF only, as key-file readers do; leading spaces of a value and spaces
    /// around a key are dropped.
    public init(parsing text: String) throws(Failure) {
        groups = []
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, scalars) in lines.enumerated() {
            let line = String(String.UnicodeScalarView(scalars))
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                groups.append(Group(name: String(line.dropFirst().dropLast()), entries: []))
                continue
            }
            guard let equals = scalars.firstIndex(of: "="), !groups.isEmpty else {
                throw Failure(line: number + 1, text: line)
            }
            let key = String(String.UnicodeScalarView(scalars[..<equals])).trimmingSpaces()
            let value = String(String.UnicodeScalarView(scalars[scalars.index(after: equals)...].drop { $0 == " " }))
            groups[groups.count - 1].entries.append((key, value))
        }
    }

    public subscript(group: String) -> Group? {
        groups.first { $0.name == group }
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
