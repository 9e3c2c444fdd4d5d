import CHostSystem
import Foundation
import HostModel

/// The warm server's vetting, kept between commands while nothing it rests on changed: the
/// plugin directories' listings and each file's verdict (`PluginVetting.vet`), for one search
/// path, set of bundled locations, pins and `requireTrusted`.
///
/// What a verdict rests on is watched with inotify before the verdict that is kept is made:
/// each search-path entry, each plugin file (by its path and its real path) and every
/// directory above them up to `/`. So a `chmod o+w` of a plugin or of any directory above it, a
/// file written, added, removed or renamed, or a directory moved, is an event queued by the
/// time the command that made it returns, and the next command finds it and vets again, as a
/// cold command would. A watched file's own watch sees a `chmod` made through another hard
/// link too. Only the events that concern the path are counted: of a directory above a plugin
/// directory, its own changes and those of the one entry on the way down (a file written in
/// the home directory does not count).
///
/// On a file system where changes can be made without the kernel seeing them (NFS, SMB, FUSE,
/// …: `remoteFileSystems`), nothing is kept: every command vets, as before.
///
/// Rationale: vetting a hundred plugins took a third of the warm server's time per command
/// (a `stat` of each file, the same checks again), and the verdicts may be kept only if any
/// change to what they checked is seen; inotify is the kernel's own way to be told of every
/// such change, where comparing `stat`s would still cost a `stat` per file per command.
/// Without inotify (none left, or a watch refused), nothing is kept and every command vets.
///
/// Rationale for `@unchecked Sendable`: its state is behind `lock`.
public final class VettingMemo: @unchecked Sendable {
    private struct Key: Hashable {
        var searchPath: [String]
        var bundledLocations: Set<String>
        var pins: [String: String]
        var requireTrusted: Bool
    }

    private struct Kept {
        var files: [VettedFile]
        /// What the vetting said (debug lines), said again when the verdicts are reused.
        var notes: [String]
    }

    /// What a watch is for: every change of the watched file or directory itself counts, and
    /// of its entries those named in `entries`, or all when nil.
    private struct Watch {
        var path: String
        var entries: Set<String>?
    }

    private let lock = NSLock()
    private var descriptor: Int32 = -1
    private var watches: [Int32: Watch] = [:]
    private var kept: [Key: Kept] = [:]

    /// About this many watches at most: past it they are all dropped before the next vetting
    /// makes its own.
    static let watchLimit = 2048

    public init() {}

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// `vetting.vet`, or the verdicts kept from an earlier command when nothing they rest on
    /// changed since.
    func vetted(_ vetting: PluginVetting, logger: (String) -> Void) -> [VettedFile] {
        let key = Key(searchPath: vetting.searchPath.map(\.path), bundledLocations: vetting.bundledLocations,
                      pins: vetting.pins, requireTrusted: vetting.requireTrusted)
        return lock.withLock {
            if changedSinceLastLook() { kept.removeAll() }
            if let known = kept[key] {
                known.notes.forEach(logger)
                return known.files
            }
            // Too many watches gathered: all dropped before this vetting's are made, never
            // between them.
            if watches.count >= Self.watchLimit { dropWatches() }
            var notes: [String] = []
            var files = vetting.vet { notes.append($0) }
            // Watched first, then vetted again: a change after the watches exist is an event,
            // and one before them is in the verdicts. A vetting that names a path not watched
            // yet (a file that came meanwhile) is watched and vetted once more.
            var watchedAll = false
            var covered: Set<String> = []
            let following = Set(vetting.searchPath.map(\.standardizedFileURL.path))
            var wanted = Self.paths(of: files, searchPath: vetting.searchPath)
            for _ in 0..<3 {
                guard let watched = watch(wanted, following: following) else { break }
                covered.formUnion(watched)
                notes = []
                files = vetting.vet { notes.append($0) }
                wanted = Self.paths(of: files, searchPath: vetting.searchPath)
                if wanted.allSatisfy({ covered.contains($0.path) }) {
                    watchedAll = true
                    break
                }
            }
            notes.forEach(logger)
            if watchedAll, covered.allSatisfy(Self.isLocal) {
                if kept.count >= 16 { kept.removeAll() }
                kept[key] = Kept(files: files, notes: notes)
            }
            return files
        }
    }

    /// The paths the verdicts of `files` rest on: each search-path entry and each file (as
    /// found and as resolved), each with the entry of its directory that leads to it; and
    /// every directory above them, each with the one entry on the way down.
    ///
    /// A search-path entry is watched as what it names (a symbolic link to a directory: that
    /// directory, whose every entry counts), and so is its real path; every other path is
    /// watched as itself (a link as the link, its target under its own real path).
    private static func paths(of files: [VettedFile], searchPath: [URL]) -> [(path: String, entries: Set<String>?)] {
        var wanted: [String: Set<String>?] = [:]
        func add(_ path: String, entries: Set<String>?) {
            wanted[path] = .some(wanted[path].map { union($0, entries) } ?? entries)
        }
        func addWithAncestors(_ path: String, entries: Set<String>?) {
            add(path, entries: entries)
            var child = path
            while child != "/" && !child.isEmpty {
                let parent = TrustCheck.parent(of: child)
                let name = String(child[child.index(after: child.lastIndex(of: "/") ?? child.startIndex)...])
                add(parent, entries: [name])
                child = parent
            }
        }
        for entry in searchPath {
            // A directory: every entry counts (a plugin added, removed or renamed).
            addWithAncestors(entry.standardizedFileURL.path, entries: nil)
            addWithAncestors(RealPath.of(entry.path), entries: nil)
        }
        for file in files {
            switch file {
            case .candidate(let candidate):
                addWithAncestors(candidate.path, entries: [])
                addWithAncestors(candidate.realPath, entries: [])
            case .refused(let refusal):
                addWithAncestors(refusal.path, entries: [])
            }
        }
        return wanted.map { (path: $0.key, entries: $0.value) }.sorted { $0.path < $1.path }
    }

    /// File systems whose changes made elsewhere (another machine, a FUSE daemon) inotify does
    /// not report (`statfs`'s `f_type`): NFS, SMB/CIFS (both), FUSE (sshfs, …), 9p, Ceph, AFS,
    /// Coda, GFS2 and OCFS2.
    static let remoteFileSystems: Set<Int> = [0x6969, 0x517B, 0xFE53_4D42, 0xFF53_4D42, 0x6573_5546, 0x0102_1997,
                                              0x00C3_6400, 0x5346_414F, 0x7375_7245, 0x0116_1970, 0x7461_636F]

    /// Whether a change at `path` is one inotify reports: it is on a local file system (a
    /// path that is not there is judged by its directory, which sees it come).
    private static func isLocal(_ path: String) -> Bool {
        var type: Int64 = 0
        guard standfit_file_system_type(path, &type) == 0 else { return errno == ENOENT || errno == ENOTDIR }
        return !remoteFileSystems.contains(Int(type))
    }

    /// What counts of a path watched for two reasons: nil (every entry) wins over a list.
    private static func union(_ one: Set<String>?, _ other: Set<String>?) -> Set<String>? {
        guard let one, let other else { return nil }
        return one.union(other)
    }

    /// Watches each of `paths` (under the lock): the paths now covered (watched, or not there
    /// and so seen coming by their directory's watch); nil when one that exists could not be
    /// watched (then nothing can be kept).
    private func watch(_ paths: [(path: String, entries: Set<String>?)], following: Set<String>) -> Set<String>? {
        if descriptor < 0 { descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        guard descriptor >= 0 else { return nil }
        var covered: Set<String> = []
        let mask = UInt32(IN_ATTRIB | IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
                          | IN_DELETE_SELF | IN_MOVE_SELF)
        for (path, entries) in paths {
            // The path itself, not what a symbolic link points to (the resolved path is watched
            // too), but for the search-path entries (`following`), watched as what they name.
            let watch = inotify_add_watch(descriptor, path, following.contains(path) ? mask : mask | UInt32(IN_DONT_FOLLOW))
            guard watch >= 0 else {
                // A path that is not there (a search-path entry not made yet) is watched
                // through its directory, which sees it come.
                if errno == ENOENT || errno == ENOTDIR {
                    covered.insert(path)
                    continue
                }
                return nil
            }
            covered.insert(path)
            // The same inode under two paths (a hard link, `..`) shares one watch: its entries
            // are the union.
            watches[watch] = Watch(path: watches[watch]?.path ?? path,
                                   entries: watches[watch].map { Self.union($0.entries, entries) } ?? entries)
        }
        return covered
    }

    private func dropWatches() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        watches.removeAll()
        kept.removeAll()
    }

    /// Reads every event queued since the last look (under the lock): whether one concerns a
    /// kept verdict.
    private func changedSinceLastLook() -> Bool {
        guard descriptor >= 0 else { return true }
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let length = Int(event.len)
                let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += header + length
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed = true
                    continue
                }
                guard let watch = watches[event.wd] else { continue }
                if event.mask & UInt32(IN_IGNORED) != 0 {
                    // Its file is gone (or the watch was dropped): whatever rested on it changed.
                    watches[event.wd] = nil
                    changed = true
                } else if name.isEmpty || watch.entries == nil || watch.entries!.contains(name) {
                    changed = true
                }
            }
        }
        return changed
    }
}
