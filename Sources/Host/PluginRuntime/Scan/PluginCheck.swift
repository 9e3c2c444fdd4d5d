import CStandFitABI
import Foundation
import HostModel

/// `plugins check PATH`: what a plugin author runs before shipping. The plugin is vetted and
/// then loaded in a scan helper (never in the host), and the report says what it registered
/// and everything the host would warn about or refuse, each with the fix.
public struct PluginCheck: Sendable {
    public var path: String
    /// Why it cannot load, when it cannot (the sentence names the file and the fix).
    public var refusal: String?
    public var isQuarantined = false
    public var record: PluginRecord?
    public var sha256: String?
    public var isTrusted = false
    public var warnings: [String] = []

    /// `init` should be quicker than this (milliseconds): it runs before every menu a cold cache shows.
    public static let slowInitMilliseconds = 100.0
    /// Titles longer than this are cut short by menus (iOS shows about as much).
    public static let longTitle = 25

    public var loads: Bool { refusal == nil && record != nil }

    /// Checks the plugin at `path` as the catalog would load it.
    public static func run(path: String, catalog: PluginCatalog) -> PluginCheck {
        var check = PluginCheck(path: path)
        let settings = catalog.settings
        guard FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil else {
            check.refusal = "There is no file at \(path); give the path of the plugin's .so file."
            return check
        }
        let candidate: PluginCandidate
        switch PluginVetting.vet(file: path, bundledLocations: settings.bundledLocations, pins: settings.pins) {
        case .failure(let refusal):
            check.refusal = refusal.reason
            return check
        case .success(let vetted):
            candidate = vetted
        }
        check.isTrusted = candidate.isTrusted
        check.sha256 = try? SealedImage.sha256(ofFile: candidate.realPath)
        let helper = ScanHelper(settings: settings, logger: catalog.logger)
        switch helper.scan([candidate]).first ?? nil {
        case nil:
            check.refusal = "The scan helper could not run, so \(path) was not checked; run with --verbose to see why."
        case .refused(let reason):
            check.refusal = reason
        case .quarantined(let reason):
            check.refusal = reason
            check.isQuarantined = true
        case .loaded(let record):
            check.record = record
            check.warnings = record.warnings + warnings(for: record) + exportWarnings(file: candidate.realPath)
                + phraseWarnings(for: record, candidate: candidate, installed: catalog.load().plugins, language: settings.language)
        }
        return check
    }

    /// The plugin's phrases that the installed plugins' phrases already read (or that read
    /// theirs): the catalog would take them out. A plugin checked beside its installed copy
    /// is compared with the others only; its own entities answer nothing here (it is not
    /// loaded), which costs nothing, since a phrase is compared as words no entity knows.
    static func phraseWarnings(for record: PluginRecord, candidate: PluginCandidate, installed: PluginSet,
                               language: String) -> [String] {
        let actions = record.actions.filter { !$0.phrases.isEmpty }.map {
            RegisteredAction(type: $0.type, title: $0.title, parameters: $0.parameters, pluginID: record.id, phrases: $0.phrases)
        }
        guard !actions.isEmpty else { return [] }
        let mine = PluginSet.ownershipRank(bundled: candidate.isBundled, trusted: candidate.isTrusted)
        let owners = installed.plugins.filter {
            $0.id != record.id && PluginSet.ownershipRank(bundled: $0.isBundled, trusted: $0.isTrusted) <= mine
        }.map(\.id)
        var set = installed
        let installedQuery = installed.calls.query
        set.calls.query = { entity, query, locale in
            entity.pluginID == record.id ? .success([]) : installedQuery(entity, query, locale)
        }
        set.entities += record.entities.map { EntityProvider(record: $0, pluginID: record.id) }
        let info = PluginInfo(id: record.id, name: record.name, version: record.version, abiMajor: record.abiMajor,
                              abiMinor: record.abiMinor, path: candidate.path, types: [])
        return set.phraseConflicts(of: info, actions: actions,
                                   against: installed.registry.actions.filter { owners.contains($0.pluginID) },
                                   language: language).map(\.warning)
    }

    /// Whether a Swift plugin was built with the host's Swift, what the file exports beside
    /// its entry function, and whether it is a Rust dylib crate.
    static func exportWarnings(file: String) -> [String] {
        guard let elf = ELFSymbols(path: file) else { return [] }
        return swiftWarnings(elf) + symbolWarnings(elf)
    }

    /// What the file exports beside its entry function.
    static func symbolWarnings(_ elf: ELFSymbols) -> [String] {
        let extra = elf.exported.filter { $0 != STANDFIT_ENTRY_SYMBOL && !ELFSymbols.linkerSymbols.contains($0) }
        if elf.sections.contains(".rustc") {
            return ["It is a Rust crate built as crate-type \"dylib\", which exports Rust's own symbols besides \(STANDFIT_ENTRY_SYMBOL) for other Rust crates to link against; build it as crate-type = [\"cdylib\"] in the [lib] section of Cargo.toml."]
        }
        guard !extra.isEmpty else { return [] }
        let shown = extra.count > 5 ? extra.prefix(5).joined(separator: ", ") + ", …" : extra.joined(separator: ", ")
        return ["It exports \(extra.count) symbol\(extra.count == 1 ? "" : "s") besides \(STANDFIT_ENTRY_SYMBOL) (\(shown)), which can clash with other libraries' symbols; export only the entry: build C with -fvisibility=hidden and STANDFIT_EXPORT on the entry, Swift with the version script Plugins/plugin.exports, Rust as crate-type cdylib."]
    }

    static func warnings(for record: PluginRecord) -> [String] {
        var warnings: [String] = []
        if record.initMilliseconds > slowInitMilliseconds {
            warnings.append(String(format: "init took %.0f ms; keep it under %.0f ms (no I/O beyond the plugin's own files), since it runs whenever the plugin is scanned.",
                                   record.initMilliseconds, slowInitMilliseconds))
        }
        if record.actions.isEmpty {
            warnings.append("It registers no actions; register them with host->register_action inside init.")
        }
        let titled = record.actions.map { ("action \($0.type)", $0.title, $0.subtitle, $0.icon) }
            + record.staticItems.map { ("static item \($0.type)", $0.title, $0.subtitle, $0.icon) }
        for (what, title, subtitle, icon) in titled {
            for text in [title, subtitle].compactMap({ $0 }) where text.count > longTitle {
                warnings.append("The \(what) has the \(text == title ? "title" : "subtitle") \"\(text)\" of \(text.count) characters; menus show about \(longTitle), so shorten it.")
            }
            if let icon, !IconCatalog.isKnown(icon) {
                let closest = IconCatalog.closest(to: icon).joined(separator: ", ")
                warnings.append("The \(what) has the icon \"\(icon)\", which is not an SF Symbol, UIApplicationShortcutIconType or freedesktop icon name the host knows, so it shows as a plain bullet; the closest known names are \(closest) (docs/PLUGIN_GUIDE.md lists them all).")
            }
        }
        return warnings
    }

    /// The report, as lines of text.
    public var textLines: [String] {
        var lines = ["Plugin \(path)"]
        guard let record, refusal == nil else {
            lines.append("  \(isQuarantined ? "quarantined" : "refused"): \(refusal ?? "")")
            return lines
        }
        lines.append("  id: \(record.id) \(record.version) (\"\(record.name)\"), ABI \(record.abiMajor).\(record.abiMinor)")
        lines.append(String(format: "  init: %.1f ms", record.initMilliseconds))
        if let sha256 { lines.append("  sha256: \(sha256)") }
        lines.append("  runs: \(isTrusted ? "in the host's process (trusted)" : "in a worker process (not trusted; 'standfit-host plugins trust' pins it)")")
        if !record.programs.isEmpty {
            lines.append("  programs: \(record.programs.joined(separator: ", ")) (all it may execute when sandboxed)")
        }
        lines.append("  types:")
        for action in record.actions {
            let parameters = action.parameters.map(\.signature).joined(separator: "; ")
            lines.append("    \(action.type) \"\(action.title)\"\(parameters.isEmpty ? "" : " (\(parameters))")")
            lines += Self.details(of: action).map { "      \($0)" }
        }
        if record.actions.isEmpty { lines.append("    none") }
        if !record.entities.isEmpty {
            lines.append("  entities: " + record.entities.map { "\($0.id) \"\($0.title)\"" }.joined(separator: ", "))
        }
        lines.append("  static items:\(record.staticItems.isEmpty ? " none" : "")")
        for item in record.staticItems {
            let userInfo = item.userInfo.isEmpty ? "" : " \(JSONValue.object(item.userInfo).jsonText)"
            lines.append("    \(item.type) \"\(item.title)\"\(userInfo)")
        }
        lines.append("  dynamic provider: \(record.hasProvider ? "yes" : "no")")
        if warnings.isEmpty {
            lines.append("OK: \(record.id) loads, with \(record.actions.count) type\(record.actions.count == 1 ? "" : "s") and no warnings.")
        } else {
            lines.append("  warnings:")
            lines += warnings.map { "    - \($0)" }
            lines.append("OK with \(warnings.count) warning\(warnings.count == 1 ? "" : "s"): \(record.id) loads, with \(record.actions.count) type\(record.actions.count == 1 ? "" : "s").")
        }
        return lines
    }
}

extension PluginCheck {
    /// What the one-line signature of an action leaves out: subtitle, icon, each parameter's
    /// question and values, its phrases, and whether it is suggested.
    static func details(of action: ActionRecord) -> [String] {
        var lines: [String] = []
        if let subtitle = action.subtitle { lines.append("subtitle: \"\(subtitle)\"") }
        if let icon = action.icon { lines.append("icon: \(icon)") }
        for parameter in action.parameters {
            var facts: [String] = []
            if let range = parameter.range {
                facts.append("from \(ClosedRange.text(range.lowerBound)) to \(ClosedRange.text(range.upperBound))")
            }
            if let prompt = parameter.prompt { facts.append("asks \"\(prompt)\"") }
            switch parameter.domain {
            case .entity(let id)?: facts.append("values of entity \(id)")
            case .choices(let values)?:
                facts.append("one of " + values.map { value in
                    let names = [value.title] + value.synonyms
                    return "\(value.id) (\(names.joined(separator: ", ")))"
                }.joined(separator: ", "))
            case nil: break
            }
            if !facts.isEmpty { lines.append("\(parameter.name): \(facts.joined(separator: "; "))") }
        }
        if !action.phrases.isEmpty {
            lines.append("phrases: " + action.phrases.map { "\"\($0.template)\" (\($0.language ?? "every language"))" }.joined(separator: ", "))
        }
        if !action.suggestible { lines.append("not suggested: its runs are not donated") }
        return lines
    }
}

extension ParameterSpec {
    /// "times: int = 1", "name: string, required", "note: string?"
    var signature: String {
        if let defaultValue { return "\(name): \(kind.name) = \(defaultValue.text)" }
        return required ? "\(name): \(kind.name), required" : "\(name): \(kind.name)?"
    }
}
