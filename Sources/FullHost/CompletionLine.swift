import ArgumentParser
import Foundation
import HostModel
import HostServer
import Logging
import StandFitHost

/// The command line being completed, as `run` will see it: shell quoting removed, and bash's
/// extra words put back together.
///
/// ArgumentParser hands over the shell's words verbatim (fish 3: unquoted, and an empty word as
/// `''`). bash splits words at the characters of COMP_WORDBREAKS, so `exercise=pu` arrives as
/// `exercise`, `=`, `pu`; only `pu` is the word bash completes and filters by, so candidates go
/// back without the `exercise=` before it. zsh and fish keep `exercise=pu` whole.
struct CompletionLine {
    /// The words after `run`, quoting removed; the one under the cursor is cut at the cursor.
    var arguments: [String] = []
    /// The index in `arguments` of the word under the cursor.
    var current = 0
    /// The end of the current word that the shell completes and replaces: all of it in zsh and
    /// fish; in bash what follows the last '=' or ':', or starts at the last '@'.
    var shellWord = ""
    var manifest: String?
    var locale: String?
    var defines: [String: String] = [:]
    var requireTrusted = false
    /// The type, when the word under the cursor comes after it.
    var type: String?
    /// True when the word under the cursor is the type.
    var isType = false
    /// The names of the `name=value` words other than the current one.
    var givenParameters: Set<String> = []

    /// What was typed of the current word, up to the cursor.
    var typed: String { arguments[current] }

    /// Characters bash splits words at (in COMP_WORDBREAKS) that can appear inside an argument.
    static let bashBreaks: Set<Character> = ["=", ":", "@"]

    /// Options of `run` that take a value, and so hide the next word from the positionals.
    static let valueOptions: Set<String> = ["--manifest", "--define", "--locale", "--user-info"]

    init?(words: [String], index: Int, prefix: String, shell: CompletionShell?) {
        guard words.indices.contains(index) else { return nil }
        // fish's `complete -C` leaves the cursor at 0, so the prefix comes empty; the word is
        // then the best guess (fish filters by its own word in any case).
        let cut = shell == .fish && prefix.isEmpty ? words[index] : prefix

        // Put bash's words back together: a word of break characters joins its neighbours.
        var joined: [String] = []
        var joinNext = false
        for position in words.indices where position <= index {
            let raw = position == index ? cut : words[position]
            let text = Self.unquoted(raw)
            let isBreak = shell == .bash && !raw.isEmpty && raw.allSatisfy(Self.bashBreaks.contains)
            if (isBreak || joinNext) && !joined.isEmpty {
                joined[joined.count - 1] += text
            } else {
                joined.append(text)
                shellWord = ""
            }
            joinNext = isBreak
            if isBreak {
                // readline's word starts after the last '=' or ':', and at the last '@', which
                // bash keeps in the word (it is one of readline's special prefixes).
                for character in text { shellWord = character == "@" ? "@" : "" }
            } else {
                shellWord += text
            }
        }
        current = joined.count - 1
        guard let run = joined.firstIndex(of: "run"), run < current else { return nil }
        arguments = Array(joined[(run + 1)...])
        current -= run + 1

        var positionals: [String] = []
        var currentPosition: Int?
        var pendingOption: String?
        var afterTerminator = false
        for (position, word) in arguments.enumerated() {
            if position == current {
                // The word under the cursor: a positional unless it is an option's value.
                if pendingOption == nil { currentPosition = positionals.count }
                break
            }
            if let option = pendingOption {
                take(option, word)
                pendingOption = nil
            } else if !afterTerminator && word == "--" {
                afterTerminator = true
            } else if !afterTerminator && word.hasPrefix("-") {
                if let equals = word.firstIndex(of: "=") {
                    take(String(word[..<equals]), String(word[word.index(after: equals)...]))
                } else if Self.valueOptions.contains(word) {
                    pendingOption = word
                } else if word == "--require-trusted" {
                    requireTrusted = true
                }
            } else {
                positionals.append(word)
            }
        }
        guard let currentPosition else { return nil }
        isType = currentPosition == 0
        type = positionals.first
        givenParameters = Set(positionals.dropFirst().compactMap { NamedArgument(parsing: $0)?.name })
    }

    private mutating func take(_ option: String, _ value: String) {
        switch option {
        case "--manifest": manifest = Self.expandingTilde(value)
        case "--locale": locale = value
        case "--define": if let pair = NamedArgument(parsing: value) { defines[pair.name] = pair.value }
        default: break
        }
    }

    /// `word` with shell quoting removed: backslash escapes, '…' and "…" (an unclosed quote runs
    /// to the end, as it does while the word is still being typed).
    static func unquoted(_ word: String) -> String {
        var result = ""
        var quote: Character?
        var escaped = false
        for character in word {
            if escaped {
                if quote == "\"" && !["\"", "\\", "$", "`"].contains(character) { result.append("\\") }
                result.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if let open = quote {
                if character == open { quote = nil } else { result.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `~/…` as the shell would expand it when the command runs.
    static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return HostRequest.current.homeDirectory + path.dropFirst()
    }
}
