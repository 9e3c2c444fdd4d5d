import ArgumentParser
import Foundation
import StandFitHost
import HostModel
import PluginRuntime

/// `plugins`: what is on the plugin path, and the commands that manage it.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "Show, check, trust and rescan the plugins on the plugin path.",
        subcommands: [Show.self, Rescan.self, Check.self, Trust.self, Untrust.self],
        defaultSubcommand: Show.self
    )

    /// Options of the plugin commands: they read no manifest.
    struct Options: ParsableArguments {
        @OptionGroup var global: GlobalOptions

        @Flag(name: .customLong("require-trusted"),
              help: "Load only plugins pinned with 'plugins trust' (config.json: requireTrusted).")
        var requireTrusted = false

        func context() throws -> PluginContext {
            let options = HostOptions(request: .current, executable: Executable.url,
                                      requireTrusted: requireTrusted, verbose: global.verbose, warm: Executable.warm)
            return try PluginContext(options: options, logger: global.logger)
        }

        func show(_ plugins: PluginSet, paths: HostPaths) {
            if global.json {
                Output.printJSON(plugins.document)
                return
            }
            if plugins.plugins.isEmpty && plugins.refusals.isEmpty {
                Output.printError("No plugins found; put plugin .so files in \(paths.userPluginDirectory.path) or set STANDFIT_PLUGIN_PATH.")
            }
            plugins.textLines.forEach(Output.show)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show the plugins: id, version, ABI, path, types, how they run, and what was refused or quarantined and why."
        )

        @OptionGroup var options: Options

        func run() throws {
            let context = try options.context()
            options.show(context.catalog.load().plugins, paths: context.paths)
        }
    }

    struct Rescan: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rescan",
            abstract: "Forget the registry cache and scan every plugin again, quarantined ones included."
        )

        @OptionGroup var options: Options

        func run() throws {
            let context = try options.context()
            let loaded = try context.rescan()
            options.show(loaded.plugins, paths: context.paths)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Load one plugin in a helper process and report its ABI, types, parameters, items and every problem.",
            discussion: "Exit status: 0 when the plugin loads (warnings or not), 4 when it is refused, crashes or hangs."
        )

        @OptionGroup var options: Options

        @Argument(help: ArgumentHelp("The plugin's .so file.", valueName: "path"))
        var path: String

        func run() throws {
            let context = try options.context()
            let check = PluginCheck.run(path: path, catalog: context.catalog)
            if options.global.json {
                Output.printJSON(check.document)
            } else {
                check.textLines.forEach(Output.show)
            }
            if !check.loads { throw ExitCode(Output.Status.pluginFailed) }
        }
    }

    struct Trust: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trust",
            abstract: "Pin a plugin's SHA-256: it then runs in the host's process, and loads only while its bytes match.",
            discussion: "With --require-trusted (or requireTrusted in config.json) only pinned plugins load."
        )

        @OptionGroup var options: Options

        @Argument(help: ArgumentHelp("The plugin's .so file.", valueName: "path"))
        var path: String

        struct Document: Encodable {
            var path, realPath, sha256, message: String
        }

        func run() throws {
            let context = try options.context()
            let pin = try context.trust(path)
            let message = "Trusted \(pin.realPath) with SHA-256 \(pin.sha256); it loads only while its bytes match, and runs in the host's process when a command runs cold, in a warm worker when the warm server runs it ('standfit-host doctor' says whether one is up)."
            Output.report(options.global, Document(path: path, realPath: pin.realPath, sha256: pin.sha256, message: message),
                          message: \.message)
        }
    }

    struct Untrust: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "untrust",
            abstract: "Remove a plugin's pin: it runs in a worker again, and not at all under --require-trusted."
        )

        @OptionGroup var options: Options

        @Argument(help: ArgumentHelp("The plugin's .so file.", valueName: "path"))
        var path: String

        struct Document: Encodable {
            var path, message: String
            var removed: Bool
        }

        func run() throws {
            let context = try options.context()
            let removed = try context.untrust(path)
            let message = removed ? "No longer trusting \(path)." : "\(path) was not trusted; nothing changed."
            Output.report(options.global, Document(path: path, message: message, removed: removed), message: \.message)
        }
    }
}

/// The hidden modes the host starts itself in: they talk over the result pipe, not to people.
struct ScanHelperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan-helper", abstract: "Internal: scan plugins for the registry cache.", shouldDisplay: false)

    @Flag(name: .shortAndLong) var verbose = false

    func run() throws {
        let status = ScanHelper.serve(request: .current, logger: GlobalOptions.logger(verbose: verbose))
        if status != 0 { throw ExitCode(status) }
    }
}

struct HandlerWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handler-worker", abstract: "Internal: run one plugin call in isolation.", shouldDisplay: false)

    @Flag(name: .shortAndLong) var verbose = false
    /// A warm worker: keeps its plugin loaded and answers one call a line until stdin ends.
    @Flag var warm = false

    func run() throws {
        let logger = GlobalOptions.logger(verbose: verbose)
        let status = warm ? HandlerWorker.serveWarm(request: .current, logger: logger)
            : HandlerWorker.serve(request: .current, logger: logger)
        if status != 0 { throw ExitCode(status) }
    }
}
