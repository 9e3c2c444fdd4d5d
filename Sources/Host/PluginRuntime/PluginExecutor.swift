import Foundation
import Logging
import HostModel

/// Runs plugin code when an action or a provider is called, and only then: a trusted plugin
/// (bundled, or pinned by the user) is loaded into the host's process on first use; any other
/// plugin, or every plugin under `--isolate`, runs in a worker process with a deadline, so a
/// crash or a hang becomes a `plugin-failed` answer naming the plugin, the type and the fault.
package final class PluginExecutor {
    struct Settings {
        var paths: HostPaths
        var executable: String
        /// The request's environment, which workers run in.
        var environment: [String: String]
        /// The language told to plugins' `init`.
        var language: String
        /// Seconds one worker call may take.
        var handlerTimeout: Double
        /// Run every plugin in a worker, trusted or not.
        var isolate: Bool
        var verbose: Bool
    }

    let settings: Settings
    let logger: Logger
    /// Languages a provider is asked in after its plugin handled an action (the run's
    /// language and those stored for it), so a worker can answer them in the same process.
    package var refreshLanguages: (_ pluginID: String) -> [String] = { _ in [] }
    private var loaded: [String: Result<LoadedPlugin, PluginRefusal>] = [:]
    /// Provider answers a worker gave with its handler's reply, by plugin and language.
    private var prefetched: [String: [String: HandlerWorker.ProviderAnswer]] = [:]

    init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    func runsInProcess(_ candidate: PluginCandidate) -> Bool {
        candidate.isTrusted && !settings.isolate
    }

    /// Calls the handler registered as `registeredType` by `pluginID`.
    func perform(_ candidate: PluginCandidate, pluginID: String, registeredType: String,
                 invocation: Invocation) -> HandlerReply {
        guard !runsInProcess(candidate) else {
            switch load(candidate, pluginID: pluginID) {
            case .failure(let problem):
                return HandlerReply(status: -1, fault: problem.words)
            case .success(let plugin):
                guard let action = plugin.actions.first(where: { $0.type == registeredType }) else {
                    return HandlerReply(status: -1, fault: "no longer registers \(registeredType) (run 'standfit-host plugins rescan')")
                }
                return action.perform(invocation)
            }
        }
        let request = HandlerWorker.Request(
            candidate: candidate, pluginID: pluginID, language: settings.language,
            call: HandlerWorker.Call(registeredType: registeredType, invocation: invocation),
            provideLanguages: refreshLanguages(pluginID))
        switch callWorker(request) {
        case .failure(let fault):
            return HandlerReply(status: -1, fault: fault.words)
        case .success(let reply):
            if let failure = reply.loadFailure { return HandlerReply(status: -1, fault: "could not be loaded (\(failure))") }
            prefetched[pluginID] = reply.provided
            return reply.reply ?? HandlerReply(status: -1, fault: "answered without running the handler")
        }
    }

    /// Asks `pluginID`'s dynamic provider for its items in `locale`.
    func provide(_ candidate: PluginCandidate, pluginID: String, locale: String) -> Result<[ShortcutItem], ProviderFailure> {
        if let answer = prefetched[pluginID]?[locale] { return answer.result }
        guard !runsInProcess(candidate) else {
            switch load(candidate, pluginID: pluginID) {
            case .failure(let problem):
                return .failure(ProviderFailure(message: "The dynamic provider of plugin '\(pluginID)' is unavailable: the plugin \(problem.words); its dynamic items are left out."))
            case .success(let plugin):
                guard let provider = plugin.provider else {
                    return .failure(ProviderFailure(message: "Plugin '\(pluginID)' no longer has a dynamic provider; run 'standfit-host plugins rescan'."))
                }
                return provider.items(locale)
            }
        }
        let request = HandlerWorker.Request(candidate: candidate, pluginID: pluginID, language: settings.language,
                                            call: nil, provideLanguages: [locale])
        switch callWorker(request) {
        case .failure(let fault):
            return .failure(ProviderFailure(message: "The dynamic provider of plugin '\(pluginID)' \(fault.words); its dynamic items are left out."))
        case .success(let reply):
            if let failure = reply.loadFailure {
                return .failure(ProviderFailure(message: "The dynamic provider of plugin '\(pluginID)' is unavailable: \(failure)"))
            }
            return reply.provided[locale]?.result ?? .success([])
        }
    }

    /// Asks entity `entity` of `pluginID` one query in `locale`.
    func query(_ candidate: PluginCandidate, pluginID: String, entity: EntityRecord, query: EntityQuery,
               locale: String) -> Result<[EntityValue], EntityFailure> {
        let unavailable = { (words: String) in
            EntityFailure(message: "The \(entity.title.lowercased()) values of plugin '\(pluginID)' are unavailable: the plugin \(words)")
        }
        guard !runsInProcess(candidate) else {
            switch load(candidate, pluginID: pluginID) {
            case .failure(let problem):
                return .failure(unavailable(problem.words))
            case .success(let plugin):
                guard let provider = plugin.entities.first(where: { $0.record.id == entity.id }) else {
                    return .failure(unavailable("no longer registers entity \(entity.id) (run 'standfit-host plugins rescan')"))
                }
                return provider.query(query, locale)
            }
        }
        let request = HandlerWorker.Request(candidate: candidate, pluginID: pluginID, language: settings.language,
                                            call: nil, provideLanguages: [],
                                            entityQuery: HandlerWorker.EntityCall(entity: entity.id, query: query, locale: locale))
        switch callWorker(request) {
        case .failure(let fault):
            return .failure(unavailable(fault.words))
        case .success(let reply):
            if let failure = reply.loadFailure { return .failure(unavailable("could not be loaded (\(failure))")) }
            switch reply.entityValues {
            case .some(.items(let values)): return .success(values)
            case .some(.failure(let message)): return .failure(EntityFailure(message: message))
            case nil: return .failure(unavailable("answered without running the query"))
            }
        }
    }

    /// Loads a trusted plugin into this process once.
    private func load(_ candidate: PluginCandidate, pluginID: String) -> Result<LoadedPlugin, PluginFault> {
        let result = loaded[candidate.realPath] ?? {
            logger.debug("Loading plugin '\(pluginID)' from \(candidate.path) into the host's process")
            let opened = PluginImage.open(candidate, paths: settings.paths, logger: logger, language: settings.language)
            loaded[candidate.realPath] = opened
            return opened
        }()
        switch result {
        case .failure(let refusal): return .failure(PluginFault("could not be loaded (\(refusal.reason))"))
        case .success(let plugin) where plugin.info.id != pluginID:
            return .failure(PluginFault("now has id '\(plugin.info.id)' (run 'standfit-host plugins rescan')"))
        case .success(let plugin): return .success(plugin)
        }
    }

    /// One worker round trip; a fault is the words that follow the plugin's name.
    private func callWorker(_ request: HandlerWorker.Request) -> Result<HandlerWorker.Reply, PluginFault> {
        logger.debug("Running plugin '\(request.pluginID)' from \(request.candidate.path) in a worker process")
        let worker: HelperProcess
        do {
            worker = try HelperProcess(executable: settings.executable, arguments: ["handler-worker"],
                                       environment: settings.environment, input: try JSONEncoder().encode(request),
                                       verbose: settings.verbose)
        } catch {
            return .failure(PluginFault("could not be started in a worker process (\(error))"))
        }
        let timeout = settings.handlerTimeout
        let deadline = ContinuousClock.now + .seconds(timeout)
        let timedOut = PluginFault("timed out after \(Seconds.format(timeout)) s and was stopped")
        switch worker.nextLine(deadline: deadline) {
        case .line(let data):
            worker.reap(by: max(deadline, .now + .seconds(1)))
            guard let reply = try? JSONDecoder().decode(HandlerWorker.Reply.self, from: data) else {
                return .failure(PluginFault("answered from its worker in a form the host cannot read"))
            }
            return .success(reply)
        case .timedOut:
            worker.stop()
            return .failure(timedOut)
        case .end:
            let termination = worker.reap(by: deadline)
            return .failure(termination == .timedOut ? timedOut : PluginFault(termination.describe(timeout: timeout)))
        }
    }
}

/// What went wrong with a plugin's call, as the words that follow its name: "crashed with
/// SIGSEGV (segmentation fault)", "timed out after 10 s and was stopped".
struct PluginFault: Error {
    var words: String

    init(_ words: String) {
        self.words = words
    }
}
