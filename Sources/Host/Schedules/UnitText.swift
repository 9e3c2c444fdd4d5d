import Foundation
import HostModel

/// Writing and reading the few pieces of systemd's unit syntax the schedules use.
///
/// Every value written comes from somewhere the user does not control: a plugin's title, a
/// routine file, a value typed or pasted. So nothing is written as it came: a carriage return,
/// a line feed or any other control character would start a line of its own for systemd (an
/// `ExecStartPre=` of the attacker's), a `%` is a specifier, a `$` a variable, a backslash at the
/// end of a line joins the next one. Each is written as an escape systemd reads back as the same
/// character (C escapes inside a quoted `ExecStart=` word) or shows as text (`Description=`), and
/// the host's own reader (`keys`, `execWords`) undoes exactly these.
///
/// Rationale: by hand, not a library: no Swift library writes systemd unit files, and the
/// syntax needed is a handful of rules (systemd.syntax(7), systemd.service(7) "Command lines");
/// `systemd-analyze verify` checks every file written in the tests, hostile values included.
public enum UnitText {
    /// A value on one line (`Description=`, the host's `X-StandFit-` keys): `%` doubled, and a
    /// backslash, every control character (C0, DEL, C1, the Unicode line and paragraph
    /// separators) and a space at either end written as `\xNN` or `\uNNNN`, so the line can
    /// neither end nor continue early, and systemd neither strips nor expands anything.
    public static func value(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = ""
        for (index, scalar) in scalars.enumerated() {
            let atEdge = index == 0 || index == scalars.count - 1
            if scalar == "%" {
                out += "%%"
            } else if scalar == "\\" || isControl(scalar) || (atEdge && scalar.properties.isWhitespace) {
                out += escape(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// One argument of `ExecStart=` (never the program: `program(_:)`): as it is when it is
    /// plain, else double-quoted with `\` and `"` escaped and every control character as a C
    /// escape; `%` (specifiers) and `$` (variables) doubled either way.
    public static func execWord(_ word: String) -> String {
        if CommandWord.isPlain(word) { return word }
        var out = "\""
        for scalar in word.unicodeScalars {
            switch scalar {
            case "%": out += "%%"
            case "$": out += "$$"
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if isControl(scalar) { out += escape(scalar) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    /// The program of `ExecStart=`: an absolute path, quoted when it is not plain, `%` doubled
    /// (systemd expands no variable in a program's path, so `$` stays as it is). systemd refuses
    /// a program whose path holds a quote, a backslash or a control character ("Executable name
    /// contains special characters"), so such a path is refused here, in a sentence that says
    /// how to install the host where a timer can run it.
    public static func program(_ path: String) throws(HostError) -> String {
        let refused = path.unicodeScalars.first { $0 == "\"" || $0 == "'" || $0 == "\\" || isControl($0) }
        guard path.hasPrefix("/"), refused == nil else {
            throw HostError(.scheduleInvalid, refused.map { HostText.Phrase("error.schedule.programHolds", ["path": value(path), "character": escape($0)]) }
                                ?? HostText.Phrase("error.schedule.programRelative", ["path": value(path)]))
        }
        if CommandWord.isPlain(path) { return path }
        return "\"" + path.replacingOccurrences(of: "%", with: "%%") + "\""
    }

    /// A whole `ExecStart=` line: the program, then each argument.
    public static func commandLine(_ command: [String]) throws(HostError) -> String {
        guard let program = command.first else { return "" }
        return try ([Self.program(program)] + command.dropFirst().map(execWord)).joined(separator: " ")
    }

    /// Whether systemd, or a terminal showing the unit, would read `scalar` as a control.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// `\xNN` for an ASCII scalar, else `\uNNNN` (`\UNNNNNNNN` past the first plane): read by
    /// systemd's C unescaping and by `unescape` as the same character. (systemd reads `\xNN`
    /// as a byte, so `\x85` would be the lone byte 0x85, not U+0085.)
    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case ..<0x80: String(format: "\\x%02x", scalar.value)
        case ..<0x10000: String(format: "\\u%04x", scalar.value)
        default: String(format: "\\U%08x", scalar.value)
        }
    }

    /// The values of each key, in order, as `value` wrote them read back; comments and
    /// sections ignored. `ExecStart` is kept as it is (`execWords` reads it).
    static func keys(_ text: String) -> [String: [String]] {
        var keys: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("[") {
            // By scalars: a value that starts with a combining mark would join the "=" as one Character.
            guard let equals = line.unicodeScalars.firstIndex(of: "=") else { continue }
            let key = String(line.unicodeScalars[..<equals]), value = String(line.unicodeScalars[line.unicodeScalars.index(after: equals)...])
            keys[key, default: []].append(key == "ExecStart" ? value : unescape(value, quoted: false))
        }
        return keys
    }

    /// The words of an `ExecStart=` line as `commandLine` wrote it: quotes removed, C escapes,
    /// `%%` and (outside the program) `$$` read back.
    static func execWords(_ line: String) -> [String] {
        var words: [String] = [], word = "", quoted = false, inWord = false
        var scalars = line.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\"" {
                quoted.toggle()
                inWord = true
            } else if scalar == " " && !quoted {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else if scalar == "\\", quoted, let next = scalars.first {
                let (read, used) = unescapeOne(next, rest: scalars.dropFirst())
                word.unicodeScalars.append(read)
                scalars = scalars.dropFirst(used + 1)
                inWord = true
            } else if (scalar == "%" || (scalar == "$" && !words.isEmpty)) && scalars.first == scalar {
                word.unicodeScalars.append(scalar)
                scalars = scalars.dropFirst()
                inWord = true
            } else {
                word.unicodeScalars.append(scalar)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// `text` with `value`'s escapes read back.
    static func unescape(_ text: String, quoted: Bool) -> String {
        var out = "", scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\\", let next = scalars.first {
                let (read, used) = unescapeOne(next, rest: scalars.dropFirst())
                out.unicodeScalars.append(read)
                scalars = scalars.dropFirst(used + 1)
            } else if scalar == "%" && scalars.first == "%" {
                out += "%"
                scalars = scalars.dropFirst()
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The scalar one escape stands for (`next` follows the backslash, then `rest`) and how many
    /// scalars of `rest` it used.
    private static func unescapeOne(_ next: Unicode.Scalar, rest: Substring.UnicodeScalarView) -> (Unicode.Scalar, Int) {
        let digits = next == "x" ? 2 : next == "u" ? 4 : next == "U" ? 8 : 0
        if digits > 0, rest.count >= digits, let value = UInt32(String(String.UnicodeScalarView(rest.prefix(digits))), radix: 16),
           let scalar = Unicode.Scalar(value) {
            return (scalar, digits)
        }
        switch next {
        case "n": return ("\n", 0)
        case "r": return ("\r", 0)
        case "t": return ("\t", 0)
        default: return (next, 0)
        }
    }
}
