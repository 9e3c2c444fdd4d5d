import Foundation
import PluginRuntime
import Testing
import TestSupport

/// What a sandboxed plugin's declared programs grant (`standfit.programs/1`): the files by their
/// real paths and the loader each names, never a directory, and nothing where a plugin can write.
@Suite("The sandbox's executable files", .timeLimit(.minutes(10)))
struct SandboxGrantTests {
    static func real(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    @Test("a declared program and its loader; a directory, a missing file or a file where a plugin can write grant nothing, nor their loader")
    func executables() throws {
        let loader = Self.real("/lib64/ld-linux-x86-64.so.2")
        #expect(Sandbox.Grant.executables(["/bin/true", "/bin/true"], writable: []) == [Self.real("/bin/true"), loader])
        #expect(Sandbox.Grant.executables(["/usr/bin", "/nonexistent/tool"], writable: []) == [])
        let writable = makeTemporaryDirectory("standfit-grant")
        let copy = writable.appendingPathComponent("true")
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: copy.path)
        #expect(Sandbox.Grant.executables([copy.path], writable: [writable.path]) == [])
        // Through a link from elsewhere, too: the real path counts.
        let link = makeTemporaryDirectory("standfit-grant-link").appendingPathComponent("true")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: copy.path)
        #expect(Sandbox.Grant.executables([link.path], writable: [writable.path]) == [])
    }
}
