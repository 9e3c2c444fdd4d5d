import Foundation

/// Reads an `ExecStart=` value back into argv the way systemd does (systemd.service(7),
/// "Command lines"; systemd.syntax(7), "Quoting"), written from the manual independently of the
/// host's writer, so the tests check one against the other.
///
/// `%%` is a `%` (any other specifier would be expanded: kept as is, so a test sees it), `$$` a
/// `$` in an argument (a lone `$` would be a variable: kept, so a test sees it), words split on
/// unquoted blanks, double and single quotes removed, and the C escapes systemd reads inside and
/// outside quotes (`\a \b \f \n \r \t \v \\ \" \' \s \xNN \uNNNN \UNNNNNNNN \NNN`); a `\xNN` past ASCII is
/// a lone byte for systemd, read here as U+FFFD so that a test sees it.
public enum ExecStartWords {
    public static func split(_ line: String) -> [String] {
        var words: [String] = [], word = "", inWord = false
        var quote: Unicode.Scalar?
        var rest = Array(line.unicodeScalars)[...]
        while let scalar = rest.popFirst() {
            switch scalar {
            case "\"" where quote == nil, "'" where quote == nil:
                quote = scalar
                inWord = true
            case _ where scalar == quote:
                quote = nil
            case " " where quote == nil, "\t" where quote == nil:
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "\\":
                word.unicodeScalars.append(cEscape(&rest))
                inWord = true
            case "%" where rest.first == "%", "$" where rest.first == "$" && !words.isEmpty:
                rest = rest.dropFirst()
                word.unicodeScalars.append(scalar)
                inWord = true
            default:
                word.unicodeScalars.append(scalar)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    private static func cEscape(_ rest: inout ArraySlice<Unicode.Scalar>) -> Unicode.Scalar {
        guard let next = rest.popFirst() else { return "\\" }
        func hex(_ count: Int) -> Unicode.Scalar {
            let digits = String(String.UnicodeScalarView(rest.prefix(count)))
            rest = rest.dropFirst(count)
            return UInt32(digits, radix: 16).flatMap(Unicode.Scalar.init) ?? "\u{FFFD}"
        }
        switch next {
        case "a": return "\u{07}"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "v": return "\u{0B}"
        case "s": return " "
        // systemd reads \xNN as one byte: past ASCII that is a lone byte, no character.
        case "x":
            let scalar = hex(2)
            return scalar.value < 0x80 ? scalar : "\u{FFFD}"
        case "u": return hex(4)
        case "U": return hex(8)
        case "0"..."7":
            let digits = String(String.UnicodeScalarView([next] + rest.prefix(2)))
            rest = rest.dropFirst(2)
            return UInt32(digits, radix: 8).flatMap(Unicode.Scalar.init) ?? "\u{FFFD}"
        default: return next
        }
    }
}
