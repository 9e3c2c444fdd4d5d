import ArgumentParser
import Foundation
import HostModel
import HostScaffold
import HostServer
import PluginRuntime
import StandFitHost

/// `plugins`: what is on the plugin path, and the commands that manage it.
struct PluginsCommand: HostCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "Show, check, trust and rescan the plugins on the plugin path.",
        subcommands: [Show.self, Rescan.self, Check.self, New.self, Trust.self, Untrust.self],
        defaultSubcommand: Show.self
    )

    /// Options of the plugin commands: they read no manifest.
    struct Options: ParsableArguments {
        @OptionGroup var global: GlobalOptions

        @Flag(name: .customLong("require-trusted"),
              help: "Load only plugins pinned with 'plugins trust' (config.json: requireTrusted).")
        var requireTrusted = false

        func context() throws -> PluginContext {
            let options = HostOptions(request: .current, link: .current, executable: Executable.url,
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

    struct Show: HostCommand {
        var globalOptions: GlobalOptions? { options.global }

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

    struct Rescan: HostCommand {
        var globalOptions: GlobalOptions? { options.global }

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

    struct Check: HostCommand {
        var globalOptions: GlobalOptions? { options.global }

        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Load one plugin in a helper process and report its ABI, types, parameters, items and every problem.",
            discussion: """
                Exit status: 0 when the plugin loads (with --strict: and has no warnings), 1 when it loads with warnings under --strict, 4 when it is refused, crashes or hangs. docs/PLUGIN_GUIDE.md lists the mistakes it catches and documents --json.
                """
        )

        @OptionGroup var options: Options

        @Flag(help: "Exit 1 when the plugin loads with warnings: for a plugin's own tests and CI.")
        var strict = false

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
            if strict && !check.warnings.isEmpty { throw ExitCode(Output.Status.problemsFound) }
        }
    }

    struct New: GlobalCommand {
        static let configuration = CommandConfiguration(
            commandName: "new",
            abstract: "Write a plugin that builds, passes 'plugins check --strict' and runs, in C, Swift or Rust.",
            discussion: """
                It has one action, ID.greet, and its build file: a Makefile (make, make check, make install), a Swift package that depends on the plugin SDK alone, or a Cargo crate of type cdylib that builds offline. Exit status: 0 when it is written, 5 when DIR exists and is not empty or cannot be written, 64 for an ID that is not a reverse-DNS plugin id.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("The plugin's reverse-DNS id, e.g. com.yourname.water.", valueName: "id"))
        var id: String

        @Option(help: ArgumentHelp("c, swift or rust.", valueName: "language"))
        var language: PluginScaffold.Language

        @Argument(help: ArgumentHelp("Where to write it (default: the id's last part, in the current directory); it must not exist or be empty.", valueName: "dir"))
        var directory: String?

        @Option(help: ArgumentHelp("The plugin SDK to build against (default: STANDFIT_SDK, else the one installed with this host).", valueName: "path"))
        var sdk: String?

        struct Document: Encodable {
            var id, language, directory, sdk, product, build, message: String
            var files: [String]
        }

        func validate() throws {
            if let problem = PluginScaffold.problem(with: id) { throw ValidationError(problem) }
        }

        func run() throws {
            let request = HostRequest.current
            let sdkURL: URL
            if let sdk {
                sdkURL = request.url(forPath: sdk)
                guard PluginSDK.isSDK(sdkURL) else {
                    throw HostError(.io, "--sdk \(sdkURL.path) is not a standfit-host plugin SDK (it has no Package.swift and Sources/CStandFitABI/include/standfit_plugin.h); give the SDK directory of a standfit-host source tree (SDK/standfit-plugin-sdk) or installation (share/standfit-host/sdk).")
                }
            } else {
                guard let found = PluginSDK.locate(executable: Executable.url, environment: request.environment) else {
                    throw HostError(.io, "No plugin SDK was found beside \(Executable.url.path) (SDK/standfit-plugin-sdk of its source tree, or share/standfit-host/sdk of its installation); give one with --sdk PATH or STANDFIT_SDK.")
                }
                sdkURL = found
            }
            let scaffold = PluginScaffold(id: id, language: language, sdk: sdkURL)
            let target = request.url(forPath: directory ?? scaffold.baseName)
            try PluginsCommand.write(scaffold.files, to: target)
            let message = "Wrote \(id) in \(language.rawValue) to \(target.path); build it there with '\(scaffold.buildCommand)', then 'standfit-host plugins check --strict \(scaffold.product)'."
            Output.report(global, Document(id: id, language: language.rawValue, directory: target.path, sdk: sdkURL.path,
                                           product: target.appendingPathComponent(scaffold.product).path, build: scaffold.buildCommand,
                                           message: message, files: scaffold.files.map(\.path)),
                          message: \.message)
        }
    }

    /// Writes `files` as the directory `target`: into a new directory beside it first, renamed
    /// into place once every file is written, so that a failure leaves nothing half-written.
    static func write(_ files: [PluginScaffold.File], to target: URL) throws(HostError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: target.path, isDirectory: &isDirectory) {
            let empty = isDirectory.boolValue && ((try? manager.contentsOfDirectory(atPath: target.path).isEmpty) ?? false)
            guard empty else {
                throw HostError(.io, "\(target.path) already exists and is not an empty directory; give another directory, or remove it first.")
            }
        }
        let parent = target.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(target.lastPathComponent).new-\(getpid())")
        do {
            try manager.createDirectory(at: parent, withIntermediateDirectories: true)
            try manager.createDirectory(at: staging, withIntermediateDirectories: false)
            for file in files {
                let url = staging.appendingPathComponent(file.path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url)
            }
            guard rename(staging.path, target.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            try? manager.removeItem(at: staging)
            throw HostError(.io, "Cannot write \(target.path): \(error.localizedDescription); check that \(parent.path) is writable.")
        }
    }

    struct Trust: HostCommand {
        var globalOptions: GlobalOptions? { options.global }

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
            let message = "Trusted \(pin.realPath) with SHA-256 \(pin.sha256): it is now scanned and run without the sandbox, in the host's own process when a command runs cold (in a warm worker when the warm server runs it), so its code can do whatever you can; it loads only while its bytes match, so trust it again after each rebuild ('standfit-host plugins untrust' undoes this)."
            Output.report(options.global, Document(path: path, realPath: pin.realPath, sha256: pin.sha256, message: message),
                          message: \.message)
        }
    }

    struct Untrust: HostCommand {
        var globalOptions: GlobalOptions? { options.global }

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

/// `plugins new --language c|swift|rust`.
extension PluginScaffold.Language: ExpressibleByArgument {}
