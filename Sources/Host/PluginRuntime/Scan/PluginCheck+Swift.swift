import CHostSystem
import HostModel

/// Swift plugins share the host's Swift runtime (the package carries it privately), which has
/// no stable ABI on Linux: a Swift plugin must be built with the Swift this host was built with.
extension PluginCheck {
    /// The Swift this host was built with, and whose runtime it loads Swift plugins into.
    /// (`SwiftVersionTests` holds it to the toolchain that builds the tests.)
    public static let hostSwift = "6.3.1"

    /// The LLVM commit of the toolchain the host was built with, from its clang's version
    /// ("21.0.0 (https://github.com/swiftlang/llvm-project.git 11673e66…)"); nil when it names none.
    static var hostToolchainCommit: String? { toolchainCommit(in: String(cString: standfit_toolchain_clang())) }

    /// The swiftlang LLVM commit a compiler's version string names.
    static func toolchainCommit(in text: String) -> String? {
        guard let range = text.range(of: "swiftlang/llvm-project.git ") else { return nil }
        let commit = text[range.upperBound...].prefix { $0.isHexDigit }
        return commit.count >= 7 ? String(commit) : nil
    }

    /// Why the Swift plugin `elf` cannot share this host's runtime, or what it must be built
    /// with when its build cannot be told; nothing for a plugin that is not written in Swift.
    static func swiftWarnings(_ elf: ELFSymbols, text: HostText = HostText(language: "en")) -> [String] {
        guard elf.sections.contains(where: { $0.hasPrefix("swift5_") }) else { return [] }
        let swift = ["swift": hostSwift, "rebuild": text("check.swift.rebuild", ["swift": hostSwift])]
        if let compiler = elf.swiftCompiler {
            return compiler == hostSwift ? [] : [text("check.swift.version", swift.merging(["compiler": compiler]) { $1 })]
        }
        let pluginCommit = toolchainCommit(in: elf.comment)
        if let pluginCommit, let host = hostToolchainCommit {
            return pluginCommit.hasPrefix(host) || host.hasPrefix(pluginCommit) ? []
                : [text("check.swift.toolchain", swift.merging(["plugin": String(pluginCommit.prefix(12)), "host": String(host.prefix(12))]) { $1 })]
        }
        return [text("check.swift.unknown", swift)]
    }
}
