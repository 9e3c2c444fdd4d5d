import HostModel

/// What `--dry-run` prints: the action and, for each parameter, its value and where it came from.
package enum DryRun {
    package static func describe(type: String, title: String, _ parameters: [ResolvedParameter], language: String) -> String {
        let text = HostText(language: language)
        var lines = [text("dryrun.header", ["title": title, "type": type])]
        if parameters.isEmpty { lines.append("  " + text("dryrun.none")) }
        let width = parameters.map(\.name.count).max() ?? 0
        for parameter in parameters {
            let name = parameter.name.padding(toLength: width, withPad: " ", startingAt: 0)
            guard let value = parameter.value, let source = parameter.source else {
                lines.append("  \(name) = \(text("dryrun.notSet"))")
                continue
            }
            var from = text("source.\(source.rawValue)")
            if let input = parameter.input { from += text("dryrun.from", ["input": input]) }
            let shown = parameter.title.map { "\(value) (\($0))" } ?? value
            lines.append("  \(name) = \(shown)  [\(from)]")
        }
        lines.append(text("dryrun.nothingRan"))
        return lines.joined(separator: "\n")
    }
}
