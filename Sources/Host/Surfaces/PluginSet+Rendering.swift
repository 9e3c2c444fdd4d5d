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
            /// Its author's mistakes the host noticed, each a sentence with the fix, in the run's language.
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

    /// The document, its sentences in `language`.
    public func document(language: String = "en") -> Document {
        Document(
            plugins: plugins.map {
                Document.Plugin(id: $0.id, name: $0.name, version: $0.version,
                                abi: "\($0.abiMajor).\($0.abiMinor)", path: $0.path, types: $0.types,
                                trusted: $0.isTrusted, runs: $0.runsInProcess ? "in-process" : "worker",
                                warnings: $0.warnings, programs: $0.programs)
            },
            refused: refusals.filter { !$0.isQuarantined }.map { Document.Refused(path: $0.path, reason: $0.reason(in: language)) },
            quarantined: refusals.filter(\.isQuarantined).map { Document.Refused(path: $0.path, reason: $0.reason(in: language)) })
    }

    /// What `plugins` shows, in `language`.
    public func textLines(language: String = "en") -> [String] {
        let text = HostText(language: language)
        var lines: [String] = []
        for plugin in plugins {
            lines.append("\(plugin.id) \(plugin.version) (ABI \(plugin.abiMajor).\(plugin.abiMinor)): \(plugin.name)")
            lines.append("  " + text("plugin.list.path", ["path": plugin.path]))
            lines.append("  " + (plugin.types.isEmpty ? text("plugin.list.noTypes")
                                    : text("plugin.list.types", ["types": plugin.types.joined(separator: ", ")])))
            let runs = plugin.runsInProcess ? "plugin.list.runs.inProcess" : plugin.isTrusted ? "plugin.list.runs.trustedWorker" : "plugin.list.runs.worker"
            lines.append("  " + text(runs))
            if !plugin.programs.isEmpty { lines.append("  " + text("plugin.list.programs", ["programs": plugin.programs.joined(separator: ", ")])) }
            lines += plugin.warnings.map { "  " + text("plugin.list.warning", ["warning": $0]) }
        }
        for refusal in refusals {
            lines.append("\(text(refusal.isQuarantined ? "plugin.quarantined" : "plugin.refused")): \(refusal.path)")
            lines.append("  \(refusal.reason(in: language))")
        }
        return lines
    }
}
