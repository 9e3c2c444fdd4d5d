import ArgumentParser
import Foundation
import HostDesktop
import HostDispatch
import HostModel
import HostServer
import Logging
import PluginRuntime
import StandFitHost
import WarmWire

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Flag(help: Usage.help("help.option.json"))
    var json = false

    @Flag(name: .shortAndLong, help: Usage.help("help.option.verbose"))
    var verbose = false

    var logger: Logger { GlobalOptions.logger(verbose: verbose) }

    static func logger(verbose: Bool) -> Logger {
        let level: Logger.Level = verbose ? .debug : .warning
        let descriptor = Console.current.streams.error
        return Logger(label: "standfit-host") { _ in StderrLogHandler(level: level, descriptor: descriptor) }
    }
}

/// Options of commands that read the manifest.
struct ManifestOptions: ParsableArguments {
    @Option(help: Usage.help("help.option.manifest", valueName: "path"))
    var manifest: String?

    @Option(name: .customLong("define"),
            help: Usage.help("help.option.define", valueName: "NAME=VALUE"))
    var defines: [String] = []

    @Option(help: Usage.help("help.option.locale", valueName: "language"))
    var locale: String?

    @Flag(name: .customLong("require-trusted"),
          help: Usage.help("help.option.requireTrusted"))
    var requireTrusted = false

    func validate() throws {
        for define in defines where NamedArgument(parsing: define) == nil {
            throw ValidationError(Usage.words("usage.define.form", ["define": define]))
        }
    }

    func hostOptions(_ global: GlobalOptions, isolate: Bool = false) -> HostOptions {
        var values: [String: String] = [:]
        for define in defines {
            if let pair = NamedArgument(parsing: define) { values[pair.name] = pair.value }
        }
        var options = HostOptions(manifestPath: manifest, defines: values, locale: locale,
                                  request: .current, link: .current, executable: Executable.url,
                                  isolate: isolate, requireTrusted: requireTrusted, verbose: global.verbose,
                                  warm: Executable.warm)
        // The composition wires the desktop surface into the session: an installed desktop file
        // follows what a command changes.
        options.desktop = .installedFile
        return options
    }
}

/// `--app`, for the commands that show the menus: one app's menu instead of every app's.
struct AppOptions: ParsableArguments {
    @Option(help: Usage.help("help.option.app", valueName: "id"))
    var app: String?
}

/// `--isolate`, for the commands that run plugin code.
struct IsolationOptions: ParsableArguments {
    @Flag(help: Usage.help("help.option.isolate"))
    var isolate = false
}

enum Executable {
    /// This process is the warm server, which runs no plugin code in its own process: every
    /// plugin call goes to one of its warm workers.
    static var isServer: Bool { WarmServer.current != nil }

    /// What the warm server keeps between commands (its plugin workers among them), when
    /// this process is the server.
    static var warm: WarmResources? { WarmServer.current?.warm }

    /// The command users type (the thin client), for what is written for people and desktops
    /// to run: the desktop entry's Exec lines.
    static var command: URL { URL(fileURLWithPath: WarmPlace.client(forFullHost: url.path)) }

    /// The running executable, symlinks resolved, so bundled plugins are found beside the real
    /// binary, and helpers start the same one.
    static var url: URL {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path)
    }
}

/// `--no-input` and `--dry-run`, for the commands that run an action.
struct InteractionOptions: ParsableArguments {
    @Flag(name: .customLong("no-input"),
          help: Usage.help("help.option.noInput"))
    var noInput = false

    @Flag(name: .customLong("dry-run"),
          help: Usage.help("help.option.dryRun"))
    var dryRun = false

    /// Asks on the terminal unless told not to, or when there is none.
    func runOptions(_ global: GlobalOptions, argumentSource: ResolvedParameter.Source = .argument) -> Dispatcher.RunOptions {
        Dispatcher.RunOptions(conversation: TerminalConversation.make(noInput: noInput), dryRun: dryRun,
                              argumentSource: argumentSource, showsData: global.json)
    }
}
