import HostModel

/// How values are written: the Exec quoting rules, the general string escapes, action ids.
///
/// Everything here walks Unicode scalars, never `Character`s: a hostile `"` followed by a
/// combining accent is one `Character` that does not equal `"`, yet it is a quote to every
/// launcher that reads the file.
extension DesktopEntry {
    /// The Exec value for `argv`, quoted per the specification's Exec rules, every `%` doubled,
    /// then escaped as a string value.
    ///
    /// An argument that is empty or holds a reserved character (or a carriage return) is put in
    /// double quotes, where `"`, `` ` ``, `$` and `\` get a backslash. Every `%` becomes `%%`, so
    /// no field code can be injected. Then `\`, newline, tab and carriage return are written
    /// `\\`, `\n`, `\t`, `\r`: a literal backslash in a quoted argument becomes four in the file.
    ///
    /// The format cannot carry the other ASCII control characters (NUL … 0x1F, DEL); each is
    /// replaced by U+FFFD, so such an argument arrives visibly changed instead of breaking the
    /// file. The specification also forbids `=` in the program name; this does not check it.
    public static func execLine(_ argv: [String]) -> String {
        stringValue(argv.map(quotedArgument).joined(separator: " "))
    }

    /// The specification's reserved characters, plus carriage return, which is whitespace to
    /// some launchers' splitters.
    static let reservedInExec: Set<Unicode.Scalar> = [
        " ", "\t", "\n", "\r", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#",
        "(", ")", "`",
    ]

    /// The characters a backslash must precede inside a quoted argument.
    static let escapedInQuotes: Set<Unicode.Scalar> = ["\"", "`", "$", "\\"]

    /// One argument, quoted when it must be, with `%` doubled (before the string escapes).
    static func quotedArgument(_ argument: String) -> String {
        let scalars = argument.unicodeScalars.map { isRepresentableInExec($0) ? $0 : "\u{FFFD}" }
        let quoted = scalars.isEmpty || scalars.contains(where: reservedInExec.contains)
        var result = String.UnicodeScalarView()
        if quoted { result.append("\"") }
        for scalar in scalars {
            if scalar == "%" {
                result.append("%")
            } else if quoted && escapedInQuotes.contains(scalar) {
                result.append("\\")
            }
            result.append(scalar)
        }
        if quoted { result.append("\"") }
        return String(result)
    }

    /// Whether an Exec value may hold `scalar` (escaped or not); desktop-file-validate rejects
    /// ASCII control characters in string values, and only tab, newline and CR have escapes.
    static func isRepresentableInExec(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x00...0x1F, 0x7F: false
        default: true
        }
    }

    /// A string value with the general escapes: `\\`, `\n`, `\t`, `\r`, and `\s` for a space at
    /// either end, which key-file readers would otherwise trim.
    static func stringValue(_ value: String) -> String {
        var result = String.UnicodeScalarView()
        let scalars = Array(value.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": result.append(contentsOf: "\\n".unicodeScalars)
            case "\t": result.append(contentsOf: "\\t".unicodeScalars)
            case "\r": result.append(contentsOf: "\\r".unicodeScalars)
            case " " where index == 0 || index == scalars.count - 1:
                result.append(contentsOf: "\\s".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// A single-line `localestring` (Name, Comment): each control character, newlines and tabs
    /// included, becomes a space, so nothing can start a new line, key or group.
    /// Whether `locale` can name a localized key: `lang`, `lang_COUNTRY`, each with an optional
    /// `@MODIFIER` (the specification's form), in ASCII letters.
    public static func isValidLocale(_ locale: String) -> Bool {
        let letters = { (part: Substring, count: ClosedRange<Int>) in
            count.contains(part.count) && part.unicodeScalars.allSatisfy(isASCIILetter)
        }
        let halves = locale.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        if halves.count == 2 && !letters(halves[1], 1...16) { return false }
        let parts = halves[0].split(separator: "_", omittingEmptySubsequences: false)
        return parts.count <= 2 && letters(parts[0], 2...3) && (parts.count == 1 || letters(parts[1], 2...3))
    }

    /// A `Keywords=` list, each word a locale string with `;` escaped; nil for no words.
    static func keywordsValue(_ words: [String]) -> String? {
        let values = words.map { localeStringValue($0).replacingOccurrences(of: ";", with: "\\;") }.filter { !$0.isEmpty }
        return values.isEmpty ? nil : values.map { $0 + ";" }.joined()
    }

    static func localeStringValue(_ value: String) -> String {
        let scalars = value.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }
        return stringValue(String(String.UnicodeScalarView(scalars)))
    }

    /// The Icon value, or nil when `icon` cannot be one: an icon name loses a `.png`, `.svg`,
    /// `.svgz` or `.xpm` extension (theme look-up adds its own); a relative path, a directory
    /// or a name with control characters is dropped, since the validator rejects them.
    static func iconValue(_ icon: String?) -> String? {
        guard let icon, !icon.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        let trimmed = String(icon.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if trimmed.hasPrefix("/") { return trimmed.hasSuffix("/") ? nil : stringValue(trimmed) }
        guard !trimmed.contains("/") else { return nil }
        var name = trimmed
        for fileExtension in [".png", ".svg", ".svgz", ".xpm"] where name.lowercased().hasSuffix(fileExtension) {
            name = String(name.dropLast(fileExtension.count))
            break
        }
        return name.isEmpty ? nil : stringValue(name)
    }

    /// `Categories=`: names made of ASCII letters, digits, `-` and `_`, each once, each ended
    /// by `;`. Any other name is dropped rather than allowed to split or end the list.
    static func categoriesValue(_ categories: [String]) -> String {
        var seen = Set<String>()
        return categories.filter { category in
            !category.isEmpty
                && category.unicodeScalars.allSatisfy { isASCIIAlphanumeric($0) || $0 == "-" || $0 == "_" }
                && seen.insert(category).inserted
        }.map { $0 + ";" }.joined()
    }

    /// Whether `id` may name an action: ASCII letters, digits and `-`, starting with a letter.
    public static func isValidActionID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, isASCIILetter(first) else { return false }
        return id.unicodeScalars.allSatisfy { isASCIIAlphanumeric($0) || $0 == "-" }
    }

    /// A valid action identifier for a shortcut type, not in `taken`.
    ///
    /// Every character other than an ASCII letter or digit becomes `-`, runs of `-` collapse and
    /// `-` at either end goes: `com.standfit.logexercise` becomes `com-standfit-logexercise`.
    /// Nothing left gives `action`; a leading digit gets `action-` in front. When the result is
    /// taken, `-2`, `-3`, … is appended.
    public static func actionID(for type: String, taken: Set<String>) -> String {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in type.unicodeScalars {
            if isASCIIAlphanumeric(scalar) {
                word.append(scalar)
            } else if !word.isEmpty {
                words.append(String(word))
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        var base = words.joined(separator: "-")
        if base.isEmpty {
            base = "action"
        } else if let first = base.unicodeScalars.first, !isASCIILetter(first) {
            base = "action-" + base
        }
        guard taken.contains(base) else { return base }
        var suffix = 2
        while taken.contains("\(base)-\(suffix)") { suffix += 1 }
        return "\(base)-\(suffix)"
    }

    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        isASCIILetter(scalar) || ("0"..."9").contains(scalar)
    }
}
