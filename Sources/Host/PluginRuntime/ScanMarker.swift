import CHostSystem
import Foundation
import Glibc
import Logging
import HostModel

/// The record of the plugin being scanned now, in `$XDG_CACHE_HOME/standfit/scan-in-progress-PID.json`
/// (one per host, so that two commands scanning at once never remove each other's).
///
/// Plugin code runs only in the scan helper's children, but it can still reach the host (a
/// `kill` of its parent's parent). A host that dies during a scan leaves this file behind; the
/// next command finds it, sees that the host which wrote it is gone, and quarantines the
/// plugin it names, so that one plugin cannot make every later command die. A host stopped by
/// Ctrl-C or a signal from outside the scan helper's session removes the file first, so an
/// interrupted scan blames no plugin (`standfit_scan_guard_arm`).
public struct ScanMarker {
    let url: URL

    struct Contents: Codable {
        /// The host that was scanning.
        var pid: Int32
        var language: String
        var candidate: PluginCandidate
    }

    let directory: URL
    static let prefix = "scan-in-progress-"

    init(cacheDirectory: URL) {
        directory = cacheDirectory
        url = cacheDirectory.appendingPathComponent("\(ScanMarker.prefix)\(getpid()).json")
    }

    /// Records that `candidate` is about to be scanned. Written without fsync: the file only
    /// has to outlive this process, not the machine.
    func record(_ candidate: PluginCandidate, language: String) {
        guard let data = try? JSONEncoder().encode(Contents(pid: getpid(), language: language, candidate: candidate)) else { return }
        let temporary = url.path + ".\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
        rename(temporary, url.path)
    }

    func clear() {
        unlink(url.path)
    }

    /// Has Ctrl-C and termination signals not sent by the helper's session remove the record.
    func guardAgainstSignals(helperSession: pid_t) {
        _ = standfit_scan_guard_arm(url.path, helperSession)
    }

    /// The plugins hosts died scanning, from records left over by hosts that are gone: each is
    /// quarantined in `cache` and its record removed. A record of a host still running (another
    /// command scanning now) is left alone.
    func recover(into cache: RegistryCache?, at date: Date, logger: Logger) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(ScanMarker.prefix) && name.hasSuffix(".json") {
            let file = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path),
                  let contents = try? JSONDecoder().decode(Contents.self, from: data) else {
                unlink(file.path)
                continue
            }
            if contents.pid != getpid(), kill(contents.pid, 0) == 0 || errno == EPERM { continue }
            let path = contents.candidate.path
            let result = ScanResult.quarantined("Plugin \(path) was being scanned when the host was killed, so it is taken to have killed it; it is quarantined until the file changes, so fix or remove it (or run 'standfit-host plugins rescan' to try it again).")
            cache?.store([(contents.candidate, result)], language: contents.language, at: date, logger: logger)
            unlink(file.path)
        }
    }
}
