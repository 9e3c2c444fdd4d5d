import ArgumentParser

/// A command of the host's, as it declares itself, once, in its own declaration: its options
/// (`GlobalCommand`, `ManifestCommand`) say whether it reports errors as JSON and takes a
/// language, and its `traits` how the cold path, the warm server and auto-start treat it. None
/// of them keeps a list of command types.
protocol HostCommand: ParsableCommand {
    /// How it runs; none for a command that runs warm and leaves a server for the next one.
    static var traits: CommandTraits { get }
    /// Its `--json` and `--verbose`: a command with them reports its errors as JSON under
    /// `--json`, and says under `--verbose` how it runs. Nil for a group or a helper.
    var globalOptions: GlobalOptions? { get }
    /// Its manifest options: an error it cannot start for is said in their `--locale`. Nil
    /// for a command that takes none.
    var languageOptions: ManifestOptions? { get }
    /// The language its `--locale` names, if it has one: what its errors are said in.
    var explicitLocale: String? { get }
}

extension HostCommand {
    static var traits: CommandTraits { [] }
    var globalOptions: GlobalOptions? { nil }
    var languageOptions: ManifestOptions? { nil }
    var explicitLocale: String? { languageOptions?.locale }
}

/// A command with the global options.
protocol GlobalCommand: HostCommand {
    var global: GlobalOptions { get }
}

extension GlobalCommand {
    var globalOptions: GlobalOptions? { global }
}

/// A command with the global options and the manifest's (the usual command).
protocol ManifestCommand: GlobalCommand {
    var manifestOptions: ManifestOptions { get }
}

extension ManifestCommand {
    var languageOptions: ManifestOptions? { manifestOptions }
}

/// How the host treats a command.
struct CommandTraits: OptionSet, Sendable {
    let rawValue: Int

    /// Never runs in the warm server: the full-screen menu drives the terminal in the client's
    /// own process, and the server and its helpers are processes of their own.
    static let runsCold = CommandTraits(rawValue: 1 << 0)
    /// Starts no server after it ran cold: the server's own commands, the helpers, printing a
    /// completion script.
    static let startsNoServer = CommandTraits(rawValue: 1 << 1)
    /// Reaches the server whatever its mode, and shows no local time (`server status`, `stop`).
    static let controlsServer = CommandTraits(rawValue: 1 << 2)
    /// A process of the host's own (the server, a helper): not refused when plugin code is its
    /// ancestor, since the host starts it for plugins.
    static let hostProcess = CommandTraits(rawValue: 1 << 3)

    /// The server and its helpers.
    static let process: CommandTraits = [.runsCold, .startsNoServer, .hostProcess]

    /// What `command` declared; none for a command that is not the host's (ArgumentParser's help).
    static func of(_ command: any ParsableCommand) -> CommandTraits {
        (type(of: command) as? any HostCommand.Type)?.traits ?? []
    }
}
