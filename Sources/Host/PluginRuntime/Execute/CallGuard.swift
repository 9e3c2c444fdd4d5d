import CHostSystem
import Foundation

/// Trusted plugin code runs in the host's process, where a crash or a call of `exit()` would
/// otherwise end the command with a Swift backtrace, or with status 0 and no words. Around each
/// such call the host names the plugin and what it was doing (`standfit_call_guard_enter`), so
/// that a crash ends in one sentence and exit status 4 (plugin failed), as a worker's crash does.
/// Under `--verbose` the crash is passed on to Swift's backtracer after the sentence.
final class CallGuard {
    let verbose: Bool
    /// Off for tools and tests that load plugins into their own process (`PluginLoader`):
    /// their crashes stay theirs.
    let isOn: Bool
    /// The C strings of each (plugin, activity), made once and kept for the process: the
    /// signal handler reads them, so they are never freed.
    private var sentences: [String: (crashPrefix: UnsafeMutablePointer<CChar>, crashSuffix: UnsafeMutablePointer<CChar>,
                                     exit: UnsafeMutablePointer<CChar>)] = [:]

    init(verbose: Bool, isOn: Bool = true) {
        self.verbose = verbose
        self.isOn = isOn
    }

    static var off: CallGuard { CallGuard(verbose: true, isOn: false) }

    /// Runs `body`, plugin code of `pluginID`, doing `activity` ("while running com.x.open").
    func around<T>(_ pluginID: String, _ activity: String, _ body: () -> T) -> T {
        guard isOn else { return body() }
        standfit_call_guard_install(verbose ? 1 : 0, 4)
        let key = pluginID + "\u{0}" + activity
        let parts = sentences[key] ?? {
            let made = (
                crashPrefix: strdup("standfit-host: Plugin '\(pluginID)' crashed with ")!,
                crashSuffix: strdup(" \(activity) in the host's process; what it was doing may or may not have taken effect, so check before you run it again, and report this to the plugin's author (run it with --isolate to keep the host out of it).\n")!,
                exit: strdup("standfit-host: Plugin '\(pluginID)' called exit() \(activity) in the host's process, which ended the command; what it was doing may or may not have taken effect, so check before you run it again, and report this to the plugin's author.\n")!)
            sentences[key] = made
            return made
        }()
        standfit_call_guard_enter(parts.crashPrefix, parts.crashSuffix, parts.exit)
        defer { standfit_call_guard_leave() }
        return body()
    }
}
