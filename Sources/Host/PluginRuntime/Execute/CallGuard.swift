import CHostSystem
import Foundation
import HostModel

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

    /// The language its sentences are said in: the run's, fixed when the plugins are set up.
    let language: String

    init(verbose: Bool, isOn: Bool = true, language: String = "en") {
        self.language = language
        self.verbose = verbose
        self.isOn = isOn
    }

    static var off: CallGuard { CallGuard(verbose: true, isOn: false) }

    /// Runs `body`, plugin code of `pluginID`, doing `activity` ("while running com.x.open").
    /// The sentences are put into words before the call: the signal handler only writes them.
    func around<T>(_ pluginID: String, _ activity: HostText.Phrase, _ body: () -> T) -> T {
        guard isOn else { return body() }
        standfit_call_guard_install(verbose ? 1 : 0, 4)
        let text = HostText(language: language)
        let doing = text(activity)
        let key = pluginID + "\u{0}" + doing
        let parts = sentences[key] ?? {
            let values = ["plugin": pluginID, "activity": doing]
            let made = (
                crashPrefix: strdup(text("guard.crashPrefix", values))!,
                crashSuffix: strdup(text("guard.crashSuffix", values))!,
                exit: strdup(text("guard.exit", values))!)
            sentences[key] = made
            return made
        }()
        standfit_call_guard_enter(parts.crashPrefix, parts.crashSuffix, parts.exit)
        defer { standfit_call_guard_leave() }
        return body()
    }
}
