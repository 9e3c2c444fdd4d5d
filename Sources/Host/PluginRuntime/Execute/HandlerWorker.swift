import CHostSystem
import Foundation
import Logging
import HostModel

/// Runs one plugin's handler, or its dynamic provider, in a worker process: the host binary in
/// its hidden `handler-worker` mode. The worker loads only that plugin, runs the call, and, when
/// the handler ran, asks the plugin's provider for its items in the languages the host keeps,
/// so that one process does both. It never touches the host's state: the host writes what the
/// worker answered only after a clean answer, so a crash leaves nothing half-written.
public enum HandlerWorker {
    struct Request: Codable {
        var candidate: PluginCandidate
        var pluginID: String
        /// The language told to the plugin's `init`.
        var language: String
        /// The handler to run, or nil to ask only the provider.
        var call: Call?
        /// The languages to ask the provider in (after a handled call, or alone).
        var provideLanguages: [String]
        /// An entity query to answer instead of a call.
        var entityQuery: EntityCall?
        /// Run the plugin in the sandbox.
        var sandbox = false
        /// The programs the sandbox lets it execute (what its scan recorded it declared).
        var programs: [String] = []
    }

    struct EntityCall: Codable {
        var entity: String
        var query: EntityQuery
        var locale: String
    }

    enum EntityAnswer: Codable {
        case items([EntityValue])
        case failure(HostText.Phrase)
    }

    struct Call: Codable {
        /// The type the action was registered under (a namespace handler's `com.example.*`).
        var registeredType: String
        var invocation: Invocation
    }

    struct Reply: Codable {
        var reply: HandlerReply?
        /// Per language, the provider's items or why there are none.
        var provided: [String: ProviderAnswer] = [:]
        /// Why the plugin could not be loaded in the worker.
        var loadFailure: HostText.Phrase?
        /// The entity query's answer.
        var entityValues: EntityAnswer?
        /// The call this line answers (`WorkerCall.id`): a line with another id, or none, was
        /// not written by the worker for this call.
        var call: UInt64?
    }

    enum ProviderAnswer: Codable, Equatable {
        case items([ShortcutItem])
        case failure(HostText.Phrase)

        /// The answer as the host takes it. Items crossed a pipe from a process that runs plugin
        /// code, so they are checked again with the rules `ItemDescriptor` applies, and marked
        /// as `pluginID`'s dynamic items whatever the worker wrote.
        func result(for pluginID: String) -> Result<[ShortcutItem], ProviderFailure> {
            switch self {
            case .failure(let sentence):
                return .failure(ProviderFailure(sentence))
            case .items(let items):
                var checked: [ShortcutItem] = []
                for var item in items {
                    guard TypeName.isValid(item.type), !item.type.hasSuffix(".*"),
                          !item.title.trimmingCharacters(in: .whitespaces).isEmpty else {
                        return .failure(ProviderFailure(HostText.Phrase("provider.badWorkerItem", ["plugin": pluginID, "type": VisibleText.line(item.type)])))
                    }
                    item.source = .dynamic
                    item.origin = pluginID
                    checked.append(item)
                }
                return .success(checked)
            }
        }
    }

    /// The worker's side: reads the call on stdin, answers on the result pipe, each line
    /// carrying the call's id.
    public static func serve(request: HostRequest, logger: Logger) -> Int32 {
        HelperProcess.dieWithParent(environment: request.environment)
        // What the plugin forks stays below the worker (HostLineage), orphans included.
        _ = standfit_become_subreaper()
        // Programs a plugin starts do not inherit the answer pipe.
        _ = fcntl(HelperProcess.resultDescriptor, F_SETFD, FD_CLOEXEC)
        let paths = request.paths
        let input = FileHandle.standardInput.readDataToEndOfFile()
        guard let call = try? JSONDecoder().decode(WorkerCall.self, from: input) else {
            logger.error("handler-worker: the request on stdin is not valid; this mode is for the host's own use.")
            return 64
        }
        let pipe = ResultPipe()
        answer(call.request, paths: paths, logger: logger, send: { pipe.send($0, call: call.id) })
        return 0
    }

    /// One call to a worker: the request, and, to a warm worker, the facts of the command it
    /// is for; nil when they are those of the worker's previous call (the environment is most
    /// of a call's bytes, and a user's commands mostly share one) or in a one-shot worker,
    /// which started with them.
    struct WorkerCall: Codable {
        /// A number the host draws for this call; each line of the answer carries it.
        var id = UInt64.random(in: 1...UInt64.max)
        var request: Request
        var facts: ProcessFacts?
    }

    /// A warm worker's side (`handler-worker --warm`): loads its plugin on the first call and
    /// keeps it, then answers each call read from stdin, one JSON document a line, as a one-shot
    /// worker would, in the call's environment, directory, umask and time zone (and, sandboxed,
    /// its private `TMPDIR`). Before the last line of each answer it kills whatever the plugin
    /// forked and empties the `TMPDIR`, as a one-shot worker's end does; each line carries the
    /// call's id.
    public static func serveWarm(request: HostRequest, logger: Logger) -> Int32 {
        HelperProcess.dieWithParent(environment: request.environment)
        _ = fcntl(HelperProcess.resultDescriptor, F_SETFD, FD_CLOEXEC)
        _ = standfit_become_subreaper()
        let paths = request.paths
        let input = LineReader(descriptor: 0, limit: HelperProcess.answerLimit)
        let pipe = ResultPipe()
        var first: Request?
        var plugin: Result<LoadedPlugin, PluginRefusal>?
        /// The facts taken on last, and the environment as they left it: a plugin that changed
        /// its environment (setenv) since gets them again, as a fresh process would have them.
        var applied: (facts: ProcessFacts, environment: UInt64)?
        /// The sandbox's private temporary directory, once entered: every call's environment
        /// names it as `TMPDIR`, and it is emptied after each call.
        var temporary: String?
        func takeOn(_ facts: ProcessFacts) {
            facts.apply()
            if let temporary { setenv("TMPDIR", temporary, 1) }
            applied = (facts, standfit_environment_fingerprint())
        }
        while let line = input.next() {
            guard let call = try? JSONDecoder().decode(WorkerCall.self, from: line) else {
                logger.error("handler-worker: a call on stdin is not valid; this mode is for the host's own use.")
                return 64
            }
            let request = call.request
            if let first {
                guard first.candidate == request.candidate, first.pluginID == request.pluginID,
                      first.language == request.language, first.sandbox == request.sandbox else {
                    logger.error("handler-worker: a call for another plugin than this worker's; this mode is for the host's own use.")
                    return 64
                }
            } else {
                first = request
            }
            if let facts = call.facts {
                takeOn(facts)
            } else if let last = applied {
                if standfit_environment_fingerprint() == last.environment {
                    last.facts.enter()
                } else {
                    takeOn(last.facts)
                }
            } else {
                logger.error("handler-worker: a first call without its facts; this mode is for the host's own use.")
                return 64
            }
            let loaded = plugin ?? open(request, paths: paths, logger: logger, temporary: &temporary)
            plugin = loaded
            answer(request, plugin: loaded, send: { pipe.send($0, call: call.id) }, beforeLastLine: {
                fflush(nil)
                _ = standfit_kill_descendants(16)
                if let temporary { Sandbox.empty(temporary) }
            })
        }
        return 0
    }

    /// Enters the sandbox when the request asks for it, then loads the plugin.
    private static func open(_ request: Request, paths: HostPaths, logger: Logger,
                             temporary: inout String?) -> Result<LoadedPlugin, PluginRefusal> {
        if request.sandbox {
            let grant = Sandbox.Grant.forPlugin(request.candidate, paths: paths,
                                                dataDirectory: paths.pluginDataDirectory(for: request.pluginID),
                                                programs: request.programs)
            Sandbox.enter(grant, logger: logger)
            temporary = grant.temporary.path
        }
        return PluginImage.open(request.candidate, paths: paths, logger: logger, language: request.language)
    }

    /// Answers `request` in one line, or, when a handler ran and succeeded, in two: the
    /// handler's reply first, at once, then the provider's items. So a provider that crashes or
    /// hangs after the action took effect cannot turn the action into a failure.
    static func answer(_ request: Request, paths: HostPaths, logger: Logger, send: (Reply) -> Void) {
        var temporary: String?
        answer(request, plugin: open(request, paths: paths, logger: logger, temporary: &temporary), send: send,
               beforeLastLine: {})
    }

    private static func answer(_ request: Request, plugin: Result<LoadedPlugin, PluginRefusal>,
                               send: (Reply) -> Void, beforeLastLine: () -> Void) {
        let reply = firstAnswer(request, plugin: plugin)
        guard let plugin = reply.handledBy else {
            beforeLastLine()
            send(reply.answer)
            return
        }
        send(reply.answer)
        let provided = provide(plugin, in: request.provideLanguages)
        beforeLastLine()
        send(Reply(provided: provided))
    }

    private static func provide(_ plugin: LoadedPlugin, in languages: [String]) -> [String: ProviderAnswer] {
        var provided: [String: ProviderAnswer] = [:]
        guard let provide = plugin.code.provide else { return provided }
        for language in languages {
            provided[language] = switch provide(language) {
            case .success(let items): .items(items)
            case .failure(let failure): .failure(failure.sentence)
            }
        }
        return provided
    }

    /// The first line of the answer, and the plugin when its handler ran and succeeded (the
    /// provider's items follow in a second line).
    private static func firstAnswer(_ request: Request,
                                    plugin opened: Result<LoadedPlugin, PluginRefusal>) -> (answer: Reply, handledBy: LoadedPlugin?) {
        let plugin: LoadedPlugin
        switch opened {
        case .failure(let refusal): return (Reply(loadFailure: refusal.sentence), nil)
        case .success(let loaded): plugin = loaded
        }
        guard plugin.info.id == request.pluginID else {
            return (Reply(loadFailure: HostText.Phrase("worker.newID", ["path": request.candidate.path, "id": plugin.info.id, "expected": request.pluginID])), nil)
        }
        var reply = Reply()
        if let entityCall = request.entityQuery {
            guard let query = plugin.code.queries[entityCall.entity] else {
                return (Reply(loadFailure: HostText.Phrase("worker.noEntity", ["plugin": request.pluginID, "path": request.candidate.path, "entity": entityCall.entity])), nil)
            }
            reply.entityValues = switch query(entityCall.query, entityCall.locale) {
            case .success(let values): .items(values)
            case .failure(let failure): .failure(failure.sentence)
            }
            return (reply, nil)
        }
        guard let call = request.call else {
            reply.provided = provide(plugin, in: request.provideLanguages)
            return (reply, nil)
        }
        guard let handler = plugin.code.handlers[call.registeredType] else {
            return (Reply(loadFailure: HostText.Phrase("worker.noType", ["plugin": request.pluginID, "path": request.candidate.path, "type": call.registeredType])), nil)
        }
        let handlerReply = handler.perform(call.invocation)
        reply.reply = handlerReply
        let handled = handlerReply.status == 0 && handlerReply.fault == nil
        return (reply, handled ? plugin : nil)
    }
}

extension ResultPipe {
    /// Sends `reply` as the answer to `call`.
    func send(_ reply: HandlerWorker.Reply, call: UInt64) {
        var reply = reply
        reply.call = call
        send(reply)
    }
}
