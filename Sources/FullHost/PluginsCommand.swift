import ArgumentParser
import Foundation
import HostModel
import HostScaffold
import HostServer
import PluginRuntime
import StandFitHost

/// `plugins`: what is on the plugin path, and the commands that manage it.
struct PluginsCommand: HostCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "plugins",
        abstract: Usage.words("help.plugins"),
        subcommands: [Show.self, Rescan.self, Check.self, New.self, Trust.self, Untrust.self],
        defaultSubcommand: Show.self
    ) }

    /// Options of the plugin commands: they read no manifest.
    struct Options: ParsableArguments {
        @OptionGroup var global: GlobalOptions

        @Flag(name: .customLong("require-trusted"),
              help: Usage.help("help.plugins.requireTrusted"))
        var requireTrusted = false

        func context() throws -> PluginContext {
            let options = HostOptions(request: .current, link: .current, executable: Executable.url,
                                      requireTrusted: requireTrusted, verbose: global.verbose, warm: Executable.warm)
            return try PluginContext(options: options, logger: global.logger)
        }

        func show(_ plugins: PluginSet, paths: HostPaths, language: String) {
            if global.json {
                Output.printJSON(plugins.document(language: language))
                return
            }
            if plugins.plugins.isEmpty && plugins.refusals.isEmpty {
                Output.printError(HostText(language: HostRequest.current.language())("plugins.none", ["path": paths.userPluginDirectory.path]))
            }
            plugins.textLines(language: language).forEach(Output.show)
        }
    }

    struct Show: HostCommand {
        var globalOptions: GlobalOptions? { options.global }

        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "show",
            abstract: Usage.words("help.plugins.show")
        ) }

        @OptionGroup var options: Options

        func run() throws {
            let context = try options.context()
            options.show(context.catalog.load().plugins, paths: context.paths, language: context.catalog.settings.language)
        }
    }

    struct Rescan: HostCommand {
        var globalOptions: GlobalOptions? { options.global }

        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "rescan",
            abstract: Usage.words("help.plugins.rescan")
        ) }

        @OptionGroup var options: Options

        func run() throws {
            let context = try options.context()
            let loaded = try context.rescan()
            options.show(loaded.plugins, paths: context.paths, language: context.catalog.settings.language)
        }
    }

    struct Check: HostCommand {
        var globalOptions: GlobalOptions? { options.global }

        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "check",
            abstract: Usage.words("help.plugins.check"),
            discussion: Usage.words("help.plugins.check.discussion")
        ) }

        @OptionGroup var options: Options

        @Flag(help: Usage.help("help.plugins.check.strict"))
        var strict = false

        @Argument(help: Usage.help("help.plugins.check.path", valueName: "path"))
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
        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "new",
            abstract: Usage.words("help.plugins.new"),
            discussion: Usage.words("help.plugins.new.discussion")
        ) }

        @OptionGroup var global: GlobalOptions

        @Argument(help: Usage.help("help.plugins.new.id", valueName: "id"))
        var id: String

        @Option(help: Usage.help("help.plugins.new.language", valueName: "language"))
        var language: PluginScaffold.Language

        @Argument(help: Usage.help("help.plugins.new.directory", valueName: "dir"))
        var directory: String?

        @Option(help: Usage.help("help.plugins.new.sdk", valueName: "path"))
        var sdk: String?

        struct Document: Encodable {
            var id, language, directory, sdk, product, build, message: String
            var files: [String]
        }

        func validate() throws {
            if let problem = PluginScaffold.problem(with: id) { throw ValidationError(Usage.text(problem)) }
        }

        func run() throws {
            let request = HostRequest.current
            let sdkURL: URL
            if let sdk {
                sdkURL = request.url(forPath: sdk)
                guard PluginSDK.isSDK(sdkURL) else {
                    throw HostError(.io, key: "error.sdk.invalid", ["path": sdkURL.path])
                }
            } else {
                guard let found = PluginSDK.locate(executable: Executable.url, environment: request.environment) else {
                    throw HostError(.io, key: "error.sdk.missing", ["path": Executable.url.path])
                }
                sdkURL = found
            }
            let scaffold = PluginScaffold(id: id, language: language, sdk: sdkURL)
            let target = request.url(forPath: directory ?? scaffold.baseName)
            try PluginsCommand.write(scaffold.files, to: target)
            let message = HostText(language: request.language())("plugins.wrote", ["id": id, "language": language.rawValue, "path": target.path,
                                                                                    "build": scaffold.buildCommand, "product": scaffold.product])
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
                throw HostError(.io, key: "error.new.exists", ["path": target.path])
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
            throw HostError(.io, key: "error.new.write", ["path": target.path, "why": error.localizedDescription, "directory": parent.path])
        }
    }

    struct Trust: HostCommand {
        var globalOptions: GlobalOptions? { options.global }

        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "trust",
            abstract: Usage.words("help.plugins.trust"),
            discussion: Usage.words("help.plugins.trust.discussion")
        ) }

        @OptionGroup var options: Options

        @Argument(help: Usage.help("help.plugins.trust.path", valueName: "path"))
        var path: String

        struct Document: Encodable {
            var path, realPath, sha256, message: String
        }

        func run() throws {
            let context = try options.context()
            let pin = try context.trust(path)
            let message = HostText(language: HostRequest.current.language())("plugins.trusted", ["path": pin.realPath, "sha256": pin.sha256])
            Output.report(options.global, Document(path: path, realPath: pin.realPath, sha256: pin.sha256, message: message),
                          message: \.message)
        }
    }

    struct Untrust: HostCommand {
        var globalOptions: GlobalOptions? { options.global }

        static var configuration: CommandConfiguration { CommandConfiguration(
            commandName: "untrust",
            abstract: Usage.words("help.plugins.untrust")
        ) }

        @OptionGroup var options: Options

        @Argument(help: Usage.help("help.plugins.untrust.path", valueName: "path"))
        var path: String

        struct Document: Encodable {
            var path, message: String
            var removed: Bool
        }

        func run() throws {
            let context = try options.context()
            let removed = try context.untrust(path)
            let message = HostText(language: HostRequest.current.language())(removed ? "plugins.untrusted" : "plugins.notTrusted", ["path": path])
            Output.report(options.global, Document(path: path, message: message, removed: removed), message: \.message)
        }
    }
}

/// `plugins new --language c|swift|rust`.
extension PluginScaffold.Language: ExpressibleByArgument {}
