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
    @Flag(help: "Print one JSON document on stdout instead of text.")
    var json = false

    @Flag(name: .shortAndLong, help: "Log what the host does, and plugins' debug lines, on stderr.")
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
    @Option(help: ArgumentHelp("The manifest: an Info.plist or manifest.json, or a directory holding one.",
                               valueName: "path"))
    var manifest: String?

    @Option(name: .customLong("define"),
            help: ArgumentHelp("A value for $(NAME) in the manifest (repeatable).", valueName: "NAME=VALUE"))
    var defines: [String] = []

    @Option(help: ArgumentHelp("The language for titles and messages, e.g. nl or en_US (default: LC_ALL, LC_MESSAGES, LANG).",
                               valueName: "language"))
    var locale: String?

    @Flag(name: .customLong("require-trusted"),
          help: "Load only plugins pinned with 'plugins trust' (config.json: requireTrusted).")
    var requireTrusted = false

    func validate() throws {
        for define in defines where NamedArgument(parsing: define) == nil {
            throw ValidationError("--define '\(define)' is not of the form NAME=VALUE; write it as e.g. --define PRODUCT_BUNDLE_IDENTIFIER=com.example.app.")
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
    @Option(help: ArgumentHelp("Show only this app's quick actions: a plugin's id or name (StandFit), or 'user' for your routines.",
                               valueName: "id"))
    var app: String?
}

/// `--isolate`, for the commands that run plugin code.
struct IsolationOptions: ParsableArguments {
    @Flag(help: "Run plugins' handlers and providers in a worker process even when they are trusted.")
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
          help: "Never ask for a missing value: answer invalid-input with needsValue instead (also when stdin is not a terminal).")
    var noInput = false

    @Flag(name: .customLong("dry-run"),
          help: "Resolve the parameters, print each value and where it came from, and run nothing.")
    var dryRun = false

    /// Asks on the terminal unless told not to, or when there is none.
    func runOptions(_ global: GlobalOptions, argumentSource: ResolvedParameter.Source = .argument) -> Dispatcher.RunOptions {
        Dispatcher.RunOptions(conversation: TerminalConversation.make(noInput: noInput), dryRun: dryRun,
                              argumentSource: argumentSource, showsData: global.json)
    }
}
