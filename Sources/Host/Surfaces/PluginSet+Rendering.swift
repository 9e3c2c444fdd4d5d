import HostModel
import PluginRuntime

/// `plugins`: what is loaded, what was refused and what is quarantined, as text and as JSON.
extension PluginSet {
    public struct Document: Encodable {
        public struct Plugin: Encodable {
            public var id, name, version, abi, path: String
            public var types: [String]
            public var trusted: Bool
            /// "in-process" or "worker".
            public var runs: String
            /// Its author's mistakes the host noticed, each a sentence with the fix.
            public var warnings: [String]
            /// The programs it declared it starts: all it may execute when sandboxed.
            public var programs: [String]
        }

        public struct Refused: Encodable {
            public var path, reason: String
        }

        public var plugins: [Plugin]
        public var refused: [Refused]
        public var quarantined: [Refused]
    }

    public var document: Document {
        Document(
            plugins: plugins.map {
                Document.Plugin(id: $0.id, name: $0.name, version: $0.version,
                                abi: "\($0.abiMajor).\($0.abiMinor)", path: $0.path, types: $0.types,
                                trusted: $0.isTrusted, runs: $0.runsInProcess ? "in-process" : "worker",
                                warnings: $0.warnings, programs: $0.programs)
            },
            refused: refusals.filter { !$0.isQuarantined }.map { Document.Refused(path: $0.path, reason: $0.reason) },
            quarantined: refusals.filter(\.isQuarantined).map { Document.Refused(path: $0.path, reason: $0.reason) })
    }

    public var textLines: [String] {
        var lines: [String] = []
        for plugin in plugins {
            lines.append("\(plugin.id) \(plugin.version) (ABI \(plugin.abiMajor).\(plugin.abiMinor)): \(plugin.name)")
            lines.append("  path: \(plugin.path)")
            lines.append("  types: \(plugin.types.isEmpty ? "none" : plugin.types.joined(separator: ", "))")
            lines.append("  runs: \(plugin.runsInProcess ? "in the host's process (trusted; in a worker when the warm server runs it)" : "in a worker process\(plugin.isTrusted ? " (trusted)" : "")")")
            if !plugin.programs.isEmpty { lines.append("  programs: \(plugin.programs.joined(separator: ", "))") }
            lines += plugin.warnings.map { "  warning: \($0)" }
        }
        for refusal in refusals {
            lines.append("\(refusal.isQuarantined ? "quarantined" : "refused"): \(refusal.path)")
            lines.append("  \(refusal.reason)")
        }
        return lines
    }
}
