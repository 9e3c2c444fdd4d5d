import Foundation
import Logging
import HostModel

/// The plugins on the search path as commands see them: vetted without running plugin code,
/// answered from the registry cache where a plugin has not changed, and scanned in a helper
/// process where it has. No plugin code runs in the host to build it: an action's handler and
/// a provider load their plugin only when called (`PluginExecutor`).
public struct PluginCatalog {
    public struct Settings {
        public var searchPath: [URL]
        public var paths: HostPaths
        public var language: String
        /// Where the plugins that come with the host are (real paths of directories and files).
        public var bundledLocations: Set<String>
        /// Real path → pinned SHA-256.
        public var pins: [String: String]
        public var requireTrusted: Bool
        /// The host binary, started again as scan helper and handler worker.
        public var executable: String
        /// The request's environment, which helpers and workers run in.
        public var environment: [String: String]
        /// The request's wall clock, for when a scan was cached.
        public var now: Date
        public var scanTimeout: Double
        public var handlerTimeout: Double
        public var isolate: Bool
        /// The warm server's workers, when the server runs this command: it runs no plugin
        /// code in its own process, so trusted plugins too run in (warm) workers, though they
        /// are described as the cold path runs them.
        public var warmWorkers: WarmWorkers?
        /// The warm server's memory of the registry cache's answers.
        public var scanMemo: ScanMemo?
        /// The warm server's vetting kept between commands (`VettingMemo`); nil on the cold path.
        public var vettingMemo: VettingMemo?
        /// The request's working directory and umask, which warm workers take on for each call.
        public var workingDirectory = "/"
        public var umask: UInt32 = 0o022
        /// Run untrusted plugin code in the sandbox where the kernel has one.
        public var sandbox: Bool
        public var verbose: Bool
        /// The request the helpers and workers it starts work for: where their output goes, and
        /// the cancel that kills them (`RequestLink`).
        package var link: RequestLink

        package init(searchPath: [URL], paths: HostPaths, language: String, bundledLocations: Set<String>,
                     pins: [String: String], requireTrusted: Bool, executable: String,
                     environment: [String: String], now: Date, scanTimeout: Double,
                     handlerTimeout: Double, isolate: Bool, sandbox: Bool = true, verbose: Bool, link: RequestLink) {
            self.link = link
            self.searchPath = searchPath
            self.paths = paths
            self.language = language
            self.bundledLocations = bundledLocations
            self.pins = pins
            self.requireTrusted = requireTrusted
            self.executable = executable
            self.environment = environment
            self.now = now
            self.scanTimeout = scanTimeout
            self.handlerTimeout = handlerTimeout
            self.isolate = isolate
            self.sandbox = sandbox
            self.verbose = verbose
        }
    }

    public var settings: Settings
    public var logger: Logger

    public init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// What loading found, with the executor its actions call through.
    public struct Loaded {
        public var plugins: PluginSet
        /// Scanned now rather than answered from the cache.
        public var scannedCount: Int
        package let executor: PluginExecutor
    }

    package var cache: RegistryCache? { RegistryCache(directory: settings.paths.cacheDirectory, logger: logger) }

    /// Forgets every cached scan, so the next load scans every plugin again.
    public func clearCache() throws {
        try cache?.clear()
    }

    public func load() -> Loaded {
        let settings = settings
        logger.debug("Plugin search path: \(settings.searchPath.map(\.path).joined(separator: ":"))")
        let vetting = PluginVetting(searchPath: settings.searchPath, bundledLocations: settings.bundledLocations,
                                    pins: settings.pins, requireTrusted: settings.requireTrusted)
        let files = settings.vettingMemo?.vetted(vetting, logger: { logger.debug("\($0)") })
            ?? vetting.vet(logger: { logger.debug("\($0)") })
        // The cache file is opened only when something must be read from it or stored: in the
        // warm server the memo answers for plugins that have not changed.
        var opened: RegistryCache?? = nil
        func cache() -> RegistryCache? {
            if opened == nil { opened = .some(self.cache) }
            return opened ?? nil
        }
        let marker = ScanMarker(cacheDirectory: settings.paths.cacheDirectory)
        marker.recover(into: cache, at: settings.now, logger: logger)
        var candidates: [PluginCandidate] = []
        for case .candidate(let candidate) in files { candidates.append(candidate) }
        let memo = settings.scanMemo, cacheDirectory = settings.paths.cacheDirectory
        let readAt = memo?.version(in: cacheDirectory)
        var results = memo?.results(for: candidates, language: settings.language, cacheDirectory: cacheDirectory,
                                    registry: readAt) ?? [:]
        var commits: UInt32 = 0
        let unknown = candidates.filter { results[$0.realPath] == nil }
        if !unknown.isEmpty {
            results.merge(cache()?.lookup(unknown, language: settings.language) ?? [:]) { memoized, _ in memoized }
        }
        let stale = candidates.filter { results[$0.realPath] == nil }
        if !stale.isEmpty {
            logger.debug("Scanning \(stale.count) new or changed plugin(s) in a helper process: \(stale.map(\.path).joined(separator: ", "))")
            let cache = cache()
            let helper = ScanHelper(settings: settings, logger: logger, marker: cache == nil ? nil : marker)
            let scanned = helper.scan(stale)
            var fresh: [(PluginCandidate, ScanResult)] = []
            for (candidate, result) in zip(stale, scanned) {
                guard let result else { continue }
                results[candidate.realPath] = result
                fresh.append((candidate, result))
            }
            if let cache, !fresh.isEmpty {
                cache.store(fresh, language: settings.language, at: settings.now, logger: logger)
                commits += 1
            }
        }
        if !unknown.isEmpty {
            memo?.record(results, for: candidates, language: settings.language, cacheDirectory: cacheDirectory,
                         readAt: readAt, commits: commits)
        }
        let executor = PluginExecutor(settings: settings, logger: logger)
        var builder = PluginSetBuilder(logger: logger, language: settings.language)
        for case .candidate(let candidate) in files where candidate.isBundled {
            if case .loaded(let record)? = results[candidate.realPath] { builder.reserve(record, path: candidate.path) }
        }
        for file in files {
            switch file {
            case .refused(let refusal):
                builder.refuse(refusal)
            case .candidate(let candidate):
                switch results[candidate.realPath] {
                case nil:
                    continue
                case .refused(let reason):
                    builder.refuse(PluginRefusal(path: candidate.path, sentence: reason))
                case .quarantined(let reason):
                    builder.refuse(PluginRefusal(path: candidate.path, sentence: reason, isQuarantined: true))
                case .loaded(let record):
                    add(record, from: candidate, executor: executor, to: &builder)
                }
            }
        }
        var set = builder.set
        set.calls = executor.calls()
        set.ownPhrases(language: settings.language, logger: logger)
        return Loaded(plugins: set, scannedCount: stale.count, executor: executor)
    }

    /// Adds a cached plugin, whose code `executor` calls when it is asked to.
    private func add(_ record: PluginRecord, from candidate: PluginCandidate, executor: PluginExecutor,
                     to builder: inout PluginSetBuilder) {
        let id = record.id
        let actions = record.actions.map { action in
            RegisteredAction(type: action.type, title: action.title, subtitle: action.subtitle, icon: action.icon,
                             parameters: action.parameters, pluginID: id, phrases: action.phrases,
                             suggestible: action.suggestible, confirms: action.confirms)
        }
        let provider = record.hasProvider ? DynamicProvider(pluginID: id) : nil
        let entities = record.entities.map { EntityProvider(record: $0, pluginID: id) }
        let info = PluginInfo(id: id, name: record.name, version: record.version, abiMajor: record.abiMajor,
                              abiMinor: record.abiMinor, path: candidate.path, types: [],
                              isTrusted: candidate.isTrusted, isBundled: candidate.isBundled,
                              runsInProcess: executor.runsInProcess(candidate),
                              initMilliseconds: record.initMilliseconds, programs: record.programs)
        if !candidate.isBundled, let reason = builder.reservation(against: info, types: actions.map(\.type)) {
            builder.refuse(PluginRefusal(path: candidate.path, sentence: reason))
            return
        }
        executor.add(candidate, as: id, programs: record.programs)
        builder.add(info: info, actions: actions, staticItems: record.staticItems, provider: provider,
                    entities: entities, warnings: record.warnings)
    }
}
