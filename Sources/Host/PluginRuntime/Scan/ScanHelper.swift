import CHostSystem
import Foundation
import Glibc
import Logging
import HostModel

/// Scans new or changed plugins away from the host's process.
///
/// The host binary in its hidden `scan-helper` mode is a supervisor that runs no plugin code:
/// for each plugin the host names, it forks a child of its own, in a process group of its own,
/// that loads the plugin, lets it register and writes what it registered to a pipe of that
/// child's alone. The supervisor gives the child the scan timeout, kills its process group when
/// it is done, and tells the host what became of it. So the host drives (it asks about one
/// plugin at a time and attributes every answer and every fault to the plugin it asked about),
/// no plugin code can write to the host's pipe, and what one plugin leaves running cannot touch
/// the next plugin's scan. A record the host gets is checked again with the rules of
/// registration (`PluginRecord.brokenRule`), since plugin code could have written it.
///
/// Before it asks about a plugin, the host records that the scan began (`ScanMarker`); a host
/// killed during a scan leaves that record, and the next command quarantines the plugin.
public struct ScanHelper {
    /// The catalog's: the host binary, the request's environment (which the helper runs in)
    /// and helper link, the language, whether untrusted plugins are scanned in the sandbox.
    var settings: PluginCatalog.Settings
    var logger: Logger
    /// Where the host records the plugin being scanned; nil when it cannot.
    var marker: ScanMarker?

    init(settings: PluginCatalog.Settings, logger: Logger, marker: ScanMarker? = nil) {
        self.settings = settings
        self.logger = logger
        self.marker = marker
    }

    /// How long one plugin may take to load and initialise.
    private var timeout: Double { settings.scanTimeout }
    private var language: String { settings.language }
    private var sandbox: Bool { settings.sandbox }

    /// What the supervisor is told first: the plugins it may be asked about.
    struct Request: Codable {
        var candidates: [PluginCandidate]
        var language: String
        var timeout: Double
        /// Scan untrusted plugins in the sandbox.
        var sandbox: Bool
    }

    /// The host's question: scan the plugin at this index of the request.
    struct Question: Codable {
        var scan: Int
    }

    /// One line from the supervisor.
    struct Message: Codable {
        /// The index of the plugin whose child was just started, and that child's pid.
        var begin: Int?
        var pid: Int32?
        /// The index of the plugin scanned, and what the scan found or how it went wrong.
        var done: Int?
        var result: ScanResult?
        /// Words that follow the plugin's path: "crashed with SIGSEGV (segmentation fault)".
        var fault: HostText.Phrase?
        /// Where the child was when it failed: "in register_action, as the host read …".
        var place: HostText.Phrase?
    }

    /// The sentence for a plugin quarantined by its scan.
    static func quarantine(_ path: String, _ how: HostText.Phrase, at place: HostText.Phrase? = nil) -> ScanResult {
        guard let place else { return .quarantined(HostText.Phrase("plugin.scanFault", ["path": path], parts: ["how": how])) }
        return .quarantined(HostText.Phrase("plugin.scanFaultAt", ["path": path], parts: ["how": how, "place": place]))
    }

    /// Scans `candidates`; the answer has one entry per candidate, nil where the helper itself
    /// could not run (that is logged, and not held against the plugin).
    func scan(_ candidates: [PluginCandidate]) -> [ScanResult?] {
        var results = [ScanResult?](repeating: nil, count: candidates.count)
        defer { marker?.clear() }
        var next = 0
        while next < candidates.count {
            let batch = Array(candidates[next...])
            let helper: HelperProcess
            do {
                let input = try JSONEncoder().encode(Request(candidates: batch, language: language, timeout: timeout, sandbox: sandbox))
                helper = try HelperProcess(executable: settings.executable, arguments: ["scan-helper"], environment: settings.environment,
                                           input: input + [UInt8(ascii: "\n")], keepInputOpen: true, verbose: settings.verbose,
                                           link: settings.link)
            } catch {
                logger.warning("\(HostText(language: language)("plugin.helper.notStarted", ["error": "\(error)"]))")
                return results
            }
            helper.outputOwner = "The plugins scanned"
            marker?.guardAgainstSignals(helperSession: helper.pid)
            defer { standfit_scan_guard_disarm() }
            var restartAt: Int?
            asking: for index in batch.indices {
                let candidate = batch[index]
                let scopesSignals = sandbox && !candidate.isTrusted && Sandbox.support.landlockABI >= 6
                marker?.record(candidate, language: language, couldKillHost: !candidate.isTrusted && !scopesSignals)
                // Encoding a struct of one integer cannot fail; were it to, the helper would get
                // an empty line and answer that it cannot read the question.
                let question = (try? JSONEncoder().encode(Question(scan: index))) ?? Data()
                helper.send(question + [UInt8(ascii: "\n")])
                switch answer(from: helper, about: index) {
                case .result(let result):
                    results[next + index] = checked(result, from: candidate)
                case .pluginFault where settings.link.isCancelled:
                    // The host killed the helper: the plugin is scanned again next time.
                    helper.stop()
                    return results
                case .pluginFault(let how, let place):
                    results[next + index] = Self.quarantine(candidate.path, how, at: place)
                    restartAt = index + 1
                    break asking
                case .helperFault(let words):
                    logger.warning("\(HostText.Phrase("plugin.helper.fault", parts: ["words": words]).text(in: language))")
                    helper.stop()
                    return results
                }
            }
            helper.closeInput()
            helper.reap(by: .now + .seconds(1))
            guard let restartAt else { return results }
            next += restartAt
        }
        return results
    }

    private enum Answer {
        case result(ScanResult)
        /// The plugin made its scan fail; the words follow its path, and the place, when known,
        /// says where it was.
        case pluginFault(HostText.Phrase, place: HostText.Phrase? = nil)
        /// The supervisor broke down outside any plugin's code; the words follow "The plugin
        /// scan helper".
        case helperFault(HostText.Phrase)
    }

    /// Reads the supervisor's answer about plugin `index`: its `begin`, then its `done`.
    private func answer(from helper: HelperProcess, about index: Int) -> Answer {
        let seconds = { (value: Double) in Duration.milliseconds(Int64(value * 1000)) }
        // The supervisor itself enforces the timeout; this only guards against a supervisor
        // that stopped answering.
        var deadline = ContinuousClock.now + seconds(timeout + 5)
        var child: pid_t?
        while true {
            switch helper.nextLine(deadline: deadline) {
            case .line(let data):
                guard let message = try? JSONDecoder().decode(Message.self, from: data) else {
                    return .helperFault(HostText.Phrase("plugin.helper.unreadable"))
                }
                if message.begin == index, let pid = message.pid {
                    child = pid
                    deadline = ContinuousClock.now + seconds(timeout + 2)
                    continue
                }
                guard child != nil, message.done == index else {
                    return .helperFault(HostText.Phrase("plugin.helper.otherPlugin"))
                }
                if let fault = message.fault { return .pluginFault(fault, place: message.place) }
                guard let result = message.result else { return .helperFault(HostText.Phrase("plugin.helper.noResult")) }
                return .result(result)
            case .tooLong:
                return .helperFault(HostText.Phrase("plugin.helper.tooLong", ["mebibytes": "\(HelperProcess.answerLimit >> 20)"]))
            case .timedOut:
                if let child { kill(-child, SIGKILL) }
                helper.stop()
                return child == nil ? .helperFault(HostText.Phrase("plugin.helper.late"))
                    : .pluginFault(HelperProcess.Termination.timedOut.words(timeout: timeout))
            case .end:
                if let child { kill(-child, SIGKILL) }
                let termination = helper.reap(by: .now + .seconds(1))
                guard child != nil else {
                    return .helperFault(HostText.Phrase("plugin.helper.ended", parts: ["how": termination.words(timeout: timeout)]))
                }
                return .pluginFault(HostText.Phrase("plugin.fault.endedHelper", parts: ["how": termination.words(timeout: timeout)]))
            }
        }
    }

    /// A loaded plugin's record as the host takes it: checked again with the rules of
    /// registration, since plugin code could have written it.
    private func checked(_ result: ScanResult, from candidate: PluginCandidate) -> ScanResult {
        guard case .loaded(let record) = result, let rule = record.brokenRule() else { return result }
        return .refused(HostText.Phrase("plugin.forgedAnswer", ["path": candidate.path], parts: ["rule": rule]))
    }

    /// The supervisor's side: for each plugin the host asks about, scans it in a child process
    /// and reports on `HelperProcess.resultDescriptor`. No plugin code runs in this process.
    public static func serve(request: HostRequest, logger: Logger) -> Int32 {
        HelperProcess.dieWithParent(environment: request.environment)
        // What a scanned plugin forks stays below the supervisor (HostLineage), orphans
        // included; the supervisor kills each child's group when its scan ends.
        _ = standfit_become_subreaper()
        let paths = request.paths
        let input = LineReader(descriptor: 0)
        guard let header = input.next(), let request = try? JSONDecoder().decode(Request.self, from: header) else {
            logger.error("scan-helper: the request on stdin is not valid; this mode is for the host's own use.")
            return 64
        }
        let output = ResultPipe()
        ScanTrace.share()
        if let first = request.candidates.first { ScanChild.warmUp(first, paths: paths, sandbox: request.sandbox) }
        while let line = input.next() {
            guard let question = try? JSONDecoder().decode(Question.self, from: line),
                  request.candidates.indices.contains(question.scan) else {
                logger.error("scan-helper: a question on stdin is not valid; this mode is for the host's own use.")
                return 64
            }
            let index = question.scan
            let candidate = request.candidates[index]
            let child = ScanChild.start(candidate, paths: paths, language: request.language,
                                        sandbox: request.sandbox && !candidate.isTrusted, logger: logger)
            switch child {
            case .failure(let problem):
                logger.error("scan-helper: \(problem)")
                return 70
            case .success(let child):
                output.send(Message(begin: index, pid: child.pid))
                child.proceed()
                output.send(child.finish(timeout: request.timeout, index: index))
            }
        }
        return 0
    }
}
