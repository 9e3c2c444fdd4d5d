import Foundation
import HostModel
import Synchronization

/// The checks sshd's StrictModes makes of a key file, made of a plugin before any of its code
/// runs: the file and every directory above it up to the search root must belong to the user
/// or to root and must not be writable by the group or by others, so that nobody else can swap
/// the code the host is about to load.
///
/// Rationale for the one exception: a directory writable by all but sticky and owned by root
/// (`/tmp`) lets nobody else rename or remove what the user put in it, so it cannot be used to
/// swap the plugin either.
struct TrustCheck {
    /// The user the host runs as.
    var userID = getuid()
    /// What the directories checked so far answered, for as long as this value lives (one
    /// vetting pass: a directory changed later is checked again by the next command).
    private let memo = Memo()

    private struct DirectoryKey: Hashable {
        var directory: String
        var stop: String
    }

    private final class Memo {
        var verdicts: [DirectoryKey: HostText.Phrase?] = [:]
    }

    /// Why `file` (a real path, with its `stat`) must not load, as the end of a sentence that
    /// starts with "Plugin PATH" (`plugin.problem`), or nil when it may.
    func problem(file: String, info: stat, root: String) -> HostText.Phrase? {
        if let problem = problem(of: info) {
            return HostText.Phrase("plugin.trust.file.\(problem.kind)", problem.values.merging(["fix": problem.fix(file)]) { $1 },
                                   parts: problem.parts)
        }
        let start = TrustCheck.parent(of: file)
        let stop = file.hasPrefix(root.hasSuffix("/") ? root : root + "/") ? root : "/"
        // Plugins share directories: a hundred in one directory make its checks once.
        let key = DirectoryKey(directory: start, stop: stop)
        if let verdict = memo.verdicts[key] { return verdict }
        let verdict = problem(directory: start, stop: stop)
        memo.verdicts[key] = verdict
        return verdict
    }

    /// The directory a real (absolute, normalized) path is in.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The first problem of `directory` or a directory above it, up to `stop`.
    private func problem(directory start: String, stop: String) -> HostText.Phrase? {
        var directory = start
        while true {
            var info = stat()
            guard lstat(directory, &info) == 0 else {
                return HostText.Phrase("plugin.trust.directory.unexaminable", ["directory": directory, "error": String(cString: strerror(errno))])
            }
            if let problem = problem(of: info) {
                return HostText.Phrase("plugin.trust.directory.\(problem.kind)",
                                       problem.values.merging(["directory": directory, "fix": problem.fix(directory)]) { $1 },
                                       parts: problem.parts)
            }
            if directory == stop || directory == "/" || directory.isEmpty { return nil }
            directory = (directory as NSString).deletingLastPathComponent
        }
    }

    private struct Problem {
        /// "owned" (by user 1001, who is neither you nor root) or "writable" (by others, mode
        /// 0666): the last part of its key, `plugin.trust.file.owned`, `plugin.trust.directory.writable`.
        var kind: String
        var values: [String: String]
        var parts: [String: HostText.Phrase] = [:]
        /// The command that mends it, for a path.
        var fix: (String) -> String
    }

    private func problem(of info: stat) -> Problem? {
        let uid = info.st_uid
        if uid != userID && uid != 0 {
            return Problem(kind: "owned", values: ["uid": "\(uid)"], fix: { "chown \(userID) \($0)" })
        }
        let mode = info.st_mode & 0o7777
        let isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
        if isDirectory, mode & 0o1000 != 0, uid == 0 { return nil }
        guard mode & 0o022 != 0 else { return nil }
        let who = mode & 0o002 != 0 ? (mode & 0o020 != 0 ? "groupAndOthers" : "others") : "group"
        return Problem(kind: "writable", values: ["mode": String(format: "%04o", mode)],
                       parts: ["who": HostText.Phrase("plugin.trust.who.\(who)")], fix: { "chmod go-w \($0)" })
    }
}

/// The first bytes of a plugin file, checked before `dlopen` so that a file that cannot be a
/// plugin for this machine is refused in plain words.
enum ELFHeader {
    /// `e_machine` of this host.
    static var hostMachine: (number: UInt16, name: String) {
        #if arch(x86_64)
        (62, "x86_64")
        #elseif arch(arm64)
        (183, "aarch64")
        #else
        (0, "this architecture")
        #endif
    }

    /// The files whose header was found good, by what `stat` says of them: the warm server
    /// vets every plugin for every command, and a header is read only when its file changed.
    ///
    /// Rationale: a file's bytes cannot change without its modification or change time
    /// changing (a write sets both; `touch -d` sets the change time), nor be replaced without
    /// another inode, so a file whose device, inode, size and both times are as recorded has
    /// the header it had. Only good verdicts are kept: a refusal is worked out again each time.
    private static let good = Mutex<Set<StatKey>>([])

    /// The registry cache's identity of a file, and its change time.
    private struct StatKey: Hashable {
        var identity: FileIdentity
        var changed: Int64

        init(_ info: stat) {
            identity = FileIdentity(info)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        }
    }

    /// `problem(path:)` for the file at `path`, whose `stat` is `info`, answered without
    /// reading the file when it was found good before and has not changed since.
    static func problem(path: String, info: stat) -> HostText.Phrase? {
        let key = StatKey(info)
        if good.withLock({ $0.contains(key) }) { return nil }
        let problem = problem(path: path)
        if problem == nil {
            good.withLock { known in
                if known.count >= 4096 { known.removeAll() }
                known.insert(key)
            }
        }
        return problem
    }

    /// Why the file at `path` is not a 64-bit shared object for this machine, and what to do,
    /// or nil: the end of a sentence that starts with "Plugin PATH" (`plugin.problem`).
    static func problem(path: String) -> HostText.Phrase? {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            let code = errno
            return HostText.Phrase("plugin.unreadable", ["error": String(cString: strerror(code))],
                                   parts: ["wayOut": SystemFault.wayOut(errno: code) ?? HostText.Phrase("plugin.wayOut.permissions")])
        }
        var header = [UInt8](repeating: 0, count: 64)
        let count = header.withUnsafeMutableBytes { pread(file, $0.baseAddress, 64, 0) }
        close(file)
        let read = Array(header.prefix(max(count, 0)))
        if read.starts(with: Array("!<arch>\n".utf8)) {
            return HostText.Phrase("plugin.elf.staticLibrary")
        }
        return shapeProblem(read).map { HostText.Phrase($0.key, $0.values, parts: $0.parts.merging(["rebuild": HostText.Phrase("plugin.rebuild")]) { $1 }) }
    }

    /// What is wrong with the header, as words that go on with "; {rebuild}".
    private static func shapeProblem(_ header: [UInt8]) -> HostText.Phrase? {
        if header.isEmpty { return HostText.Phrase("plugin.elf.empty") }
        guard header.count >= 20, header[0..<4] == [0x7F, 0x45, 0x4C, 0x46] else {
            return HostText.Phrase("plugin.elf.notELF")
        }
        guard header[4] == 2 else { return HostText.Phrase("plugin.elf.32bit") }
        let type = UInt16(header[16]) | UInt16(header[17]) << 8
        let machine = UInt16(header[18]) | UInt16(header[19]) << 8
        if machine != hostMachine.number {
            let name = machineNames[machine].map { HostText.Phrase("plugin.elf.machine.named", ["name": $0, "number": "\(machine)"]) }
                ?? HostText.Phrase("plugin.elf.machine.number", ["number": "\(machine)"])
            return HostText.Phrase("plugin.elf.machine", ["host": hostMachine.name], parts: ["machine": name])
        }
        guard type == 3 else { return HostText.Phrase("plugin.elf.notShared", ["type": "\(type)"]) }
        return nil
    }

    private static let machineNames: [UInt16: String] = [
        3: "i386", 8: "mips", 20: "powerpc", 21: "powerpc64", 22: "s390", 40: "arm", 62: "x86_64",
        183: "aarch64", 243: "riscv", 258: "loongarch",
    ]
}
