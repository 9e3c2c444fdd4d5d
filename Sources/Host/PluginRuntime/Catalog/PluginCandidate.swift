import Foundation
import HostModel
import Synchronization

/// A plugin file that passed every check that runs no plugin code: it exists, is a regular
/// file, is not a second path to a file already seen, passes the trust checks, and is an ELF
/// shared object for this machine.
public struct PluginCandidate: Sendable, Hashable, Codable {
    /// The path it was found at (before symlinks are resolved): what messages show.
    public var path: String
    /// Symlinks resolved: what is opened and what the cache is keyed by.
    public var realPath: String
    public var identity: FileIdentity
    /// One of the plugins that come with the host (`HostPaths.bundledPlugins`): trusted to run
    /// in the host's process.
    public var isBundled: Bool
    /// The SHA-256 the user pinned with `plugins trust`, when there is one: the plugin is then
    /// loaded only from bytes with exactly this hash.
    public var pinnedSHA256: String?

    /// Trusted plugins may run in the host's process; the others run in a worker.
    public var isTrusted: Bool { isBundled || pinnedSHA256 != nil }
}

/// What the cache is keyed by: a file changed when any of these did.
public struct FileIdentity: Sendable, Hashable, Codable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Modification time in nanoseconds since 1970.
    public var modified: Int64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// The identity of the file at `path` (symbolic links followed); nil when there is none.
    public static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(info)
    }

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
    }
}

/// One entry of the search path, checked: a candidate or a refusal. (A second path to a file
/// already seen is dropped, with a debug line, before it becomes either.)
package enum VettedFile {
    case candidate(PluginCandidate)
    case refused(PluginRefusal)
}

/// Turns the search path into vetted files, in load order, running no plugin code.
///
/// Rationale: every check here reads file metadata or a file's first bytes only, so it is run
/// on every command, before the registry cache is trusted: a `chmod o+w` changes no
/// modification time, and must still stop the plugin from loading. (The warm server reuses the
/// verdicts only while inotify reports no change to what they rest on: `VettingMemo`.)
package struct PluginVetting {
    var searchPath: [URL]
    /// Where the plugins that come with the host are (real paths): directories, whose every
    /// plugin is bundled, and single files.
    var bundledLocations: Set<String>
    /// Real path → pinned SHA-256 (hex).
    var pins: [String: String]
    /// Only pinned plugins may load.
    var requireTrusted: Bool
    var trust = TrustCheck()

    /// The plugin files on the search path in load order, with the search root each was found
    /// under: the files of each directory by name, or the entry itself when it names a file.
    func files(logger: (String) -> Void = { _ in }) -> [(path: String, root: String)] {
        var files: [(String, String)] = []
        for entry in searchPath {
            var info = stat(), link = stat()
            let exists = stat(entry.path, &info) == 0
            let isDirectory = exists && (info.st_mode & S_IFMT) == S_IFDIR
            let isDanglingLink = !exists && lstat(entry.path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
            if (exists && !isDirectory) || isDanglingLink {
                files.append((entry.path, entry.deletingLastPathComponent().path))
                continue
            }
            guard exists else {
                // An entry of the default path that does not exist (yet) is normal.
                logger("\(entry.path), on the plugin path, does not exist")
                continue
            }
            let names: [String]
            switch DirectoryListing.plugins(in: entry.path, info: info) {
            case .success(let found): names = found
            case .failure(let problem):
                logger("Plugin directory \(entry.path) is not readable: \(problem)")
                continue
            }
            let directory = entry.path, prefix = entry.path.hasSuffix("/") ? entry.path : entry.path + "/"
            files += names.map { (prefix + $0, directory) }
        }
        return files
    }

    /// Vets every file on the search path, in load order; second paths to one file are dropped.
    package func vet(logger: (String) -> Void = { _ in }) -> [VettedFile] {
        struct Inode: Hashable { var device: UInt64; var inode: UInt64 }
        var seen: [Inode: String] = [:]
        var result: [VettedFile] = []
        // A hundred plugins share a few roots: each root's real path is found once.
        var realRoots: [String: String] = [:]
        for (path, root) in files(logger: logger) {
            let realRoot = realRoots[root] ?? RealPath.of(root)
            realRoots[root] = realRoot
            switch vet(path, root: root, realRoot: realRoot) {
            case .success(let candidate):
                let key = Inode(device: candidate.identity.device, inode: candidate.identity.inode)
                if let first = seen[key] {
                    logger("Plugin \(path) is the same file as \(first), which is already loaded")
                    continue
                }
                seen[key] = path
                result.append(.candidate(candidate))
            case .failure(let refusal):
                result.append(.refused(refusal))
            }
        }
        return result
    }

    /// Vets one file named on its own (`plugins check`, `plugins trust`): its directory is the
    /// search root the trust checks stop at.
    package static func vet(file path: String, bundledLocations: Set<String> = [],
                    pins: [String: String] = [:]) -> Result<PluginCandidate, PluginRefusal> {
        let url = URL(fileURLWithPath: path)
        let vetting = PluginVetting(searchPath: [url], bundledLocations: bundledLocations, pins: pins,
                                    requireTrusted: false)
        return vetting.vet(path, root: url.deletingLastPathComponent().path)
    }

    package func vet(_ path: String, root: String, realRoot knownRealRoot: String? = nil) -> Result<PluginCandidate, PluginRefusal> {
        func refuse(_ key: String, _ values: [String: String] = [:], problem: HostText.Phrase? = nil) -> Result<PluginCandidate, PluginRefusal> {
            .failure(PluginRefusal(path: path, sentence: HostText.Phrase(key, values.merging(["path": path]) { $1 },
                                                                         parts: problem.map { ["problem": $0] } ?? [:])))
        }
        let realRoot = knownRealRoot ?? RealPath.of(root)
        var info = stat()
        let realPath: String
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        if path == (root.hasSuffix("/") ? root : root + "/") + name, !name.isEmpty, name != "." && name != "..",
           lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            // A regular file right in its root: its real path is the root's, and its name.
            realPath = (realRoot.hasSuffix("/") ? realRoot : realRoot + "/") + name
        } else {
            guard let resolved = RealPath.resolved(path) else {
                return refuse("plugin.danglingLink")
            }
            realPath = resolved
            guard stat(realPath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                return refuse("plugin.notRegularFile")
            }
        }
        if let problem = trust.problem(file: realPath, info: info, root: realRoot) {
            return refuse("plugin.problem", problem: problem)
        }
        if let problem = ELFHeader.problem(path: realPath, info: info) {
            return refuse("plugin.problem", problem: problem)
        }
        let pin = pins[realPath]
        if requireTrusted, pin == nil {
            return refuse("plugin.notTrusted")
        }
        let directory = TrustCheck.parent(of: realPath)
        return .success(PluginCandidate(path: path, realPath: realPath, identity: FileIdentity(info),
                                        isBundled: bundledLocations.contains(directory) || bundledLocations.contains(realPath), pinnedSHA256: pin))
    }
}

/// The plugin file names of a directory (`*.so`, not hidden, in byte order), kept while the
/// directory is unchanged: the warm server lists every plugin directory for every command.
///
/// Rationale for keeping a listing: a name cannot be added, removed or renamed in a directory
/// without its modification and change times changing, nor the directory be replaced without
/// another inode. A listing is kept only when its directory's times are more than a second
/// old (git's "racy" rule): a file system's clock ticks in milliseconds, so a change made in
/// the same tick as the listing would otherwise go unseen. What the listing names is vetted
/// again on every command (a `chmod o+w` of a file or directory changes no name).
enum DirectoryListing {
    private struct Key: Hashable {
        var device: UInt64
        var inode: UInt64
        var modified: Int64
        var changed: Int64
        var path: String
    }

    private static let kept = Mutex<[Key: [String]]>([:])

    static func plugins(in directory: String, info: stat) -> Result<[String], ListingProblem> {
        let key = Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
                      modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                      changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
                      path: directory)
        if let names = kept.withLock({ $0[key] }) { return .success(names) }
        guard let stream = opendir(directory) else {
            return .failure(ListingProblem(description: String(cString: strerror(errno))))
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".so"), !name.hasPrefix(".") { names.append(name) }
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let newest = max(key.modified, key.changed)
        if Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - newest > 1_000_000_000 {
            kept.withLock { listings in
                if listings.count >= 256 { listings.removeAll() }
                listings[key] = names
            }
        }
        return .success(names)
    }

    struct ListingProblem: Error, CustomStringConvertible {
        var description: String
    }
}
