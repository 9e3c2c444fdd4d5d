/// What the thin client has to tell the user when no server serves its command as asked
/// (`STANDFIT_SERVER=required`) or the server ended under it, and the status it ends with.
///
/// The client has no tables (it links no Foundation, to start in a millisecond), so it does not
/// say it itself: it execs the full host with the notice on its command line (`arguments`),
/// which says it in the user's language, as every other refusal, and exits with `status`.
/// Only a full host that cannot be started leaves the client to say that much in English.
public struct ClientNotice: Equatable, Sendable {
    /// The full host's first argument that marks a notice; the client's own line follows "--".
    public static let argument = "---client-notice"

    /// What went wrong, with the values its sentence names.
    public enum Reason: Equatable, Sendable {
        /// Nothing listens on the build's socket or on the activation socket.
        case noServer(socket: String)
        /// The socket directory is not private to the user.
        case unsafeDirectory(String, WarmPlace.DirectoryProblem)
        /// Descriptors 0, 1 and 2 are not all open, and a server needs them.
        case descriptors
        /// The server did not take the request (another user's, or the send failed).
        case notTaken(socket: String)
        /// The server did not accept the request in time.
        case notAccepted(socket: String, seconds: String)
        /// The server went away before it was told to go.
        case wentAway(socket: String)
        /// There is no directory for the socket (no XDG_RUNTIME_DIR, no /tmp).
        case noSocketDirectory
        /// The working directory cannot be named.
        case noWorkingDirectory
        /// The server ended after it accepted the request: the command is not run again.
        case serverLost(pid: Int32, command: String)
    }

    public var reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    /// The status the command ends with: 69 unavailable, 4 for a server lost mid-command.
    public var status: Int32 {
        if case .serverLost = reason { return 4 }
        return 69
    }

    /// The key of the sentence in the host's tables, and its values. A value named `part.NAME`
    /// is the key of a phrase of its own that fills `{NAME}`, said with the same values.
    public var phrase: (key: String, values: [String: String]) {
        let unserved = "client.unserved"
        switch reason {
        case .noServer(let socket): return (unserved, ["part.why": "client.why.noServer", "socket": socket])
        case .unsafeDirectory(let directory, let problem):
            return ("client.unservedDirectory", problem.values(directory: directory).merging(["part.problem": "socketDirectory." + problem.key]) { $1 })
        case .descriptors: return (unserved, ["part.why": "client.why.descriptors"])
        case .notTaken(let socket): return (unserved, ["part.why": "client.why.notTaken", "socket": socket])
        case .notAccepted(let socket, let seconds): return (unserved, ["part.why": "client.why.notAccepted", "socket": socket, "seconds": seconds])
        case .wentAway(let socket): return (unserved, ["part.why": "client.why.wentAway", "socket": socket])
        case .noSocketDirectory: return (unserved, ["part.why": "client.why.noSocketDirectory"])
        case .noWorkingDirectory: return (unserved, ["part.why": "client.why.noWorkingDirectory"])
        case .serverLost(let pid, let command): return ("client.serverLost", ["pid": "\(pid)", "command": command])
        }
    }

    /// The full host's command line (after its name) that says this notice for the client's
    /// command `original`: the marker, the status, the key, its values as `name=value`, "--",
    /// then the client's own arguments (whose `--locale` and `--json` the saying follows).
    public func arguments(for original: [String]) -> [String] {
        let (key, values) = phrase
        return [ClientNotice.argument, "\(status)", key] + values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + ["--"] + original
    }

    /// A notice read back from the full host's command line, with the client's own arguments:
    /// nil for any line that is not exactly what `arguments(for:)` makes of some notice (a
    /// reason the client has, its values and the status that goes with it), so that the hidden
    /// argument says nothing but what a client could have had to say.
    public static func read(_ arguments: [String]) -> (notice: ClientNotice, original: [String])? {
        guard arguments.count >= 4, arguments[0] == argument, let end = arguments.firstIndex(of: "--") else { return nil }
        var values: [String: String] = [:]
        for pair in arguments[3..<end] {
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            values[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let original = Array(arguments[(end + 1)...])
        guard let reason = Reason(key: arguments[2], values: values) else { return nil }
        let notice = ClientNotice(reason)
        return notice.arguments(for: original) == arguments ? (notice, original) : nil
    }
}

extension ClientNotice.Reason {
    /// The reason whose phrase is `key` with `values` (`ClientNotice.phrase`), if any is.
    init?(key: String, values: [String: String]) {
        let socket = values["socket"] ?? ""
        switch (key, values["part.why"]) {
        case ("client.unserved", "client.why.noServer"): self = .noServer(socket: socket)
        case ("client.unserved", "client.why.descriptors"): self = .descriptors
        case ("client.unserved", "client.why.notTaken"): self = .notTaken(socket: socket)
        case ("client.unserved", "client.why.notAccepted"): self = .notAccepted(socket: socket, seconds: values["seconds"] ?? "")
        case ("client.unserved", "client.why.wentAway"): self = .wentAway(socket: socket)
        case ("client.unserved", "client.why.noSocketDirectory"): self = .noSocketDirectory
        case ("client.unserved", "client.why.noWorkingDirectory"): self = .noWorkingDirectory
        case ("client.serverLost", nil): self = .serverLost(pid: Int32(values["pid"] ?? "") ?? 0, command: values["command"] ?? "")
        case ("client.unservedDirectory", nil):
            let directory = values["directory"] ?? ""
            let problem: WarmPlace.DirectoryProblem
            switch values["part.problem"] {
            case "socketDirectory.unreadable": problem = .unreadable(reason: values["reason"] ?? "")
            case "socketDirectory.symbolicLink": problem = .symbolicLink
            case "socketDirectory.notDirectory": problem = .notDirectory
            case "socketDirectory.foreignOwner": problem = .foreignOwner(owner: UInt32(values["owner"] ?? "") ?? 0, you: UInt32(values["you"] ?? "") ?? 0)
            case "socketDirectory.openMode": problem = .openMode(values["mode"] ?? "")
            default: return nil
            }
            self = .unsafeDirectory(directory, problem)
        default: return nil
        }
    }
}
