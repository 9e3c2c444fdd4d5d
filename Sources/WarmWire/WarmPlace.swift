#if canImport(Glibc)
import Glibc
#endif

public enum WarmWire {
    /// Part of the socket's name: a client and a server that frame messages differently never meet.
    public static let protocolVersion = 2
    /// The full host's file name: beside the thin client in a build tree, in
    /// `libexec/standfit/` under an installed prefix.
    public static let fullHostName = "standfit-host-full"
    /// The socket-activation socket's name in the socket directory.
    public static let activationSocketName = "host.sock"
    /// `STANDFIT_SERVER`: off, manual, auto or required.
    public static let modeVariable = "STANDFIT_SERVER"
}

/// Where the server of one build listens, and whether that place can be trusted.
public struct WarmPlace: Equatable, Sendable {
    /// `$XDG_RUNTIME_DIR/standfit`, else `/tmp/standfit-UID`.
    public let directory: String
    /// The build's identity: which full host binary this is.
    public let build: String

    public init(directory: String, build: String) {
        self.directory = directory
        self.build = build
    }

    /// The place for the full host at `fullHost`, from the request's environment.
    public init?(fullHost: String, environment: (String) -> String?) {
        guard let build = WarmPlace.buildIdentity(of: fullHost) else { return nil }
        self.init(directory: WarmPlace.runtimeDirectory(environment: environment), build: build)
    }

    public var socketPath: String { "\(directory)/host-\(build).sock" }
    /// The socket a service manager listens on for the user's server (`standfit-host.socket`:
    /// `%t/standfit/host.sock`) and hands to the server it starts (the LISTEN_FDS protocol). Its
    /// name carries no build: the request does, and a server of another build answers RunCold.
    public var activationSocketPath: String { "\(directory)/\(WarmWire.activationSocketName)" }
    /// Held (flock) by the one server of this build for as long as it runs.
    public var lockPath: String { "\(directory)/host-\(build).lock" }

    /// Written by a command that has just started a server of this build in the background,
    /// removed by that server once it listens: a client that finds no socket but a fresh marker
    /// waits a moment for it (`WarmClient.forward`) instead of running cold beside it.
    public var startingPath: String { "\(directory)/host-\(build).starting" }

    /// How long a marker counts as fresh, and how long a client waits for the server it names.
    public static let startingFresh: Int = 2
    public static let startingWaitMilliseconds: Int32 = 500

    /// The directory the sockets live in: `$XDG_RUNTIME_DIR/standfit` when XDG_RUNTIME_DIR is
    /// an absolute path; else `/run/user/UID/standfit` when pam_systemd made that directory for
    /// this user (the variable is lost on the way to a server the session bus or
    /// `systemd-socket-activate` starts, and under `su` or cron, while the user's session has it);
    /// else `/tmp/standfit-UID`.
    public static func runtimeDirectory(environment: (String) -> String?) -> String {
        if let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
            return (runtime.hasSuffix("/") ? String(runtime.dropLast()) : runtime) + "/standfit"
        }
        let session = "/run/user/\(getuid())"
        if case .privateToUser = state(of: session) { return session + "/standfit" }
        return "/tmp/standfit-\(getuid())"
    }

    /// What a socket directory is.
    public enum DirectoryState: Equatable, Sendable {
        case missing
        /// A directory of this user's with no group or other permission bits: safe.
        case privateToUser
        /// Anything else: what is wrong with it.
        case unsafe(DirectoryProblem)
    }

    /// What makes a socket directory unsafe: a key and values for the full host, which says
    /// it and the way out that fits it in the user's language ("socketDirectory." + `key`; the
    /// thin client has no tables, and has the full host say it: `ClientNotice`).
    public enum DirectoryProblem: Equatable, Sendable {
        /// lstat failed for another reason than its absence: strerror's words.
        case unreadable(reason: String)
        case symbolicLink
        case notDirectory
        case foreignOwner(owner: UInt32, you: UInt32)
        /// Group or others have a permission bit; the mode in octal.
        case openMode(String)

        public var key: String {
            switch self {
            case .unreadable: "unreadable"
            case .symbolicLink: "symbolicLink"
            case .notDirectory: "notDirectory"
            case .foreignOwner: "foreignOwner"
            case .openMode: "openMode"
            }
        }

        /// The values of its sentence, `directory` among them.
        public func values(directory: String) -> [String: String] {
            switch self {
            case .unreadable(let reason): ["directory": directory, "reason": reason]
            case .symbolicLink, .notDirectory: ["directory": directory]
            case .foreignOwner(let owner, let you): ["directory": directory, "owner": "\(owner)", "you": "\(you)"]
            case .openMode(let mode): ["directory": directory, "mode": mode]
            }
        }
    }

    /// Checks `directory` as sshd's StrictModes and chg do: it must be a real directory (not a
    /// link), owned by this user, with no permission for group or others.
    public static func state(of directory: String) -> DirectoryState {
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            return errno == ENOENT ? .missing : .unsafe(.unreadable(reason: String(cString: strerror(errno))))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return .unsafe(.symbolicLink)
        default: return .unsafe(.notDirectory)
        }
        guard info.st_uid == getuid() else { return .unsafe(.foreignOwner(owner: info.st_uid, you: getuid())) }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else { return .unsafe(.openMode(String(mode, radix: 8))) }
        return .privateToUser
    }

    /// The identity of the full host binary: its device, inode, size and modification time,
    /// hashed to a short name (a socket path has at most 107 bytes). Replacing or rebuilding the
    /// binary changes it.
    ///
    /// Rationale: FNV-1a by hand, not swift-crypto, because the thin client links neither
    /// Foundation nor Crypto; the hash only names the socket, inside a directory only the user
    /// can enter, so it needs no resistance to forgery.
    public static func buildIdentity(of fullHost: String) -> String? {
        var info = stat()
        guard stat(fullHost, &info) == 0 else { return nil }
        let facts = "\(WarmWire.protocolVersion):\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in facts.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\(WarmWire.protocolVersion)-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Where the full host for the thin client at `client` may be, in order:
    /// `../libexec/standfit/standfit-host-full` under an installed prefix, else
    /// `standfit-host-full` beside it (a build tree).
    public static func fullHostCandidates(besideClient client: String) -> [String] {
        let directory = client.lastIndex(of: "/").map { String(client[..<$0]) } ?? "."
        return [directory + "/../libexec/standfit/" + WarmWire.fullHostName, directory + "/" + WarmWire.fullHostName]
    }

    /// The first of `fullHostCandidates` that can be run.
    public static func fullHost(besideClient client: String) -> String? {
        fullHostCandidates(besideClient: client).first { access($0, X_OK) == 0 }
    }

    /// The command users type for the full host at `fullHost`: `bin/standfit-host` of an
    /// installed prefix, `standfit-host` beside it in a build tree, else the full host itself.
    public static func client(forFullHost fullHost: String) -> String {
        let directory = fullHost.lastIndex(of: "/").map { String(fullHost[..<$0]) } ?? "."
        let suffix = "/libexec/standfit"
        let candidates = directory.hasSuffix(suffix)
            ? [String(directory.dropLast(suffix.count)) + "/bin/standfit-host"] : [directory + "/standfit-host"]
        return candidates.first { access($0, X_OK) == 0 } ?? fullHost
    }

    /// The path of the running executable (`/proc/self/exe`), else `fallback`.
    public static func runningExecutable(fallback: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return fallback }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
