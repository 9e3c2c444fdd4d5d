import Foundation
import HostModel

/// A list to choose from in a terminal: drawn in place, driven by keys read one at a time with
/// the terminal in non-canonical, no-echo mode, and restored however it ends.
struct TerminalMenu {
    struct Row {
        var glyph: String
        var title: String
        var subtitle: String?
        /// The app it belongs to: a line naming it comes before its first row when the menu
        /// holds several apps' rows.
        var section: String?
    }

    var title: String
    /// The line of key help under the rows, in the run's language.
    var keys: String
    var rows: [Row]
    /// Where it is drawn: the terminal on stdout, or on stderr when stdout carries a result
    /// (`menu --json`).
    var output: Int32 = STDOUT_FILENO

    enum Key: Equatable {
        case up, down, enter, leave, digit(Int), other
    }

    /// Shows the menu until a row is chosen (its index) or the user leaves (nil).
    func choose() throws -> Int? {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var raw = original
        // No line buffering, no echo, and Ctrl-C arrives as a key, so the terminal is always
        // restored below rather than left raw by a signal.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        write("\u{1B}[?25l")   // hide the cursor
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            write("\u{1B}[?25h")
        }
        var selected = 0
        draw(selected: selected, redraw: false)
        while true {
            switch readKey() {
            case .up: selected = (selected + rows.count - 1) % rows.count
            case .down: selected = (selected + 1) % rows.count
            case .digit(let number) where (1...rows.count).contains(number): selected = number - 1
            case .enter:
                erase()
                let row = rows[selected]
                write("\(row.glyph) \(row.title)\(row.subtitle.map { " — \($0)" } ?? "")\n")
                return selected
            case .leave:
                erase()
                return nil
            case .digit, .other: continue
            }
            draw(selected: selected, redraw: true)
        }
    }

    private var lineCount: Int { rows.count + 2 + headers.count }

    /// The rows before which a section's name is drawn: where the section changes, when there
    /// are several.
    private var headers: [Int: String] {
        guard Set(rows.map(\.section)).count > 1 else { return [:] }
        var headers: [Int: String] = [:]
        for (index, row) in rows.enumerated() where index == 0 || rows[index - 1].section != row.section {
            headers[index] = row.section ?? ""
        }
        return headers
    }

    private func draw(selected: Int, redraw: Bool) {
        var text = redraw ? "\u{1B}[\(lineCount)A" : ""
        text += "\r\u{1B}[2K\u{1B}[1m\(title)\u{1B}[0m\n"
        let headers = headers
        for (index, row) in rows.enumerated() {
            if let header = headers[index] { text += "\r\u{1B}[2K  \u{1B}[1m\(header)\u{1B}[0m\n" }
            let marker = index == selected ? "❯" : " "
            var line = "\(marker) \(index + 1). \(row.glyph) \(row.title)"
            if let subtitle = row.subtitle { line += " — \(subtitle)" }
            if index == selected { line = "\u{1B}[7m\(line)\u{1B}[0m" }
            text += "\r\u{1B}[2K\(line)\n"
        }
        text += "\r\u{1B}[2K\u{1B}[2m\(keys)\u{1B}[0m\n"
        write(text)
    }

    /// Clears the menu's lines and leaves the cursor where the menu began.
    private func erase() {
        var text = "\u{1B}[\(lineCount)A"
        for _ in 0..<lineCount { text += "\r\u{1B}[2K\n" }
        text += "\u{1B}[\(lineCount)A"
        write(text)
    }

    private func readKey() -> Key {
        guard let byte = readByte(timeout: -1) else { return .leave }
        switch byte {
        case 0x0D, 0x0A: return .enter
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04: return .leave
        case UInt8(ascii: "k"): return .up
        case UInt8(ascii: "j"): return .down
        case UInt8(ascii: "1")...UInt8(ascii: "9"): return .digit(Int(byte - UInt8(ascii: "0")))
        case 0x1B:
            // Esc alone leaves; Esc [ A / Esc O A (and B) are the arrow keys.
            guard let next = readByte(timeout: 50) else { return .leave }
            guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O"), let final = readByte(timeout: 50) else {
                return .other
            }
            switch final {
            case UInt8(ascii: "A"): return .up
            case UInt8(ascii: "B"): return .down
            default: return .other
            }
        default: return .other
        }
    }

    /// One byte from stdin, waiting up to `timeout` ms (-1 forever); nil on timeout or EOF.
    private func readByte(timeout: Int32) -> UInt8? {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, timeout) > 0 else { return nil }
        var byte: UInt8 = 0
        return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
    }

    private func write(_ text: String) {
        FileHandle(fileDescriptor: output, closeOnDealloc: false).write(Data(text.utf8))
    }
}
