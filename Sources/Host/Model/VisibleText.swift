/// Text from plugins made safe to print on a terminal or in plain text: control characters
/// that would move the cursor, retitle the window, clear the screen, overwrite a line (CR),
/// fake another line (LF) or reorder what follows (bidi overrides) are shown as escapes
/// (`\x1b`, `\r`, `\n`, `\u{202e}`) instead of acting. `--json` output is never passed through
/// this: JSON escapes control characters by itself and must stay exact.
package enum VisibleText {
    /// `text` for a one-line field (a title, a name, a warning): every control character shown.
    package static func line(_ text: String) -> String {
        shown(text, keepingLayout: false)
    }

    /// `text` that may span lines (a plugin's message or its output): newlines and tabs kept,
    /// every other control character shown.
    package static func lines(_ text: String) -> String {
        shown(text, keepingLayout: true)
    }

    private static func shown(_ text: String, keepingLayout: Bool) -> String {
        func hides(_ scalar: Unicode.Scalar) -> Bool {
            isHidden(scalar) && !(keepingLayout && (scalar == "\n" || scalar == "\t"))
        }
        guard text.unicodeScalars.contains(where: hides) else { return text }
        var shown = ""
        shown.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if hides(scalar) { shown += escape(scalar) } else { shown.unicodeScalars.append(scalar) }
        }
        return shown
    }

    /// C0 controls, DEL, C1 controls, and the bidirectional formatting characters.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            let hex = String(scalar.value, radix: 16)
            return scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
        }
    }
}
