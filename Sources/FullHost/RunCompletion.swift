import ArgumentParser
import Foundation
import HostModel
import HostServer
import Logging
import PluginRuntime
import StandFitHost

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
                                  request: .current, link: .current, executable: Executable.url,
                                  requireTrusted: line.requireTrusted, warm: Executable.warm)
        let logger = Logger(label: "standfit-host.completion") { _ in SwiftLogNoOpLogHandler() }
        return try? HostSession(options: options, logger: logger)
    }

    /// Runs `body` with the request's stderr on /dev/null, for itself and every helper it starts.
    private static func silently<T>(_ body: () -> T) -> T {
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard null >= 0 else { return body() }
        defer { close(null) }
        return Console.$current.withValue(Console.current.sendingErrors(to: null)) {
            RequestLink.$current.withValue(RequestLink.current.redirected(to: null), operation: body)
        }
    }
}
