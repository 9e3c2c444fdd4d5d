import Foundation
@testable import PluginRuntime
import Testing
import TestSupport

/// Swift plugins share the host's Swift runtime, so `plugins check` names a Swift plugin built
/// with another Swift (issue 32).
@Suite("A Swift plugin's Swift version", .timeLimit(.minutes(10)))
struct SwiftVersionTests {
    @Test("the host's Swift is the toolchain's that builds it")
    func hostSwift() throws {
        let swift = ["/opt/swift/usr/bin/swift", "/usr/bin/swift"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let path = try #require(swift ?? ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
            .map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) }, "no swift to ask")
        let version = runProcess(URL(fileURLWithPath: path), arguments: ["--version"])
        #expect(version.stdout.contains("Swift version \(PluginCheck.hostSwift) "), "\(version.stdout)")
        #expect(PluginCheck.hostToolchainCommit != nil)
    }

    @Test("a C plugin has nothing to say; a Swift plugin of this Swift neither; another Swift or toolchain is named with the fix")
    func warnings() throws {
        let c = try #require(ELFSymbols(path: Fixtures.cExamplePlugin.path))
        #expect(PluginCheck.swiftWarnings(c) == [])
        var swift = try #require(ELFSymbols(path: Fixtures.swiftExamplePlugin.path))
        #expect(swift.swiftCompiler == PluginCheck.hostSwift)
        #expect(PluginCheck.toolchainCommit(in: swift.comment) != nil)
        #expect(PluginCheck.swiftWarnings(swift) == [])
        let fix = "rebuild it with Swift \(PluginCheck.hostSwift), since Swift plugins share the host's Swift runtime and Swift has no stable ABI on Linux (docs/PLUGIN_GUIDE.md, \"Swift plugins\")."
        swift.swiftCompiler = "6.2.0"
        #expect(PluginCheck.swiftWarnings(swift) == ["It was built with Swift 6.2.0, but this host runs the Swift \(PluginCheck.hostSwift) runtime; \(fix)"])
        // Stripped of its debug information: the toolchain's compiler note decides.
        swift.swiftCompiler = nil
        #expect(PluginCheck.swiftWarnings(swift) == [])
        swift.comment = "clang version 17.0.0 (https://github.com/swiftlang/llvm-project.git 0123456789abcdef0123)"
        let host = try #require(PluginCheck.hostToolchainCommit)
        #expect(PluginCheck.swiftWarnings(swift) == ["It was built with another Swift toolchain (LLVM 0123456789ab) than this host's Swift \(PluginCheck.hostSwift) (LLVM \(host.prefix(12))); \(fix)"])
        swift.comment = ""
        #expect(PluginCheck.swiftWarnings(swift) == ["It is a Swift plugin whose Swift version cannot be told (no debug information, no compiler note); make sure it was built with Swift \(PluginCheck.hostSwift): \(fix)"])
    }
}
