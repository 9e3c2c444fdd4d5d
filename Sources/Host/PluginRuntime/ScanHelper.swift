import Foundation
import Logging
import HostModel

/// Scans new or changed plugins in a helper process: the host binary in its hidden
/// `scan-helper` mode loads each plugin, lets it register, and sends what it registered over
/// the result pipe. A plugin that crashes, hangs or exits while it is scanned takes only the
/// helper down; it is quarantined, and a new helper scans the ones after it.
public struct ScanHelper {
    var executable: String
    /// The request's environment, which the helper runs in.
    var environment: [String: String]
    /// How long one plugin may take to load and initialise.
    var timeout: Double
    var language: String
    var verbose: Bool
    var logger: Logger

    /// What the helper is asked: the plugins to scan, in order.
    struct Request: Codable {
        var candidates: [PluginCandidate]
        var language: String
    }

    /// One line on the result pipe.
    struct Message: Codable {
        /// The index of the plugin the helper is about to load.
        var begin: Int?
        /// The index of the plugin scanned, and what the scan found.
        var done: Int?
        var result: ScanResult?
    }

    /// Scans `candidates`; the answer has one entry per candidate, nil where the helper itself
    /// could not run (that is logged, and not held against the plugin).
    func scan(_ candidates: [PluginCandidate]) -> [ScanResult?] {
        var results = [ScanResult?](repeating: nil, count: candidates.count)
        var next = 0
        while next < candidates.count {
            let batch = Array(candidates[next...])
            let helper: HelperProcess
            do {
                let input = try JSONEncoder().encode(Request(candidates: batch, language: language))
                helper = try HelperProcess(executable: executable, arguments: ["scan-helper"],
                                           environment: environment, input: input, verbose: verbose)
            } catch {
                logger.warning("The plugin scan helper could not be started (\(error)); plugins that are not in the registry cache are left out this time.")
                return results
            }
            var current: Int?
            var finishedAll = false
            var deadline = ContinuousClock.now + .seconds(timeout)
            reading: while true {
                switch helper.nextLine(deadline: deadline) {
                case .line(let data):
                    guard let message = try? JSONDecoder().decode(Message.self, from: data) else { continue }
                    if let begin = message.begin {
                        current = begin
                        deadline = ContinuousClock.now + .seconds(timeout)
                    }
                    if let done = message.done, let result = message.result, done < batch.count {
                        results[next + done] = result
                        current = nil
                        if done == batch.count - 1 { finishedAll = true }
                    }
                case .end:
                    break reading
                case .timedOut:
                    helper.stop()
                    break reading
                }
            }
            let termination = helper.reap(by: max(deadline, .now + .seconds(1)))
            if finishedAll { return results }
            guard let current else {
                // The helper died outside any plugin's code: a fault of the host, not of a plugin.
                logger.warning("The plugin scan helper \(termination.describe(timeout: timeout)) outside any plugin's code; the plugins it had not scanned are left out this time and scanned again next time.")
                return results
            }
            let path = batch[current].path
            let how = termination.describe(timeout: timeout)
            results[next + current] = .quarantined("Plugin \(path) \(how) while it was loaded and initialised; it is quarantined until the file changes, so fix or remove it (or run 'standfit-host plugins rescan' to try it again).")
            next += current + 1
        }
        return results
    }

    /// The helper's side: scans each plugin of the request in this process and reports on
    /// `HelperProcess.resultDescriptor`.
    public static func serve(request: HostRequest, logger: Logger) -> Int32 {
        HelperProcess.dieWithParent(environment: request.environment)
        let paths = request.paths
        let input = FileHandle.standardInput.readDataToEndOfFile()
        guard let request = try? JSONDecoder().decode(Request.self, from: input) else {
            logger.error("scan-helper: the request on stdin is not valid; this mode is for the host's own use.")
            return 64
        }
        let output = ResultPipe()
        for (index, candidate) in request.candidates.enumerated() {
            output.send(Message(begin: index))
            let result: ScanResult = switch PluginImage.open(candidate, paths: paths, logger: logger, language: request.language) {
            case .success(let plugin): .loaded(plugin.record)
            case .failure(let refusal): .refused(refusal.reason)
            }
            output.send(Message(done: index, result: result))
        }
        return 0
    }
}

/// The child's end of the result pipe: one compact JSON document a line.
struct ResultPipe {
    let handle = FileHandle(fileDescriptor: HelperProcess.resultDescriptor, closeOnDealloc: false)

    func send(_ value: some Encodable) {
        guard var data = try? JSONEncoder().encode(value) else { return }
        data.append(UInt8(ascii: "\n"))
        handle.write(data)
    }
}
