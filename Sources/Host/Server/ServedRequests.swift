import HostDesktop
import HostModel

/// What the warm server serves, given to it by the composition: it knows no command, no
/// command-line parser and no session, only that a client's request comes to one of these.
package protocol ServedCommands: Sendable {
    /// What becomes of a client's `arguments`, in `scope` (the request's facts taken on; the
    /// client's build checked, its origin a user's): run here, or handed back for the client to
    /// run in its own process.
    func admit(_ arguments: [String], in scope: RequestScope, by server: WarmServer) -> Admission
}

/// What the server does with a request.
package enum Admission {
    /// Not run here: the client runs it in its own process, so that nothing differs (help laid
    /// out for its terminal, a time zone the server cannot reproduce, mode `off`). `reason` goes
    /// to the server's log; `asDesigned` for a command that always runs in its own process.
    case runCold(reason: String, asDesigned: Bool)
    /// Run here once the client says go: `body` runs the command, on the request's thread within
    /// its scope, and answers its exit status.
    case serve(() -> Int32)
}

/// What the desktop's requests over the bus come to (`DesktopBus`): the composition runs them
/// through the session, each in a request scope of its own (`RequestScope(desktopRequestOn:)`).
package protocol DesktopRequests: Sendable {
    /// `ActivateAction(key, parameters)`: the desktop action `key`, with `parameters` as its
    /// `name=value` arguments; the outcome is shown as a notification.
    func activateAction(_ key: String, parameters: [NamedArgument], on bus: DesktopBus) -> DesktopBus.Answer
    /// `Activate`: the picker, of `app`'s quick actions alone when given.
    func activate(app: String?, on bus: DesktopBus) -> DesktopBus.Answer
    /// What a typed query matches (KRunner's `Match` with `krunner`, GNOME's result sets).
    func matches(_ query: String, krunner: Bool, on bus: DesktopBus) -> [DesktopSearch.Match]
    /// KRunner's `Run` and GNOME's `ActivateResult`: runs match `id`, or with `action` (KRunner's
    /// "copy") does that instead.
    func run(match id: String, action: String, on bus: DesktopBus) -> DesktopBus.Answer
    /// KRunner's `Actions`, in the desktop's language.
    func runnerActions(on bus: DesktopBus) -> [DesktopSearch.Action]
}
