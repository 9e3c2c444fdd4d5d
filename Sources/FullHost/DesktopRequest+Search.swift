import Foundation
import HostDesktop
import HostModel
import HostServer
import HostSurfaces
import StandFitHost

/// The desktop's searches: KRunner (`org.kde.krunner1`) and GNOME Shell's search
/// (`org.gnome.Shell.SearchProvider2`) ask the same question, what a typed query matches
/// (`HostSession.runnerMatches`), and run a match as `ActivateAction` would.
extension DesktopRequest {
    /// What `query` matches in the installed desktop file's session. For KRunner, where the
    /// desktop file is installed, without the quick actions by name: Plasma's own Applications
    /// runner lists a desktop file's actions already, and each would be listed twice.
    static func runnerMatches(_ query: String, krunner: Bool = false, bus: DesktopBus) -> [DesktopSearch.Match] {
        let served = serve(on: bus) { () -> [DesktopSearch.Match] in
            do throws(HostError) {
                let session = try installedSession(logger: bus.logger)
                let matches = try DesktopSearch(session).matches(query)
                guard krunner, DesktopInstallation.entryIsInstalled(paths: session.paths, environment: session.request.environment) else {
                    return matches
                }
                return matches.filter { if case .action? = DesktopSearch.Target(id: $0.id) { false } else { true } }
            } catch {
                bus.logger.warning("Search '\(query)': \(error.message)")
                return []
            }
        }
        return served?.result ?? []
    }

    /// KRunner's `Actions`: what it offers beside every match, in the desktop's language.
    static func runnerActions(bus: DesktopBus) -> [DesktopSearch.Action] {
        let served = serve(on: bus) { () -> String in
            (try? installedSession(logger: bus.logger).language) ?? "en"
        }
        return DesktopSearch.actions(language: served?.result ?? "en")
    }

    /// KRunner's `Run` and GNOME's `ActivateResult`: runs match `match` as `ActivateAction` would
    /// and shows the outcome; with `action` "copy", copies the command line that runs it instead.
    static func runnerRun(_ match: String, action: String = "", bus: DesktopBus) -> Answer {
        if action == DesktopSearch.copyAction { return copyCommand(of: match, bus: bus) }
        switch DesktopSearch.Target(id: match) {
        case .action(let key)?: return activateAction(.key(key), parameters: [], bus: bus)
        case .phrase(let phrase)?: return activateAction(.type(phrase.type, userInfo: nil), parameters: phrase.named, bus: bus)
        case nil: break
        }
        return .refused(.unknownAction, "The desktop's search asked to run '\(match)', which is no match of StandFit's; search again.")
    }

    /// "Copy as a command": the command line that runs `match` goes to the clipboard (KDE's
    /// Klipper, `setClipboardContents`), and a notification says so, naming the command (also
    /// when there is no clipboard manager, so that it can still be read).
    private static func copyCommand(of match: String, bus: DesktopBus) -> Answer {
        let served = serve(on: bus) { () -> Result<(command: String, language: String)?, HostError> in
            do throws(HostError) {
                let session = try installedSession(logger: bus.logger)
                let record = try DesktopInstallation.installation(session: session)
                return .success(try DesktopSearch(session).command(match, executable: record?.executable ?? Executable.command.path,
                                                          options: record?.arguments ?? []).map { ($0, session.language) })
            } catch {
                return .failure(error)
            }
        }
        switch served?.result {
        case .success(nil):
            return .refused(.unknownAction, "The desktop's search asked to copy '\(match)', which is no match of StandFit's; search again.")
        case .success(let (command, language)?):
            let text = HostText(language: language)
            let failure = bus.callWithString(destination: "org.kde.klipper", path: "/klipper", interface: "org.kde.klipper.klipper",
                                             method: "setClipboardContents", argument: command)
            let body = failure == nil ? text("runner.copied", ["command": command]) : text("runner.noClipboard", ["command": command])
            bus.show(DesktopNotification(summary: DesktopInstallation.applicationName, body: body, icon: "edit-copy"))
            return failure.map { .refused(.failed, text("runner.noClipboard", ["command": command]) + " (\($0))") } ?? .done("copied '\(command)'")
        case .failure(let error):
            return .refused(.failed, error.message)
        case nil:
            return .refused(.failed, "The server could not make a request to copy '\(match)' (out of descriptors or threads); try again.")
        }
    }
}
