import Foundation
import HostIntents
import HostModel
import HostServer
import StandFitHost

/// Asks for missing values on the terminal: questions on stderr (stdout stays the result's),
/// answers from stdin, one line each.
final class TerminalConversation: Conversation {
    /// A conversation when stdin is a terminal and `--no-input` was not given; nil otherwise.
    static func make(noInput: Bool) -> TerminalConversation? {
        guard !noInput, HostRequest.current.stdinIsTerminal else { return nil }
        return TerminalConversation()
    }

    func ask(_ question: String, options: [String], defaultAnswer: String?) -> String? {
        // Questions, options and defaults may be plugins' words: their control characters are shown.
        var lines = [VisibleText.line(question + (defaultAnswer.map { " [\($0)]" } ?? ""))]
        let width = String(options.count).count
        for (index, option) in options.enumerated() {
            let number = String(index + 1)
            lines.append("  \(String(repeating: " ", count: width - number.count))\(number). \(VisibleText.line(option))")
        }
        write(lines.joined(separator: "\n") + "\n> ")
        return LineInput.readLine()
    }

    func retry(_ reason: String) {
        write("\(VisibleText.lines(reason))\n")
    }

    private func write(_ text: String) {
        Console.current.error(text)
    }
}
