import ArgumentParser
import Foundation
import HostModel
import HostServer
import StandFitHost

/// The executable's one output path: stdout for results, stderr for errors, and the one place
/// where outcomes and errors become exit statuses.
enum Output {
    /// Exit statuses, documented in docs/JSON.md and in `--help`.
    enum Status {
        static let handled: Int32 = 0
        static let declined: Int32 = 1
        static let unknownType: Int32 = 2
        static let invalidInput: Int32 = 3
        static let pluginFailed: Int32 = 4
        static let configuration: Int32 = 5
        /// No plugin handles the type asked for; the manifest's fallback handled it: a
        /// script's typo must not pass for the action it meant.
        static let fellBack: Int32 = 6
        /// What the command needs of the desktop is not there (`desktop-unavailable`).
        static let unavailable: Int32 = 69
        /// `doctor` found problems (it lists them).
        static let problemsFound: Int32 = 1
    }

    static func exit(for status: Outcome.Status) throws {
        let code: Int32 = switch status {
        case .handled, .dryRun: Status.handled
        case .declined: Status.declined
        case .unknownType: Status.unknownType
        case .invalidInput: Status.invalidInput
        case .pluginFailed: Status.pluginFailed
        }
        if code != 0 { throw ExitCode(code) }
    }

    /// Prints a run's outcome (each step of a routine first, in text, in `language`) and exits
    /// with its status.
    static func finish(_ outcome: Outcome, _ global: GlobalOptions, language: String = "en") throws {
        if global.json {
            printJSON(outcome)
        } else {
            if let fallback = outcome.fallback {
                printError(HostText(language: language)("run.fellBack", ["type": outcome.type, "fallback": fallback]))
            }
            for (index, step) in (outcome.steps ?? []).enumerated() {
                if step.status == .handled || step.status == .dryRun {
                    showMessage(step.message)
                } else if index < (outcome.steps?.count ?? 0) - 1 || outcome.status == .handled {
                    printError(HostText(language: language)("routine.step", ["index": "\(index + 1)", "message": step.message]))
                }
            }
            if outcome.status == .handled || outcome.status == .dryRun {
                showMessage(outcome.message)
            } else {
                printError(outcome.message)
            }
        }
        if outcome.fallback != nil && outcome.status == .handled { throw ExitCode(Status.fellBack) }
        try exit(for: outcome.status)
    }

    /// Reports a `HostError`: its sentence on stderr, or its document under `--json`.
    static func report(_ error: HostError, json: Bool, language: String = "en") {
        let message = error.message(in: language)
        if json {
            printJSON(ErrorDocument(code: error.code.description, message: message))
        } else {
            printError(HostText(language: language)("error.prefix") + message)
        }
    }

    struct ErrorDocument: Encodable {
        var status = "error"
        var code: String
        var message: String
    }

    static func printJSON(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            Console.current.print(String(decoding: try encoder.encode(value), as: UTF8.self))
        } catch {
            printError("error: the result could not be written as JSON: \(error)")
        }
    }

    /// Prints a command's summary: the document under `--json`, else its message.
    static func report<T: Encodable>(_ global: GlobalOptions, _ document: T, message: KeyPath<T, String>) {
        if global.json { printJSON(document) } else { Console.current.print(document[keyPath: message]) }
    }

    static func printError(_ message: String) {
        Console.current.error("standfit-host: \(VisibleText.lines(message))\n")
    }

    /// Prints one line of text that may hold plugins' words (a title, a name, a reason), with
    /// their control characters shown rather than acted on by the terminal.
    static func show(_ line: String) {
        Console.current.print(VisibleText.line(line))
    }

    /// Prints a message that may span lines (a handler's message), control characters shown.
    static func showMessage(_ text: String) {
        Console.current.print(VisibleText.lines(text))
    }
}
