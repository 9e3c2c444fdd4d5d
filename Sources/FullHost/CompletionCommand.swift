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
        Console.current.print(script, terminator: script.hasSuffix("\n") ? "" : "\n")
    }
}
