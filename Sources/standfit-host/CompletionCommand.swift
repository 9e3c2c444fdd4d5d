import ArgumentParser
import Foundation
import Logging
import StandFitHost
import HostModel

/// `completion bash|zsh|fish`: the completion script ArgumentParser generates for the whole
/// command tree. Its static parts (subcommands, options) are in the script; `run`'s types,
/// parameter names and values are asked of this binary on every TAB (`RunCompletion`).
struct CompletionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            bash: source <(standfit-host completion bash) in ~/.bashrc. \
            zsh: source <(standfit-host completion zsh) in ~/.zshrc after compinit, or save it as \
            _standfit-host in a directory on $fpath. \
            fish: standfit-host completion fish > ~/.config/fish/completions/standfit-host.fish. \
            'run' completes types, name= and values from the registry cache, running no plugin code.
            """
    )

    enum Shell: String, ExpressibleByArgument, CaseIterable {
        case bash, zsh, fish

        var completionShell: CompletionShell {
            switch self {
            case .bash: .bash
            case .zsh: .zsh
            case .fish: .fish
            }
        }
    }

    @Argument(help: "The shell to complete in.")
    var shell: Shell

    func run() {
        let script = StandFitHostCommand.completionScript(for: shell.completionShell)
        print(script, terminator: script.hasSuffix("\n") ? "" : "\n")
    }
}

/// The dynamic completions of `run TYPE [name=value …]`, which ArgumentParser's scripts ask for
/// by running `standfit-host ---completion …` with the words of the command line.
///
/// One function serves both of `run`'s arguments and decides from the words which one is under
/// the cursor, so an option the script miscounted (bash's `--manifest=PATH` is three words to it)
/// cannot turn a type into a parameter.
///
/// The answer comes from a `HostSession` built with the options on the line, which vets the
/// plugins and reads the registry cache: no plugin code runs in this process. Nothing is printed
/// but the candidates: the session logs nowhere, and stderr is /dev/null while it is built, so a
/// scan helper that runs for a changed plugin cannot write over the command line either.
enum RunCompletion {
    @Sendable
    static func complete(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let shell = CompletionShell.requesting
        guard let line = CompletionLine(words: words, index: index, prefix: prefix, shell: shell),
              let session = silently({ session(for: line) }) else { return [] }
        let typed = line.typed
        let candidates: [String]
        if line.isType {
            candidates = session.completionTypes(prefix: typed)
        } else if let type = line.type {
            if let equals = typed.firstIndex(of: "=") {
                let name = String(typed[..<equals])
                candidates = session.completionValues(type: type, parameter: name,
                                                      prefix: String(typed[typed.index(after: equals)...]))
                    .map { "\(name)=\($0)" }
            } else {
                candidates = session.completionParameters(type: type, given: line.givenParameters, prefix: typed)
            }
        } else {
            candidates = []
        }
        // The shell replaces only its own word, which in bash starts after the last '=', ':' or '@'.
        let replaced = typed.count - line.shellWord.count
        return candidates.filter { $0.hasPrefix(typed) }.compactMap { candidate in
            shellData(String(candidate.dropFirst(replaced)), for: shell)
        }
    }

    /// `word` written so that `shell` takes it as one literal candidate, never as code, or nil
    /// when that shell cannot be given it safely. The values come from plugins (declared defaults,
    /// choices, entity values): a plugin must not be able to run a command in the user's shell,
    /// or change what the user's command line means, by naming a value `$(…)`.
    ///
    /// bash: the script hands the candidates to `compgen -W`, which expands each word (parameters,
    /// command substitution, quotes, braces), so every character but a few plain ones is escaped
    /// with a backslash, which that expansion removes again. readline then quotes the candidate it
    /// inserts (ArgumentParser's script completes with `-o filenames`), but it leaves `$` and `)`
    /// bare: a `$` would expand and a `)` break the line, so a value holding either is not offered
    /// in bash. zsh's `_describe` reads "value:description", so a colon (and the backslash) is
    /// escaped; zsh and fish quote every character of what they insert. A value with a control
    /// character cannot be one line of the answer, nor be typed, and is offered in no shell.
    static func shellData(_ word: String, for shell: CompletionShell?) -> String? {
        guard !word.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        switch shell {
        case .bash?:
            guard !word.contains(where: { $0 == "$" || $0 == ")" }) else { return nil }
            let plain = Set("=-_.,:@%+/^")
            return word.reduce(into: "") { escaped, character in
                if !(character.isLetter || character.isNumber || plain.contains(character)) { escaped.append("\\") }
                escaped.append(character)
            }
        case .zsh?:
            return word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
        default:
            return word
        }
    }

    /// The session the command line describes: its --manifest, --define, --locale and
    /// --require-trusted, the environment, and a logger that drops everything.
    private static func session(for line: CompletionLine) -> HostSession? {
        let options = HostOptions(manifestPath: line.manifest, defines: line.defines, locale: line.locale,
                                  request: .thisProcess, executable: Executable.url,
                                  requireTrusted: line.requireTrusted)
        let logger = Logger(label: "standfit-host.completion") { _ in SwiftLogNoOpLogHandler() }
        return try? HostSession(options: options, logger: logger)
    }

    /// Runs `body` with stderr on /dev/null, for itself and every process it starts.
    private static func silently<T>(_ body: () -> T) -> T {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        let saved = dup(STDERR_FILENO)
        guard null >= 0, saved >= 0 else {
            if null >= 0 { close(null) }
            if saved >= 0 { close(saved) }
            return body()
        }
        dup2(null, STDERR_FILENO)
        close(null)
        defer {
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
        return body()
    }
}

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
        return HostRequest.thisProcess.homeDirectory + path.dropFirst()
    }
}
