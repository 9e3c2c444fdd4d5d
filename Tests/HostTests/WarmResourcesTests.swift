import Foundation
import Logging
import StandFitHost
import Testing
import TestSupport
import HostModel
import HostStorage
@testable import PluginRuntime

/// What the warm server keeps between commands is right at every command: each entry is
/// checked against its file before it is used.
@Suite("Warm resources", .timeLimit(.minutes(10)), .needs(.sqlite3))
struct WarmResourcesTests {
    let warm = WarmResources(workers: WarmWorkers(limit: 1, idleTimeout: 60))

    @Test("config.json is parsed again whenever its bytes change, even at the same size and time stamp")
    func configFollowsTheFile() throws {
        let directory = makeTemporaryDirectory()
        let file = directory.appendingPathComponent("config.json")
        #expect(try warm.config(in: directory).menuLimit == HostConfig.defaultMenuLimit)
        try Data(#"{"menuLimit": 5}"#.utf8).write(to: file)
        #expect(try warm.config(in: directory).menuLimit == 5)
        let stamp = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        // Written in place, as long as before, with the time stamp put back.
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data(#"{"menuLimit": 7}"#.utf8))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: stamp as Any], ofItemAtPath: file.path)
        #expect(try warm.config(in: directory).menuLimit == 7)
        try Data(#"{"menuLimit": 0}"#.utf8).write(to: file)
        for _ in 0..<2 {
            #expect(throws: HostError.self) { try warm.config(in: directory) }
        }
        try FileManager.default.removeItem(at: file)
        #expect(try warm.config(in: directory).menuLimit == HostConfig.defaultMenuLimit)
    }

    @Test("the state is kept open while its file is the same, and opened afresh when the file was removed")
    func stateFollowsTheFile() throws {
        let directory = makeTemporaryDirectory()
        let first = try warm.state(in: directory)
        try first.setSetting("probe", "kept")
        #expect(try warm.state(in: directory).setting("probe") == "kept")
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: first.url.path + suffix)
        }
        let second = try warm.state(in: directory)
        #expect(try second.setting("probe") == nil)
        #expect(FileManager.default.fileExists(atPath: second.url.path))
    }

    @Test("remembered scans are used only while the registry cache has not changed since, and only for the same file and pin")
    func scansFollowTheRegistry() throws {
        let directory = makeTemporaryDirectory()
        let logger = Logger(label: "test")
        let cache = try #require(RegistryCache(directory: directory, logger: logger))
        let plugin = directory.appendingPathComponent("libprobe.so")
        try Data("not really a plugin".utf8).write(to: plugin)
        let candidate = PluginCandidate(path: plugin.path, realPath: plugin.path, identity: try #require(FileIdentity.of(plugin.path)),
                                        isBundled: false, pinnedSHA256: nil)
        let memo = ScanMemo()
        func known(_ candidate: PluginCandidate, _ language: String = "en") -> Int {
            memo.results(for: [candidate], language: language, cacheDirectory: directory,
                         registry: memo.version(in: directory)).count
        }
        let refused = ScanResult.refused(.verbatim("first answer"))
        let before = memo.version(in: directory)
        cache.store([(candidate, refused)], language: "en", at: Date(), logger: logger)
        memo.record([candidate.realPath: refused], for: [candidate], language: "en", cacheDirectory: directory,
                     readAt: before, commits: 1)
        #expect(known(candidate) == 1)
        #expect(known(candidate, "nl") == 0)
        var pinned = candidate
        pinned.pinnedSHA256 = String(repeating: "0", count: 64)
        #expect(known(pinned) == 0)
        // Another process stores an answer: the memo is dropped, whatever the file's time stamp.
        cache.store([(candidate, .refused(.verbatim("second answer")))], language: "en", at: Date(), logger: logger)
        #expect(known(candidate) == 0)
        // What a command read is not recorded when another process committed after it read.
        let readAt = memo.version(in: directory)
        cache.store([(candidate, .refused(.verbatim("third answer")))], language: "en", at: Date(), logger: logger)
        memo.record([candidate.realPath: refused], for: [candidate], language: "en", cacheDirectory: directory,
                    readAt: readAt, commits: 0)
        #expect(known(candidate) == 0)
        memo.record([candidate.realPath: refused], for: [candidate], language: "en", cacheDirectory: directory,
                    readAt: memo.version(in: directory), commits: 0)
        #expect(known(candidate) == 1)
        try cache.clear()
        #expect(known(candidate) == 0)
    }
}
