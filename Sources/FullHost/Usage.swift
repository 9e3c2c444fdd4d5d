import ArgumentParser
import Foundation
import HostModel

/// The command line's own words in the user's language: every command's abstract, discussion
/// and argument help come from the host's tables ("help.…" keys), and ArgumentParser's usage
/// errors and help layout are said again in that language (issue 51: a Dutch user who mistypes
/// an option is told so in Dutch).
///
/// The language is the line's `--locale` (looked for before the line is parsed, since help and
/// usage errors are what a failed parse answers), else the environment's.
enum Usage {
    /// The language of the line being parsed or answered; nil for the request's environment's.
    @TaskLocal static var locale: String?

    /// The words of the host in the language of the line at hand.
    static var text: HostText { HostText(language: HostRequest.current.language(locale: locale)) }

    /// The text of `key` in the language of the line at hand (an abstract, a discussion, a
    /// command's refusal of its line), each `{name}` replaced by `values[name]`.
    static func words(_ key: String, _ values: [String: String] = [:]) -> String { text(key, values) }

    /// An argument's help from the tables: its abstract, and the name its value goes by.
    static func help(_ key: String, valueName: String? = nil, visibility: ArgumentVisibility = .default) -> ArgumentHelp {
        ArgumentHelp(text(key), valueName: valueName, visibility: visibility)
    }

    /// Whether `arguments` ask for what tools read rather than people: the command tree as JSON
    /// (generate-manual's source), a completion script, or a shell's completions. Those are
    /// English whatever the environment says, so that a package built in any language ships the
    /// same man page and scripts.
    /// Whether `arguments` ask for `--json` (before a `--`, after which words are values).
    static func asksForJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
    }

    static func isForTools(_ arguments: [String]) -> Bool {
        arguments.first == "---completion" || arguments.contains("--experimental-dump-help")
            || arguments.contains { $0.hasPrefix("--generate-completion-script") }
    }

    /// The value of `--locale` on `arguments` (`--locale nl`, `--locale=nl`), the last one
    /// given, as ArgumentParser takes it; nil when none is.
    static func locale(in arguments: [String]) -> String? {
        var found: String?
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { break }
            if argument == "--locale", index + 1 < arguments.endIndex {
                found = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--locale=") {
                found = String(argument.dropFirst("--locale=".count))
            }
            index += 1
        }
        return found
    }

    /// ArgumentParser's message for a failed parse (help, a usage error) said in `text`'s
    /// language: English as ArgumentParser writes it, other languages line by line from the
    /// tables ("usage.…" keys).
    ///
    /// Rationale: ArgumentParser has no localization and its parser errors are internal types;
    /// only their text is public, so its sentences are recognised by their English forms
    /// (`UsageGenerator.swift`, `MessageInfo.swift` of swift-argument-parser 1.x). A sentence that
    /// opens as one of its forms but matches none is said as "this command line is not
    /// understood", with ArgumentParser's words quoted after it, so nothing is lost; one that
    /// opens otherwise is taken for a refusal of the host's own, said from the tables already.
    static func localized(_ message: String, isError: Bool, text: HostText) -> String {
        guard text.language != "en", !message.isEmpty else { return message }
        if !isError { return localizedHelp(message, text: text) }
        var lines = message.components(separatedBy: "\n")
        for index in lines.indices {
            let line = lines[index]
            if line.hasPrefix("Error: ") {
                lines[index] = text("usage.errorPrefix") + " " + sentence(String(line.dropFirst("Error: ".count)), text: text)
            } else if line.hasPrefix("Help:  ") {
                lines[index] = text("usage.helpPrefix") + "  " + line.dropFirst("Help:  ".count)
            } else if line.hasPrefix("Usage: ") {
                lines[index] = text("usage.usagePrefix") + " " + synopsis(String(line.dropFirst("Usage: ".count)), text: text)
            } else if let see = line.firstMatch(of: #/^  See '(?<command>.+)' for more information\.$/#) {
                lines[index] = "  " + text("usage.see", ["command": String(see.command)])
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A usage line's words of ArgumentParser's own ("[<options>]", "<subcommand>") in `text`'s
    /// language; the commands' value names are left as they are.
    static func synopsis(_ line: String, text: HostText) -> String {
        line.replacingOccurrences(of: "[<options>]", with: "[<" + text("usage.synopsis.options") + ">]")
            .replacingOccurrences(of: "<subcommand>", with: "<" + text("usage.synopsis.subcommand") + ">")
    }

    /// One of ArgumentParser's error sentences in `text`'s language.
    static func sentence(_ english: String, text: HostText) -> String {
        // A sentence of the host's own (a ValidationError its commands throw, from the
        // tables) is already in the user's language: said as it is.
        guard looksEnglish(english) else { return english }
        for form in forms {
            if let match = english.wholeMatch(of: form.pattern) {
                var values: [String: String] = [:]
                for (index, name) in form.names.enumerated() {
                    values[name] = match.output[index + 1].substring.map(String.init) ?? ""
                }
                // ArgumentParser lists the choices as "'a', 'b' or 'c'".
                values["choices"] = values["choices"]?.replacingOccurrences(of: "' or '", with: "' " + text("word.or") + " '")
                return text(form.key, values)
            }
        }
        return text("usage.notUnderstood", ["message": english])
    }

    /// Whether `sentence` opens as ArgumentParser's English does.
    private static func looksEnglish(_ sentence: String) -> Bool {
        forms.contains { sentence.wholeMatch(of: $0.pattern) != nil }
            || ["Unknown ", "Missing ", "Unexpected ", "The value ", "The option ", "Invalid ", "Value to be set ", "Command '"]
            .contains { sentence.hasPrefix($0) }
    }

    /// ArgumentParser's error sentences: the pattern, the table key, the placeholders its
    /// captures fill in order.
    ///
    /// Rationale for `@unchecked Sendable`: `Regex<AnyRegexOutput>` is not declared Sendable,
    /// but each pattern is made once from a literal, never changed, and only matched against.
    private struct Form: @unchecked Sendable {
        var pattern: Regex<AnyRegexOutput>
        var key: String
        var names: [String]

        init(_ pattern: String, _ key: String, _ names: [String]) {
            // The patterns are literals of this file, each a form of swift-argument-parser 1.x
            // (DutchWalkTests.usageErrors meets the commonest).
            self.pattern = try! Regex(pattern)
            self.key = key
            self.names = names
        }
    }

    private static let forms: [Form] = [
        Form(#"Unknown option '(.+)'\. Did you mean '(.+)'\?"#, "usage.unknownOptionSuggest", ["option", "suggestion"]),
        Form(#"Unknown option '(.+)'"#, "usage.unknownOption", ["option"]),
        Form(#"Missing value for '(.+)'"#, "usage.missingValue", ["option"]),
        Form(#"Missing expected argument '(.+)'"#, "usage.missingArgument", ["argument"]),
        Form(#"Missing one of: (.+)"#, "usage.missingOneOf", ["arguments"]),
        Form(#"Unexpected argument '(.+)'"#, "usage.unexpectedArgument", ["argument"]),
        Form(#"(\d+) unexpected arguments: (.+)"#, "usage.unexpectedArguments", ["count", "arguments"]),
        Form(#"The option '(.+)' does not take any value, but '(.*)' was specified\."#, "usage.noValueTaken", ["option", "value"]),
        Form(#"The value '(.*)' is invalid for '(.+)'\. Please provide one of the following:"#, "usage.invalidValueChoicesList", ["value", "option"]),
        Form(#"The value '(.*)' is invalid for '(.+)'\. Please provide one of (.+)\."#, "usage.invalidValueChoices", ["value", "option", "choices"]),
        Form(#"The value '(.*)' is invalid for '([^']+)': (.+)"#, "usage.invalidValueReason", ["value", "option", "reason"]),
        Form(#"The value '(.*)' is invalid for '(.+)'"#, "usage.invalidValue", ["value", "option"]),
        Form(#"The value '(.*)' is invalid\."#, "usage.invalidValueAlone", ["value"]),
        Form(#"Value to be set with (.+) had already been set with (.+)"#, "usage.setTwice", ["second", "first"]),
        Form(#"Invalid option: (.+)"#, "usage.invalidOption", ["option"]),
        Form(#"Missing required subcommand\."#, "usage.missingSubcommand", []),
    ]

    /// ArgumentParser's help layout (its headings, its own flags' help, "(default: …)") in
    /// `text`'s language; the commands' own help is already in it (it comes from the tables).
    static func localizedHelp(_ help: String, text: HostText) -> String {
        var lines = help.components(separatedBy: "\n")
        let headings = ["OVERVIEW:", "USAGE:", "ARGUMENTS:", "OPTIONS:", "SUBCOMMANDS:", "OPTION GROUPS:"]
        for index in lines.indices {
            var line = lines[index]
            for heading in headings where line.hasPrefix(heading) {
                line = text("usage.heading." + heading.dropLast().replacingOccurrences(of: " ", with: "")) + line.dropFirst(heading.count)
            }
            line = synopsis(line, text: text)
            if let see = line.firstMatch(of: #/^  See '(?<command>.+)' for detailed help\.$/#) {
                line = "  " + text("usage.seeDetailed", ["command": String(see.command)])
            }
            line = line.replacingOccurrences(of: "Show help information.", with: text("usage.helpFlag"))
                .replacingOccurrences(of: "Show the version.", with: text("usage.versionFlag"))
                .replacingOccurrences(of: "(default: ", with: "(" + text("usage.default") + " ")
                .replacingOccurrences(of: "(default as flag: ", with: "(" + text("usage.defaultAsFlag") + " ")
                .replacingOccurrences(of: "; default as flag: ", with: "; " + text("usage.defaultAsFlag") + " ")
                .replacingOccurrences(of: "; default: ", with: "; " + text("usage.default") + " ")
                .replacingOccurrences(of: "(values: ", with: "(" + text("usage.values") + " ")
                .replacingOccurrences(of: "(default)", with: "(" + text("usage.defaultSubcommand") + ")")
            lines[index] = line
        }
        return lines.joined(separator: "\n")
    }
}
