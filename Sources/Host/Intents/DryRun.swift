import HostModel

/// What `--dry-run` prints: the action and, for each parameter, its value and where it came from.
package enum DryRun {
    package static func describe(type: String, title: String, _ parameters: [ResolvedParameter]) -> String {
        var lines = ["\(title) (\(type)) would run with:"]
        if parameters.isEmpty { lines.append("  no parameters") }
        let width = parameters.map(\.name.count).max() ?? 0
        for parameter in parameters {
            let name = parameter.name.padding(toLength: width, withPad: " ", startingAt: 0)
            guard let value = parameter.value, let source = parameter.source else {
                lines.append("  \(name) = (not set)")
                continue
            }
            var from = source.rawValue
            if let input = parameter.input { from += ", from “\(input)”" }
            let shown = parameter.title.map { "\(value) (\($0))" } ?? value
            lines.append("  \(name) = \(shown)  [\(from)]")
        }
        lines.append("Nothing ran (--dry-run).")
        return lines.joined(separator: "\n")
    }
}
