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
///
/// Only a plugin that could have sent the signal is blamed: an untrusted plugin scanned without
/// a sandbox that scopes signals (Landlock ABI 6). A sandboxed one could not, and a trusted one
/// (bundled or pinned) is trusted: a SIGKILL from elsewhere (a test, the OOM killer, a user's
/// `kill -9`) during their scan only has them scanned again.
public struct ScanMarker {
    let url: URL

    struct Contents: Codable {
        /// The host that was scanning.
        var pid: Int32
        var language: String
        var candidate: PluginCandidate
        /// Whether the plugin could have killed the host (nil in records of older hosts: yes).
        var couldKillHost: Bool?
    }

    let directory: URL
    static let prefix = "scan-in-progress-"

    init(cacheDirectory: URL) {
        directory = cacheDirectory
        url = cacheDirectory.appendingPathComponent("\(ScanMarker.prefix)\(getpid()).json")
    }

    /// Records that `candidate` is about to be scanned. Written without fsync: the file only
    /// has to outlive this process, not the machine.
    func record(_ candidate: PluginCandidate, language: String, couldKillHost: Bool) {
        let contents = Contents(pid: getpid(), language: language, candidate: candidate, couldKillHost: couldKillHost)
        guard let data = try? JSONEncoder().encode(contents) else { return }
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
    func recover(into cache: () -> RegistryCache?, at date: Date, logger: Logger) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(ScanMarker.prefix) && name.hasSuffix(".json") {
            let file = directory.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path),
                  let contents = try? JSONDecoder().decode(Contents.self, from: data) else {
                unlink(file.path)
                continue
            }
            if contents.pid != getpid(), ScanMarker.isRunning(contents.pid) { continue }
            let path = contents.candidate.path
            guard contents.couldKillHost ?? true else {
                logger.debug("A host was killed while it scanned \(path), which could not have done it; it is scanned again.")
                unlink(file.path)
                continue
            }
            let result = ScanResult.quarantined(HostText.Phrase("plugin.killedHost", ["path": path]))
            cache()?.store([(contents.candidate, result)], language: contents.language, at: date, logger: logger)
            unlink(file.path)
        }
    }

    /// Whether process `pid` runs: it exists and is not a zombie its parent has yet to reap.
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return true }
        return !stat[stat.index(after: end)...].hasPrefix(" Z")
    }
}
