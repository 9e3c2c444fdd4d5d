/// Reads an Exec value back into argv the way a launcher must, written from the Desktop Entry
/// specification independently of the host's writer, so the tests check one against the other.
///
/// Order, as the specification gives it: undo the string-value escapes, split on unquoted
/// spaces while undoing the quoting, and turn `%%` into `%`. Anything the specification does
/// not allow (another field code, an unbalanced quote, an unknown escape, a reserved character
/// outside quotes) is an error, so a writer bug cannot pass unnoticed.
public enum DesktopExecParser {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A string-value escape other than `\\`, `\n`, `\t`, `\r`, `\s`, or a final `\`.
        case invalidStringEscape(String)
        /// A quote that is never closed.
        case unbalancedQuote
        /// A backslash inside quotes before something other than `"`, `` ` ``, `$`, `\`.
        case invalidQuotedEscape(String)
        /// `"`, `` ` `` or `$` inside quotes without its backslash.
        case unescapedInQuotes(String)
        /// A reserved character in an unquoted argument.
        case reservedOutsideQuotes(String)
        /// A quote that does not span a whole argument (`a"b"`, `"a"b`).
        case partialQuote
        /// A field code other than `%%`.
        case fieldCode(String)
        /// A `%` at the very end.
        case incompleteFieldCode

        public var description: String {
            switch self {
            case .invalidStringEscape(let escape): "invalid string escape \(escape)"
            case .unbalancedQuote: "unbalanced quote"
            case .invalidQuotedEscape(let escape): "invalid escape \(escape) inside quotes"
            case .unescapedInQuotes(let character): "unescaped \(character) inside quotes"
            case .reservedOutsideQuotes(let character): "reserved character \(character) outside quotes"
            case .partialQuote: "a quote that does not span a whole argument"
            case .fieldCode(let code): "field code \(code)"
            case .incompleteFieldCode: "incomplete field code"
            }
        }
    }

    /// Reserved characters: an argument holding one must be quoted.
    static let reserved: Set<Unicode.Scalar> = [
        " ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")",
        "`",
    ]

    /// The argv an Exec value (as it appears after `Exec=` in the file) stands for.
    public static func parse(_ rawValue: String) throws(Failure) -> [String] {
        let line = Array(try unescapeString(rawValue).unicodeScalars)
        var argv: [String] = []
        var index = 0
        while index < line.count {
            if line[index] == " " {
                index += 1
                continue
            }
            var argument = String.UnicodeScalarView()
            if line[index] == "\"" {
                index += 1
                var closed = false
                while index < line.count {
                    let scalar = line[index]
                    if scalar == "\"" {
                        closed = true
                        index += 1
                        break
                    } else if scalar == "\\" {
                        guard index + 1 < line.count else { throw .unbalancedQuote }
                        let next = line[index + 1]
                        guard ["\"", "`", "$", "\\"].contains(next) else {
                            throw .invalidQuotedEscape("\\" + String(next))
                        }
                        argument.append(next)
                        index += 2
                    } else if scalar == "`" || scalar == "$" {
                        throw .unescapedInQuotes(String(scalar))
                    } else if scalar == "%" {
                        try percent(line, &index, into: &argument)
                    } else {
                        argument.append(scalar)
                        index += 1
                    }
                }
                guard closed else { throw .unbalancedQuote }
                guard index == line.count || line[index] == " " else { throw .partialQuote }
            } else {
                while index < line.count, line[index] != " " {
                    let scalar = line[index]
                    if scalar == "\"" { throw .partialQuote }
                    if reserved.contains(scalar) { throw .reservedOutsideQuotes(String(scalar)) }
                    if scalar == "%" {
                        try percent(line, &index, into: &argument)
                    } else {
                        argument.append(scalar)
                        index += 1
                    }
                }
            }
            argv.append(String(argument))
        }
        return argv
    }

    /// `%%` is a literal `%`; every other field code is an error here.
    static func percent(_ line: [Unicode.Scalar], _ index: inout Int,
                        into argument: inout String.UnicodeScalarView) throws(Failure) {
        guard index + 1 < line.count else { throw .incompleteFieldCode }
        guard line[index + 1] == "%" else { throw .fieldCode("%" + String(line[index + 1])) }
        argument.append("%")
        index += 2
    }

    /// Undoes the escapes of a string or localestring value: `\s`, `\n`, `\t`, `\r`, `\\`.
    public static func unescapeString(_ rawValue: String) throws(Failure) -> String {
        var result = String.UnicodeScalarView()
        var iterator = rawValue.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            switch iterator.next() {
            case "s": result.append(" ")
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "\\": result.append("\\")
            case let other?: throw .invalidStringEscape("\\" + String(other))
            case nil: throw .invalidStringEscape("\\")
            }
        }
        return String(result)
    }
}
