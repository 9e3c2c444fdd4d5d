import ArgumentParser
import Foundation
import HostModel
import HostServer
import Logging
import StandFitHost

/// `completion bash|zsh|fish`: the completion script ArgumentParser generates for the whole
/// command tree. Its static parts (subcommands, options) are in the script; `run`'s types,
/// parameter names and values are asked of this binary on every TAB (`RunCompletion`).
struct CompletionCommand: HostCommand {
    /// Printing a completion script is no reason to start a server.
    static let traits: CommandTraits = [.startsNoServer]

    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "completion",
        abstract: Usage.words("help.completion"),
        discussion: Usage.words("help.completion.discussion")
    ) }

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

    @Argument(help: Usage.help("help.completion.shell"))
    var shell: Shell

    func run() {
        let script = StandFitHostCommand.completionScript(for: shell.completionShell)
        Console.current.print(script, terminator: script.hasSuffix("\n") ? "" : "\n")
    }
}
