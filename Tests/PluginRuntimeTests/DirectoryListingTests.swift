import Foundation
@testable import PluginRuntime
import Testing
import TestSupport

/// A plugin directory's listing is kept between commands only while the directory is
/// unchanged, and never while a change could hide in the file system's clock tick.
@Suite("Plugin directory listings", .timeLimit(.minutes(10)))
struct DirectoryListingTests {
    static func names(_ directory: URL) -> [String] {
        var info = stat()
        guard stat(directory.path, &info) == 0, case .success(let names) = DirectoryListing.plugins(in: directory.path, info: info) else {
            Issue.record("\(directory.path) could not be listed")
            return []
        }
        return names
    }

    /// Sets the directory's modification time to a fixed one in 2023 (its change time becomes now).
    static func age(_ directory: URL) {
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, directory.path, &times, 0) == 0)
    }

    static func create(_ directory: URL, _ name: String) {
        #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data()))
    }

    @Test("plugins in byte order, hidden and other files left out; a file added, removed or renamed is seen at once")
    func seesEveryChange() throws {
        let directory = makeTemporaryDirectory("standfit-listing")
        for name in ["b.so", "a.so", ".hidden.so", "notes.txt", "Z.so"] { Self.create(directory, name) }
        #expect(Self.names(directory) == ["Z.so", "a.so", "b.so"])
        // Listed within the same second as the change: listed again next time, whatever the clock says.
        Self.create(directory, "c.so")
        #expect(Self.names(directory) == ["Z.so", "a.so", "b.so", "c.so"])
        try FileManager.default.removeItem(at: directory.appendingPathComponent("a.so"))
        #expect(Self.names(directory) == ["Z.so", "b.so", "c.so"])
        try FileManager.default.moveItem(at: directory.appendingPathComponent("b.so"), to: directory.appendingPathComponent("d.so"))
        #expect(Self.names(directory) == ["Z.so", "c.so", "d.so"])
    }

    @Test("a listing kept for an old directory gives way to a change, even one that puts the modification time back")
    func keptUntilChanged() throws {
        let directory = makeTemporaryDirectory("standfit-listing-kept")
        Self.create(directory, "a.so")
        // Its times a while back: the listing is kept (the change time is now, so wait it out).
        Self.age(directory)
        Thread.sleep(forTimeInterval: 1.2)
        #expect(Self.names(directory) == ["a.so"])
        #expect(Self.names(directory) == ["a.so"])
        // A file added and the modification time set back as it was: the change time still moved.
        Self.create(directory, "b.so")
        Self.age(directory)
        #expect(Self.names(directory) == ["a.so", "b.so"])
    }
}
