import Foundation
import Logging
import HostModel

/// Runs plugin code when an action or a provider is called, and only then: a trusted plugin
/// (bundled, or pinned by the user) is loaded into the host's process on first use; any other
/// plugin, or every plugin under `--isolate`, runs in a worker process with a deadline, so a
/// crash or a hang becomes a `plugin-failed` answer naming the plugin, the type and the fault.
package final class PluginExecutor {
    /// The catalog's settings: the request's paths, environment, directory and umask, its
    /// helper link, the timeouts, isolation and the warm workers.
    let settings: PluginCatalog.Settings
    let logger: Logger
    /// Languages a provider is asked in after its plugin handled an action (the run's
    /// language and those stored for it), so a worker can answer them in the same process.
    package var refreshLanguages: (_ pluginID: String) -> [String] = { _ in [] }
    private var loaded: [String: Result<LoadedPlugin, PluginRefusal>] = [:]
    /// Provider answers a worker gave with its handler's reply, until the refresh takes them.
    private var prefetched = PrefetchedItems()

    /// Names the plugin when trusted code run in this process crashes or exits.
    private let callGuard: CallGuard

    init(settings: PluginCatalog.Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
        callGuard = CallGuard(verbose: settings.verbose, language: settings.language)
    }

    /// The plugins this executor calls, by id: where each was found and how it is trusted.
    private var candidates: [String: PluginCandidate] = [:]
    /// The code of the plugins loaded into this process, or why one could not be, by id.
    private var codes: [String: Result<PluginCode, PluginFault>] = [:]

    /// The programs each plugin declared it starts, by id: what its sandbox lets it execute.
    private var programs: [String: [String]] = [:]

    /// Makes `candidate` the plugin that `pluginID` names in calls; a sandboxed worker of it may
    /// execute `programs`.
    func add(_ candidate: PluginCandidate, as pluginID: String, programs: [String]) {
        candidates[pluginID] = candidate
        self.programs[pluginID] = programs
    }

    /// Whether `candidate` runs in the host's process on the cold path (trusted, no `--isolate`).
    func runsInProcess(_ candidate: PluginCandidate) -> Bool {
        candidate.isTrusted && !settings.isolate
    }

    /// The live seam: each plugin's calls go to this process or to a worker, decided here once
    /// for every kind of call. A worker's handler reply can carry its provider's answers, which
    /// a provider call right after takes instead of starting another worker.
    package func calls() -> PluginCalls {
        let inProcess = PluginCalls.inProcess(guard: callGuard) { [self] pluginID in
            if let code = codes[pluginID] { return code }
            guard let candidate = candidates[pluginID] else { return .failure(PluginFault("fault.notLoaded")) }
            let code = load(candidate, pluginID: pluginID).map(\.code)
            codes[pluginID] = code
            return code
        }
        let worker = workerCalls()
        let route = { [self] (pluginID: String) -> PluginCalls in
            settings.warmWorkers == nil && candidates[pluginID].map(runsInProcess) == true ? inProcess : worker
        }
        return PluginCalls(
            perform: { [logger, settings] action, invocation in
                let reply = route(action.pluginID).perform(action, invocation).checked()
                let text = HostText(language: settings.language)
                for warning in reply.warnings ?? [] {
                    logger.warning("\(text(HostText.Phrase("handlerWarning.run", ["plugin": action.pluginID, "type": action.type], parts: ["warning": warning])))")
                }
                return reply
            },
            provide: { [self] pluginID, locale in
                if let answer = prefetched.take(pluginID, locale) { return answer.result(for: pluginID) }
                return route(pluginID).provide(pluginID, locale)
            },
            query: { entity, query, locale in route(entity.pluginID).query(entity, query, locale) })
    }

    /// Calls that run each plugin in a worker process of its own.
    private func workerCalls() -> PluginCalls {
        PluginCalls(
            perform: { [self] action, invocation in
                guard let candidate = candidates[action.pluginID] else {
                    return HandlerReply(status: -1, fault: HostText.Phrase("fault.notLoaded"))
                }
                let request = HandlerWorker.Request(
                    candidate: candidate, pluginID: action.pluginID, language: settings.language,
                    call: HandlerWorker.Call(registeredType: action.type, invocation: invocation),
                    provideLanguages: refreshLanguages(action.pluginID))
                switch callWorker(request) {
                case .failure(let fault):
                    return HandlerReply(status: -1, fault: fault.words)
                case .success(let answer):
                    let reply = answer.reply
                    if let failure = reply.loadFailure { return HandlerReply(status: -1, fault: HostText.Phrase("fault.couldNotLoad", parts: ["why": failure])) }
                    switch answer.provided {
                    case nil: break
                    case .success(let provided): prefetched.keep(provided, of: action.pluginID)
                    case .failure(let fault):
                        // The action took effect; only the provider's items are missing.
                        let words = HostText.Phrase("provider.faultAfterRun", ["plugin": action.pluginID], parts: ["fault": fault.words])
                        prefetched.keep(Dictionary(uniqueKeysWithValues: request.provideLanguages.map { ($0, .failure(words)) }),
                                        of: action.pluginID)
                    }
                    return reply.reply ?? HandlerReply(status: -1, fault: HostText.Phrase("fault.noHandlerRun"))
                }
            },
            provide: { [self] pluginID, locale in
                guard let candidate = candidates[pluginID] else { return PluginCalls.none.provide(pluginID, locale) }
                let request = HandlerWorker.Request(candidate: candidate, pluginID: pluginID, language: settings.language,
                                                    call: nil, provideLanguages: [locale])
                switch callWorker(request).map(\.reply) {
                case .failure(let fault):
                    return .failure(ProviderFailure(HostText.Phrase("provider.fault", ["plugin": pluginID], parts: ["fault": fault.words])))
                case .success(let reply):
                    if let failure = reply.loadFailure {
                        return .failure(ProviderFailure(HostText.Phrase("provider.unavailable", ["plugin": pluginID], parts: ["why": failure])))
                    }
                    return reply.provided[locale]?.result(for: pluginID) ?? .success([])
                }
            },
            query: { [self] entity, query, locale in
                guard let candidate = candidates[entity.pluginID] else { return PluginCalls.none.query(entity, query, locale) }
                let request = HandlerWorker.Request(
                    candidate: candidate, pluginID: entity.pluginID, language: settings.language, call: nil,
                    provideLanguages: [],
                    entityQuery: HandlerWorker.EntityCall(entity: entity.record.id, query: query, locale: locale))
                switch callWorker(request).map(\.reply) {
                case .failure(let fault):
                    return .failure(entity.unavailable(fault.words))
                case .success(let reply):
                    if let failure = reply.loadFailure { return .failure(entity.unavailable(HostText.Phrase("fault.couldNotLoad", parts: ["why": failure]))) }
                    switch reply.entityValues {
                    case .some(.items(let values)): return .success(values)
                    case .some(.failure(let sentence)): return .failure(EntityFailure(sentence))
                    case nil: return .failure(entity.unavailable(HostText.Phrase("fault.noQueryRun")))
                    }
                }
            })
    }

    /// Loads a trusted plugin into this process once.
    private func load(_ candidate: PluginCandidate, pluginID: String) -> Result<LoadedPlugin, PluginFault> {
        let result = loaded[candidate.realPath] ?? {
            logger.debug("Loading plugin '\(pluginID)' from \(candidate.path) into the host's process")
            let opened = callGuard.around(pluginID, HostText.Phrase("guard.loading")) {
                PluginImage.open(candidate, paths: settings.paths, logger: logger, language: settings.language)
            }
            loaded[candidate.realPath] = opened
            return opened
        }()
        switch result {
        case .failure(let refusal): return .failure(PluginFault("fault.couldNotLoad", parts: ["why": refusal.sentence]))
        case .success(let plugin) where plugin.info.id != pluginID:
            return .failure(PluginFault("fault.newID", ["id": plugin.info.id]))
        case .success(let plugin): return .success(plugin)
        }
    }

    /// What a worker answered: its first line, and, after a handler it ran succeeded, its
    /// provider's items or how the provider failed.
    private struct WorkerAnswer {
        var reply: HandlerWorker.Reply
        var provided: Result<[String: HandlerWorker.ProviderAnswer], PluginFault>?
    }

    /// One worker round trip; a fault is the words that follow the plugin's name.
    private func callWorker(_ request: HandlerWorker.Request) -> Result<WorkerAnswer, PluginFault> {
        var request = request
        // Untrusted code runs sandboxed; a trusted plugin isolated with --isolate keeps its rights.
        request.sandbox = settings.sandbox && !request.candidate.isTrusted
        request.programs = request.sandbox ? programs[request.pluginID] ?? [] : []
        if let workers = settings.warmWorkers {
            logger.debug("Running plugin '\(request.pluginID)' from \(request.candidate.path) in a worker process: the warm server's, kept between commands\(request.sandbox ? ", sandboxed" : "")")
            return callWarmWorker(request, workers: workers)
        }
        logger.debug("Running plugin '\(request.pluginID)' from \(request.candidate.path) in a worker process\(request.sandbox ? ", sandboxed" : "")")
        let worker: HelperProcess
        let call = HandlerWorker.WorkerCall(request: request, facts: nil)
        do {
            worker = try HelperProcess(executable: settings.executable, arguments: ["handler-worker"],
                                       environment: settings.environment, input: try JSONEncoder().encode(call),
                                       verbose: settings.verbose, link: settings.link)
        } catch {
            return .failure(PluginFault("fault.workerStart", ["why": "\(error)"]))
        }
        worker.outputOwner = "Plugin '\(request.pluginID)'"
        defer { if request.sandbox { Sandbox.removeTemporary(of: worker.pid, paths: settings.paths) } }
        let deadline = ContinuousClock.now + .milliseconds(Int64(settings.handlerTimeout * 1000))
        let answer = exchange(request, call: call.id, with: worker, deadline: deadline)
        if case .success = answer { worker.reap(by: max(deadline, .now + .seconds(1))) }
        return answer
    }

    /// The call in the warm server's worker for its plugin, started on first use and kept for
    /// the next call when this one was answered in full; one that failed is stopped.
    private func callWarmWorker(_ request: HandlerWorker.Request, workers: WarmWorkers) -> Result<WorkerAnswer, PluginFault> {
        let paths = settings.paths
        let key = WarmWorkers.Key(
            candidate: request.candidate, pluginID: request.pluginID, language: request.language,
            sandbox: request.sandbox, verbose: settings.verbose,
            directories: [paths.dataDirectory.path, paths.cacheDirectory.path, paths.configDirectory.path],
            programs: request.programs)
        let (executable, environment, verbose) = (settings.executable, settings.environment, settings.verbose)
        // A call waits for a worker at most as long as it may run.
        let handlerTime = Duration.milliseconds(Int64(settings.handlerTimeout * 1000))
        let leased = workers.lease(key, waitingUntil: .now + handlerTime, cleanUp: { pid in
            if request.sandbox { Sandbox.removeTemporary(of: pid, paths: paths) }
        }, start: { () throws(HelperError) -> HelperProcess in
            // Started for no request (on the workers' own thread): each call links it to its
            // request (`beginCall`).
            try HelperProcess(executable: executable, arguments: ["handler-worker", "--warm"], environment: environment,
                              input: Data(), keepInputOpen: true, verbose: verbose, link: .process)
        })
        let worker: WarmWorkers.Worker
        switch leased {
        case .failure(let error): return .failure(PluginFault("fault.workerStart", ["why": "\(error)"]))
        case .success(let leased): worker = leased
        }
        worker.process.beginCall(owner: "Plugin '\(request.pluginID)'", link: settings.link)
        let facts = ProcessFacts(environment: HelperProcess.environment(environment, verbose: verbose),
                                 workingDirectory: settings.workingDirectory, umask: settings.umask)
        let call = HandlerWorker.WorkerCall(request: request,
                                          facts: worker.lastFacts == facts ? nil : facts)
        guard let line = try? JSONEncoder().encode(call) else {
            workers.discard(worker)
            return .failure(PluginFault("fault.notAsked"))
        }
        worker.lastFacts = facts
        worker.process.send(line + [UInt8(ascii: "\n")])
        let answer = exchange(request, call: call.id, with: worker.process, deadline: .now + handlerTime)
        switch answer {
        case .success(let answer) where answer.reply.loadFailure == nil:
            if case .failure? = answer.provided {
                workers.discard(worker)
            } else if worker.process.endCall() {
                workers.release(worker)
            } else {
                workers.discard(worker)
            }
        default:
            workers.discard(worker)
        }
        return answer
    }

    /// Reads a worker's answer to `request`: one line, and after a handler that succeeded, a
    /// second with its provider's items, both by `deadline`; each line must name the `call`.
    private func exchange(_ request: HandlerWorker.Request, call: UInt64, with worker: HelperProcess,
                          deadline: ContinuousClock.Instant) -> Result<WorkerAnswer, PluginFault> {
        let first: HandlerWorker.Reply
        switch readReply(from: worker, call: call, deadline: deadline) {
        case .failure(let fault): return .failure(fault)
        case .success(let reply): first = reply
        }
        var answer = WorkerAnswer(reply: first)
        if request.call != nil, let reply = first.reply, reply.status == 0, reply.fault == nil {
            // The provider's items follow, in the same worker and under the same deadline.
            answer.provided = readReply(from: worker, call: call, deadline: deadline).map(\.provided)
        }
        return .success(answer)
    }

    /// The worker's next answer line, or how the worker failed to give it.
    private func readReply(from worker: HelperProcess, call: UInt64,
                           deadline: ContinuousClock.Instant) -> Result<HandlerWorker.Reply, PluginFault> {
        let timeout = settings.handlerTimeout
        let timedOut = PluginFault("fault.timedOut", ["seconds": Seconds.format(timeout)])
        switch worker.nextLine(deadline: deadline) {
        case .line(let data):
            do {
                let reply = try JSONDecoder().decode(HandlerWorker.Reply.self, from: data)
                guard reply.call == call else {
                    worker.stop()
                    return .failure(PluginFault("fault.ownLine", ["descriptor": "\(HelperProcess.resultDescriptor)"]))
                }
                return .success(reply)
            } catch let refused as JSONText.Refused {
                return .failure(PluginFault("fault.workerData", parts: ["why": refused.reason]))
            } catch {
                return .failure(JSONDepth.exceeds(data) ? PluginFault("fault.workerData", parts: ["why": HostText.Phrase("json.deep", ["limit": "\(JSONDepth.limit)"])])
                                    : PluginFault("fault.workerUnreadable"))
            }
        case .timedOut:
            worker.stop()
            return .failure(timedOut)
        case .tooLong:
            return .failure(PluginFault("fault.workerLong", ["mebibytes": "\(HelperProcess.answerLimit >> 20)"]))
        case .end:
            let termination = worker.reap(by: deadline)
            return .failure(termination == .timedOut ? timedOut : PluginFault(termination.words(timeout: timeout)))
        }
    }
}
