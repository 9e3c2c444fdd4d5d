import CHostSystem

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
    static func swiftWarnings(_ elf: ELFSymbols) -> [String] {
        guard elf.sections.contains(where: { $0.hasPrefix("swift5_") }) else { return [] }
        let rebuild = "rebuild it with Swift \(hostSwift), since Swift plugins share the host's Swift runtime and Swift has no stable ABI on Linux (docs/PLUGIN_GUIDE.md, \"Swift plugins\")"
        if let compiler = elf.swiftCompiler {
            return compiler == hostSwift ? [] : ["It was built with Swift \(compiler), but this host runs the Swift \(hostSwift) runtime; \(rebuild)."]
        }
        let pluginCommit = toolchainCommit(in: elf.comment)
        if let pluginCommit, let host = hostToolchainCommit {
            return pluginCommit.hasPrefix(host) || host.hasPrefix(pluginCommit) ? []
                : ["It was built with another Swift toolchain (LLVM \(pluginCommit.prefix(12))) than this host's Swift \(hostSwift) (LLVM \(host.prefix(12))); \(rebuild)."]
        }
        return ["It is a Swift plugin whose Swift version cannot be told (no debug information, no compiler note); make sure it was built with Swift \(hostSwift): \(rebuild)."]
    }
}
