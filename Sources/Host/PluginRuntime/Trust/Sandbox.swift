import CHostSystem
import Foundation
import Glibc
import Logging
import HostModel

/// The sandbox untrusted plugin code runs in: the scan helper's child that loads a plugin and
/// the handler worker that runs it, entered before the plugin is opened (its constructors run
/// sandboxed too) and kept by everything it starts.
///
/// What a sandboxed plugin can do (docs/ARCHITECTURE.md, docs/PLUGINS.md):
/// - read the system's files (`/usr`, `/lib*`, `/bin`, `/sbin`, `/etc`, `/opt`, its own
///   process's `/proc/self`, CPU and memory facts) and the directory its file is in;
/// - execute no program but those it declared (`standfit.programs/1`) and their dynamic
///   loaders; nothing at all when it declared none (nor during its scan), and never a file
///   where it can write;
/// - read and write its own data directory (in handlers and providers; a scan has none yet), a
///   private temporary directory (`TMPDIR` names it, beneath `$XDG_CACHE_HOME/standfit/sandbox/`,
///   removed after the call) and `/dev/null`;
/// - nothing else of the file system: not the user's home, not the host's state, cache or
///   settings, not another plugin's data;
/// - send no signal to, and trace or read the memory of no process outside its sandbox (the
///   host, the user's shell), leave its process group or session, change the signal it gets
///   when the host dies, stop reaping what it forks, or make itself undumpable;
/// - open no Unix socket (pathname or abstract), so it reaches neither the warm server nor the
///   session bus nor any other user service, and set up no io_uring (which would bypass that);
/// - use the network (IP) as any program can.
/// Landlock does the files, what may be executed, signals and ptrace; seccomp (libseccomp) the
/// process group, the parent-death signal, reaping, Unix sockets, io_uring, ptrace again, and
/// exec for a plugin that declared no program. A kernel without Landlock leaves file access and
/// signals as they were (`doctor` says so); seccomp is in every kernel the host supports.
package enum Sandbox {
    /// What a plugin may read and write.
    package struct Grant {
        var read: [String]
        var write: [String]
        /// Its private temporary directory, made before the sandbox is entered.
        var temporary: URL
        /// Its data directory, made before the sandbox is entered; nil in a scan.
        var dataDirectory: URL?
        /// The files it may execute: the programs it declared and the loader each names.
        var execute: [String] = []

        /// The grant of `candidate`'s code, with its data directory when it has one, and the
        /// `programs` it declared (none in a scan, which is where it declares them).
        static func forPlugin(_ candidate: PluginCandidate, paths: HostPaths, dataDirectory: URL?,
                              programs: [String] = []) -> Grant {
            let temporary = temporaryBase(paths).appendingPathComponent("\(getpid())")
            let pluginDirectory = (candidate.realPath as NSString).deletingLastPathComponent
            var write = [temporary.path, "/dev/null"]
            if let dataDirectory { write.insert(dataDirectory.path, at: 0) }
            // Beneath these no plugin may execute: every plugin's data and every sandbox's
            // temporary directory, not only this one's (another plugin of the same author
            // could write the program).
            let writable = write + [paths.dataDirectory.appendingPathComponent("data").path, temporaryBase(paths).path]
            return Grant(read: systemPaths + [pluginDirectory], write: write, temporary: temporary,
                         dataDirectory: dataDirectory, execute: executables(programs, writable: writable))
        }

        /// `programs` with the dynamic loader each one names (the kernel executes it too): each
        /// a regular file (a directory would grant everything beneath it), by its real path, and
        /// none beneath `writable` (the plugin would write the program it then runs).
        package static func executables(_ programs: [String], writable: [String]) -> [String] {
            let writable = writable.map { (realPath($0) ?? $0) + "/" }
            var files: [String] = []
            /// The real path of `path` when it may be executed (and is now in `files`).
            func add(_ path: String) -> String? {
                guard let real = realPath(path), !writable.contains(where: { real.hasPrefix($0) }) else { return nil }
                var info = stat()
                guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
                if !files.contains(real) { files.append(real) }
                return real
            }
            for program in programs {
                // A program refused brings no loader: the loader would run it (or anything) anyway.
                guard let real = add(program) else { continue }
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
                if standfit_elf_interpreter(real, &buffer, buffer.count) == 1 {
                    _ = add(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                }
            }
            return files
        }

        /// `path` with every link resolved, or nil when it does not exist.
        private static func realPath(_ path: String) -> String? {
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }

        /// What every program needs to run: libraries, the dynamic linker's cache, locales,
        /// time zones, and facts about its own process and the machine.
        static let systemPaths = [
            "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/opt",
            "/proc/self", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/sys/kernel",
            "/sys/devices/system/cpu", "/dev/urandom", "/dev/random", "/dev/zero",
        ]
    }

    /// Enters the sandbox for good. What the kernel lacks is logged under --verbose and
    /// degrades to the isolation of a worker process; a failure to enter is logged as a
    /// warning, since the plugin then runs with more rights than it should.
    static func enter(_ grant: Grant, logger: Logger) {
        // The temporary directory is the user's own (in the host's cache directory, never in a
        // shared /tmp where another user could plant a link): one per process, made afresh.
        // mkdir(2) itself, so a forked scan child does not pay for FileManager's first use.
        if mkdir(grant.temporary.path, 0o700) != 0 {
            if errno == EEXIST { try? FileManager.default.removeItem(at: grant.temporary) }
            try? FileManager.default.createDirectory(at: grant.temporary, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        if let data = grant.dataDirectory {
            try? FileManager.default.createDirectory(at: data, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        setenv("TMPDIR", grant.temporary.path, 1)
        let status = withCStrings(grant.read) { read in
            withCStrings(grant.write) { write in
                withCStrings(grant.execute) { execute in
                    standfit_landlock_restrict(read, Int32(grant.read.count), write, Int32(grant.write.count),
                                               execute, Int32(grant.execute.count))
                }
            }
        }
        if status < 0 {
            logger.warning("The plugin sandbox could not be entered (Landlock: \(String(cString: strerror(errno)))); the plugin runs with the rights of a worker process.")
        } else if status == 0 {
            logger.debug("This kernel has no Landlock: the plugin's file access and signals are not restricted.")
        }
        // Exec is allowed only where Landlock names what may be executed: without it, a
        // declaration would open every program.
        let seccomp = standfit_seccomp_restrict(grant.execute.isEmpty || status <= 0 ? 0 : 1)
        if seccomp != 0 {
            logger.warning("The plugin sandbox could not load its seccomp filter (\(String(cString: strerror(-seccomp)))); the plugin may leave its process group.")
        }
    }

    /// Removes what `directory` holds (a warm worker's `TMPDIR` between calls), leaving it in
    /// place: the sandbox's rule for it names this directory, not a new one.
    static func empty(_ directory: String) {
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: directory)) ?? [] {
            try? manager.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }

    /// What this machine's kernel offers, for `doctor`.
    package struct Support: Sendable {
        package var landlockABI: Int
        /// Which restrictions apply, in `language`.
        package func description(in language: String) -> String {
            let text = HostText(language: language), abi = ["abi": "\(landlockABI)"]
            return switch landlockABI {
            case 0: text("doctor.sandboxSeccompOnly")
            case 1...5: text("doctor.sandboxNoSignals", abi)
            default: text("doctor.sandboxFull", abi)
            }
        }
    }

    package static var support: Support { Support(landlockABI: Int(standfit_landlock_abi())) }

    /// Where sandboxed processes get their private temporary directories: beneath the host's
    /// cache directory, which only the user can write.
    static func temporaryBase(_ paths: HostPaths) -> URL {
        paths.cacheDirectory.appendingPathComponent("sandbox", isDirectory: true)
    }

    /// The private temporary directory a sandboxed process with `pid` used, removed once it ended.
    static func removeTemporary(of pid: pid_t, paths: HostPaths) {
        try? FileManager.default.removeItem(at: temporaryBase(paths).appendingPathComponent("\(pid)"))
    }
}

/// Runs `body` with `strings` as a C array of C strings.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    // One NULL after the last, so that an empty list still has an address.
    let pointers = strings.map { UnsafePointer(strdup($0)) } + [nil]
    defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
