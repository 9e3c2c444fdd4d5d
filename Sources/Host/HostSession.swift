import Foundation
import Logging
import HostModel
import HostSurfaces
import HostManifest
import HostStorage
import HostMenu
import PluginRuntime
import HostIntents
import HostDispatch

/// Keeping an installed desktop file current: whether one is installed, and rewriting it from the
/// session's menu. The session knows no surface; the composition hands it this.
public struct DesktopUpkeep: Sendable {
    public var isInstalled: @Sendable (HostSession) -> Bool
    public var update: @Sendable (HostSession) throws(HostError) -> Void

    public init(isInstalled: @escaping @Sendable (HostSession) -> Bool,
                update: @escaping @Sendable (HostSession) throws(HostError) -> Void) {
        self.isInstalled = isInstalled
        self.update = update
    }

    /// No desktop file to keep.
    public static let none = DesktopUpkeep(isInstalled: { _ in false }, update: { _ in })
}

/// What a command was asked to do: the request's own facts (`HostRequest`) and the options of
/// the command line.
public struct HostOptions: Sendable {
    /// `--manifest`: a file or a directory; nil for `$XDG_CONFIG_HOME/standfit/`.
    public var manifestPath: String?
    /// `--define NAME=VALUE` pairs for `$(NAME)` in the manifest.
    public var defines: [String: String]
    /// `--locale`.
    public var locale: String?
    /// The request's environment, working directory, terminals, clock and home.
    public var request: HostRequest
    /// The running executable (symlinks resolved): bundled plugins are found beside it, and it
    /// is started again as the scan helper and the handler worker.
    public var executable: URL
    /// `--isolate`: run every plugin's handlers in a worker process, trusted or not.
    public var isolate: Bool
    /// `--require-trusted`: load only plugins pinned with `plugins trust` (config.json's
    /// `requireTrusted` sets it too).
    public var requireTrusted: Bool
    /// `--verbose`, passed on to helper processes.
    public var verbose: Bool
    /// What the warm server keeps, when the server runs this command: then no plugin code runs
    /// in this process (every plugin call goes to a warm worker), and settings, state and
    /// scans are taken from what it keeps.
    public var warm: WarmResources?
    /// The warm server runs this command.
    public var inServer: Bool { warm != nil }
    /// Keeping an installed desktop file current after the stored items changed: what the
    /// composition wires in (HostDesktop's `DesktopUpkeep.installedFile`); none by default.
    public var desktop: DesktopUpkeep = .none
    /// The request the helpers and workers it starts work for: where their output goes (the
    /// request's stderr) and the cancel that kills them (the client's Ctrl-C, in the server).
    package var link: RequestLink

    package init(manifestPath: String? = nil, defines: [String: String] = [:], locale: String? = nil,
                 request: HostRequest, link: RequestLink, executable: URL, isolate: Bool = false,
                 requireTrusted: Bool = false, verbose: Bool = false, warm: WarmResources? = nil) {
        self.link = link
        self.manifestPath = manifestPath
        self.defines = defines
        self.locale = locale
        self.request = request
        self.executable = executable
        self.isolate = isolate
        self.requireTrusted = requireTrusted
        self.verbose = verbose
        self.warm = warm
    }

    public var executableDirectory: URL { executable.deletingLastPathComponent() }
    public var environment: [String: String] { request.environment }

    /// The user's languages as `--locale` and the environment give them.
    public var languagePreference: LanguagePreference {
        LanguagePreference(explicit: locale, environment: environment)
    }
}

/// The composition root of one command: reads the manifest, loads the plugins, and hands the
/// pieces to the menu and the dispatcher. It wires; the rules live with the parts: the menu's
/// in `Menu`, resolution in `Dispatcher`, what follows a run in `AfterRun`.
public struct HostSession {
    public let paths: HostPaths
    public let manifest: Manifest
    public let plugins: PluginSet
    /// The catalog's answer: the plugins, where each was loaded from, and how it runs.
    public let loaded: PluginCatalog.Loaded
    /// The language handed to plugins and used for titles.
    public let language: String
    public let config: HostConfig
    /// The host's state: stored dynamic items and settings.
    public let state: HostState
    /// The user's routines that can run (`$XDG_CONFIG_HOME/standfit/shortcuts/*.json`).
    public let routines: [Routine]
    /// Now, for donations, suggestions and stored items: the request's clock (`STANDFIT_NOW`
    /// when set, as StandFit reads it).
    public let now: Date
    /// The request this session serves.
    public let request: HostRequest
    /// What the command asked for.
    public let options: HostOptions
    /// Whether the host's own icon set is installed where this request's desktop looks.
    public var icons: OwnIcons
    package let logger: Logger

    /// Loads the manifest and the plugins.
    public init(options: HostOptions, logger: Logger) throws(HostError) {
        self.logger = logger
        paths = options.request.paths
        config = try options.config(of: paths)
        state = try options.state(of: paths)
        now = try options.request.now()
        request = options.request
        self.options = options
        icons = OwnIcons.find(dataHome: paths.dataDirectory.deletingLastPathComponent(), environment: options.environment)
        let preference = options.languagePreference
        let loader = ManifestLoader(
            expander: VariableExpander(defines: options.defines, environment: options.environment),
            language: preference)
        let location = try ManifestLoader.locate(options.manifestPath.map { options.request.url(forPath: $0).path } ?? paths.configDirectory.path,
                                                 required: options.manifestPath != nil)
        let manifest = try location.map { url throws(HostError) in try loader.load(url) } ?? Manifest()
        if let path = manifest.path {
            logger.debug("Manifest \(path): \(manifest.items.count) items")
        } else {
            logger.debug("No manifest in \(paths.configDirectory.path)")
        }
        self.manifest = manifest
        language = preference.language(fallback: manifest.developmentRegion)
        if let note = preference.fallbackNote(fallback: manifest.developmentRegion) { logger.info("\(note)") }
        let configFile = paths.configDirectory.appendingPathComponent(HostConfig.fileName).path
        for warning in config.unknownKeyWarnings(path: configFile, language: language) { logger.warning("\(warning)") }
        let catalog = try HostSession.catalog(options: options, paths: paths, config: config, state: state,
                                              language: language, logger: logger)
        loaded = catalog.load()
        plugins = loaded.plugins
        for refusal in plugins.refusals {
            logger.warning("\(refusal.reason(in: language))")
        }
        let read = RoutineLoader.load(directory: paths.configDirectory.appendingPathComponent("shortcuts"),
                                      registry: plugins.registry, language: language)
        routines = read.routines
        for problem in read.problems { logger.warning("\(problem)") }
        let state = state, language = language
        loaded.executor.refreshLanguages = { id in
            [language] + ((try? state.languages(of: id)) ?? []).filter { $0 != HostState.languageKey(language) }
        }
    }

    /// The plugin catalog the options, settings and pins describe (for commands that do not
    /// read the manifest, too).
    public static func catalog(options: HostOptions, paths: HostPaths, config: HostConfig, state: HostState,
                               language: String? = nil, logger: Logger) throws(HostError) -> PluginCatalog {
        let language = language
            ?? options.languagePreference.language(fallback: nil)
        let bundled = paths.bundledPlugins(executableDirectory: options.executableDirectory)
        var settings = PluginCatalog.Settings(
            searchPath: paths.pluginSearchPath(environment: options.environment,
                                               executableDirectory: options.executableDirectory)
                .map { options.request.url(forPath: $0.path) },
            paths: paths, language: language,
            bundledLocations: Set(bundled.map { RealPath.of($0.path) }),
            pins: try state.pins(), requireTrusted: options.requireTrusted || config.requireTrusted,
            executable: options.executable.path, environment: options.environment,
            now: options.request.wallClock, scanTimeout: config.scanTimeout,
            handlerTimeout: config.handlerTimeout, isolate: options.isolate, sandbox: config.sandbox,
            verbose: options.verbose, link: options.link)
        settings.warmWorkers = options.warm?.workers
        settings.scanMemo = options.warm?.scans
        settings.vettingMemo = options.warm?.vetting
        settings.workingDirectory = options.request.workingDirectory.path
        settings.umask = options.request.umask
        return PluginCatalog(settings: settings, logger: logger)
    }

    /// The static items: the manifest's, then the plugins' defaults.
    public var staticItems: [ShortcutItem] { manifest.items + routines.map(\.item) + plugins.staticItems }

    /// The merged menu from the static items and the stored dynamic items, a menu per app.
    /// Plugin code runs only for a provider never asked yet or with an expired item
    /// (`currentDynamicSources`).
    public func menu(limit: Int? = nil) throws(HostError) -> Menu {
        let registry = plugins.registry, routines = routines
        let staticItems = staticItems
        let staticTypes = Set(staticItems.map(\.type))
        // The type an item runs: a manifest item named with the app's own prefix runs the
        // plugin's type of its last component (the dispatcher's step 5).
        let canonical = { (type: String) -> String in
            Dispatcher.target(of: type, registry: registry, routines: routines, staticItemTypes: staticTypes) ?? type
        }
        let app = { (item: ShortcutItem) in self.app(of: item, runs: canonical(item.type)) }
        var menu = Menu(staticItems: staticItems, dynamic: try currentDynamicSources(),
                        plugins: plugins.plugins.map { ($0.id, $0.version) },
                        isHandled: { Dispatcher.runs($0, registry: registry, routines: routines, staticItemTypes: staticTypes) },
                        canonicalType: canonical, app: app, limit: limit ?? config.menuLimit, language: language)
        // The built-in provider: what usually runs around now, in a slot of its own.
        if let suggested = suggestedItem() { menu.offer(suggested, app: app(suggested)) }
        return menu
    }

    /// The menu of the app `name` names (its id, or its name in any case), or every app's
    /// when `name` is nil.
    public func menu(limit: Int? = nil, app name: String?) throws(HostError) -> Menu {
        let menu = try menu(limit: limit)
        guard let name else { return menu }
        return menu.only(try HostSession.app(named: name, in: menu))
    }

    /// The app of `menu` that `name` names: its id, or its name in any case.
    public static func app(named name: String, in menu: Menu) throws(HostError) -> MenuApp {
        let apps = menu.apps
        guard let app = apps.first(where: { $0.id == name }) ?? apps.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            let known = apps.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")
            throw HostError(.unknownApp, key: apps.isEmpty ? "menu.noApps" : "menu.unknownApp", ["app": name, "apps": known])
        }
        return app
    }

    /// Whether `item` has an icon that shows as a plain bullet: a name no catalog knows
    /// (`IconCatalog`) that is no image file beside its manifest either.
    public static func iconIsUnknown(_ item: ShortcutItem) -> Bool {
        guard let icon = item.icon, !icon.isEmpty else { return false }
        return !IconCatalog.isKnown(icon) && DesktopEntry.iconFile(of: item) == nil
    }

    /// What `list --explain` says of an item whose icon shows as a plain bullet, or nil.
    public static func iconNote(of item: ShortcutItem, language: String = "en") -> String? {
        guard iconIsUnknown(item), let icon = item.icon else { return nil }
        return HostText(language: language)("list.unknownIcon", ["icon": icon, "closest": IconCatalog.closest(to: icon).joined(separator: ", ")])
    }

    /// What surfaces call `type` when no menu item names it: its action's title and icon, or a
    /// routine's; nil for a type nothing runs (then the type itself is all there is).
    public func registeredItem(for type: String) -> ShortcutItem? {
        if let routine = routines.first(where: { $0.type == type }) { return routine.item }
        return plugins.registry.handler(for: type).map { ShortcutItem(type: type, title: $0.title, subtitle: $0.subtitle, icon: $0.icon) }
    }

    /// Whether `type`'s action may ask for a value itself when nobody can be asked at a prompt:
    /// it has an optional parameter with a prompt and values to choose from that `named` leaves
    /// out (the handler asks for it when it needs it; a reminder may run it to ask). Never one
    /// that is confirmed before it runs: a reminder has nobody at a terminal to confirm it.
    public func mayAsk(_ type: String, named: [NamedArgument]) -> Bool {
        guard let action = plugins.registry.handler(for: type), !action.confirms else { return false }
        return action.parameters.contains { parameter in
            !parameter.required && parameter.prompt != nil && parameter.domain != nil && !named.contains { $0.name == parameter.name }
        }
    }

    /// The app `item` belongs to: the plugin whose default or provided item it is; else the
    /// plugin that handles `type` (the type the item runs), or the routines' app; an item that
    /// nothing runs belongs to its type's prefix.
    package func app(of item: ShortcutItem, runs type: String) -> MenuApp {
        let pluginApp = { (id: String) in self.plugins.plugins.first { $0.id == id }.map { MenuApp(id: $0.id, name: $0.name) } }
        if item.source == .routine || routines.contains(where: { $0.type == type }) {
            return MenuApp(id: MenuApp.routinesID, name: HostText(language: language)("menu.routines"))
        }
        if item.source == .dynamic || (item.source == .static && !item.origin.hasPrefix("/")),
           let app = pluginApp(item.origin) {
            return app
        }
        if let id = plugins.registry.handler(for: type)?.pluginID, let app = pluginApp(id) { return app }
        let prefix = String(type.prefix(upTo: type.lastIndex(of: ".") ?? type.endIndex))
        return MenuApp(id: prefix, name: prefix)
    }

    /// The dispatcher over the plugins' actions and the static items.
    public var dispatcher: Dispatcher {
        let plugins = plugins
        return Dispatcher(registry: plugins.registry, items: staticItems, fallbackType: manifest.fallbackType,
                          locale: language, entity: { plugins.entity($1, of: $0) }, routines: routines,
                          calls: plugins.calls)
    }

    /// Runs `type` with its `name=value` arguments and, when given, the chosen item's userInfo;
    /// then the after-run policy (donation, refresh, desktop file) follows the outcome.
    public func run(_ type: String, named: [NamedArgument], userInfo: [String: JSONValue]? = nil,
                    options: Dispatcher.RunOptions = Dispatcher.RunOptions()) -> Outcome {
        let outcome = dispatcher.run(type, arguments: named, userInfo: userInfo, options: options)
        afterRun.apply(to: outcome, at: now, scheduled: options.scheduled)
        return outcome
    }
}
