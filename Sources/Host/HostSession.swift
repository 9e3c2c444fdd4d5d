import Foundation
import Logging

/// What a command needs to know about the user's request and environment.
public struct HostOptions: Sendable {
    /// `--manifest`: a file or a directory; nil for `$XDG_CONFIG_HOME/standfit/`.
    public var manifestPath: String?
    /// `--define NAME=VALUE` pairs for `$(NAME)` in the manifest.
    public var defines: [String: String]
    /// `--locale`.
    public var locale: String?
    public var environment: [String: String]
    /// Where the running executable is; bundled plugins are found from here.
    public var executableDirectory: URL

    public init(manifestPath: String? = nil, defines: [String: String] = [:], locale: String? = nil,
                environment: [String: String], executableDirectory: URL) {
        self.manifestPath = manifestPath
        self.defines = defines
        self.locale = locale
        self.environment = environment
        self.executableDirectory = executableDirectory
    }
}

/// The composition root of one command: reads the manifest, loads the plugins, and hands the
/// pieces to the menu and the dispatcher. It holds no logic of its own.
public struct HostSession {
    public let paths: HostPaths
    public let manifest: Manifest
    public let plugins: PluginSet
    /// The language handed to plugins and used for titles.
    public let language: String
    private let logger: Logger

    /// Loads the manifest and the plugins.
    public init(options: HostOptions, logger: Logger) throws(HostError) {
        self.logger = logger
        paths = HostPaths(environment: options.environment)
        let preference = LanguagePreference(explicit: options.locale, environment: options.environment)
        let loader = ManifestLoader(
            expander: VariableExpander(defines: options.defines, environment: options.environment),
            language: preference)
        let location = try ManifestLoader.locate(options.manifestPath ?? paths.configDirectory.path,
                                                 required: options.manifestPath != nil)
        let manifest = try location.map { url throws(HostError) in try loader.load(url) } ?? Manifest()
        if let path = manifest.path {
            logger.debug("Manifest \(path): \(manifest.items.count) items")
        } else {
            logger.debug("No manifest in \(paths.configDirectory.path)")
        }
        self.manifest = manifest
        language = preference.language(fallback: manifest.developmentRegion)
        plugins = HostSession.loadPlugins(options: options, paths: paths, language: language, logger: logger)
        for refusal in plugins.refusals {
            logger.warning("\(refusal.reason)")
        }
    }

    /// Loads only the plugins (for commands that do not read the manifest).
    public static func loadPlugins(options: HostOptions, paths: HostPaths? = nil, language: String? = nil,
                                   logger: Logger) -> PluginSet {
        let paths = paths ?? HostPaths(environment: options.environment)
        let searchPath = paths.pluginSearchPath(environment: options.environment,
                                                executableDirectory: options.executableDirectory)
        let language = language
            ?? LanguagePreference(explicit: options.locale, environment: options.environment).language(fallback: nil)
        return PluginLoader(searchPath: searchPath, paths: paths, logger: logger, language: language).load()
    }

    /// The static items: the manifest's, then the plugins' defaults.
    public var staticItems: [ShortcutItem] { manifest.items + plugins.staticItems }

    /// The merged menu, asking each dynamic provider for its current items.
    public func menu(limit: Int = Menu.defaultLimit) -> Menu {
        var dynamic: [ShortcutItem] = []
        for provider in plugins.providers {
            switch provider.items(language) {
            case .success(let items): dynamic += items
            case .failure(let failure): logger.warning("\(failure.message)")
            }
        }
        let registry = plugins.registry
        return Menu(items: staticItems + dynamic, isHandled: { registry.handler(for: $0) != nil }, limit: limit)
    }

    /// Runs `type` with `name=value` arguments.
    public func run(_ type: String, arguments: [String]) -> Outcome {
        var named: [NamedArgument] = []
        for text in arguments {
            guard let argument = NamedArgument(parsing: text) else {
                return Outcome(status: .invalidInput, type: type,
                               message: "Argument '\(text)' is not of the form name=value; write each parameter as NAME=VALUE.")
            }
            named.append(argument)
        }
        let dispatcher = Dispatcher(registry: plugins.registry, items: staticItems,
                                    fallbackType: manifest.fallbackType, locale: language)
        return dispatcher.run(type, arguments: named)
    }
}
