import CStandFitABI
import Foundation
import HostModel

/// `plugins check PATH`: what a plugin author runs before shipping. The plugin is vetted and
/// then loaded in a scan helper (never in the host), and the report says what it registered
/// and everything the host would warn about or refuse, each with the fix.
public struct PluginCheck: Sendable {
    public var path: String
    /// The language of the run: of the report, the refusal and the warnings.
    public var language = "en"
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
        let settings = catalog.settings
        var check = PluginCheck(path: path, language: settings.language)
        let text = HostText(language: settings.language)
        guard FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil else {
            check.refusal = text("check.noFile", ["path": path])
            return check
        }
        let candidate: PluginCandidate
        switch PluginVetting.vet(file: path, bundledLocations: settings.bundledLocations, pins: settings.pins) {
        case .failure(let refusal):
            check.refusal = refusal.sentence.text(text)
            return check
        case .success(let vetted):
            candidate = vetted
        }
        check.isTrusted = candidate.isTrusted
        check.sha256 = try? SealedImage.sha256(ofFile: candidate.realPath)
        let helper = ScanHelper(settings: settings, logger: catalog.logger)
        switch helper.scan([candidate]).first ?? nil {
        case nil:
            check.refusal = text("check.helperFailed", ["path": path])
        case .refused(let reason):
            check.refusal = reason.text(text)
        case .quarantined(let reason):
            check.refusal = reason.text(text)
            check.isQuarantined = true
        case .loaded(let record):
            check.record = record
            check.warnings = record.warnings.map { $0.text(text) } + warnings(for: record, text: text)
                + exportWarnings(file: candidate.realPath, text: text)
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
                                   language: language).map { $0.warning(in: language) }
    }

    /// Whether a Swift plugin was built with the host's Swift, what the file exports beside
    /// its entry function, and whether it is a Rust dylib crate.
    static func exportWarnings(file: String, text: HostText = HostText(language: "en")) -> [String] {
        guard let elf = ELFSymbols(path: file) else { return [] }
        return swiftWarnings(elf, text: text) + symbolWarnings(elf, text: text)
    }

    /// What the file exports beside its entry function.
    static func symbolWarnings(_ elf: ELFSymbols, text: HostText = HostText(language: "en")) -> [String] {
        let extra = elf.exported.filter { $0 != STANDFIT_ENTRY_SYMBOL && !ELFSymbols.linkerSymbols.contains($0) }
        if elf.sections.contains(".rustc") {
            return [text("check.rustDylib", ["entry": STANDFIT_ENTRY_SYMBOL])]
        }
        guard !extra.isEmpty else { return [] }
        let shown = extra.count > 5 ? extra.prefix(5).joined(separator: ", ") + ", …" : extra.joined(separator: ", ")
        return [text(extra.count == 1 ? "check.exports.one" : "check.exports.many",
                     ["count": "\(extra.count)", "entry": STANDFIT_ENTRY_SYMBOL, "symbols": shown])]
    }

    static func warnings(for record: PluginRecord, text: HostText = HostText(language: "en")) -> [String] {
        var warnings: [String] = []
        if record.initMilliseconds > slowInitMilliseconds {
            warnings.append(text("check.slowInit", ["milliseconds": String(format: "%.0f", record.initMilliseconds),
                                                    "limit": String(format: "%.0f", slowInitMilliseconds)]))
        }
        if record.actions.isEmpty {
            warnings.append(text("check.noActions"))
        }
        let titled = record.actions.map { ("action", $0.type, $0.title, $0.subtitle, $0.icon) }
            + record.staticItems.map { ("item", $0.type, $0.title, $0.subtitle, $0.icon) }
        for (what, type, title, subtitle, icon) in titled {
            // A title is the plugin's words, shown as menus show them: quoted with ".
            for shown in [title, subtitle].compactMap({ $0 }) where shown.count > longTitle {
                warnings.append(text("check.long\(shown == title ? "Title" : "Subtitle").\(what)", [
                    "type": type, "text": "\"\(shown)\"", "count": "\(shown.count)", "limit": "\(longTitle)",
                ]))
            }
            if let icon, !IconCatalog.isKnown(icon) {
                let closest = IconCatalog.closest(to: icon).joined(separator: ", ")
                warnings.append(text("check.unknownIcon.\(what)", ["type": type, "icon": "\"\(icon)\"", "closest": closest]))
            }
        }
        return warnings
    }

    /// The report, as lines of text, in the language of the check.
    public var textLines: [String] {
        let text = HostText(language: language)
        var lines = [text("check.plugin", ["path": path])]
        guard let record, refusal == nil else {
            lines.append("  \(text(isQuarantined ? "plugin.quarantined" : "plugin.refused")): \(refusal ?? "")")
            return lines
        }
        lines.append("  " + text("check.id", ["id": record.id, "version": record.version, "name": "\"\(record.name)\"",
                                              "abi": "\(record.abiMajor).\(record.abiMinor)"]))
        lines.append("  " + text("check.init", ["milliseconds": String(format: "%.1f", record.initMilliseconds)]))
        if let sha256 { lines.append("  sha256: \(sha256)") }
        lines.append("  " + text(isTrusted ? "check.runs.trusted" : "check.runs.worker"))
        if !record.programs.isEmpty {
            lines.append("  " + text("check.programs", ["programs": record.programs.joined(separator: ", ")]))
        }
        lines.append("  " + text("check.types"))
        for action in record.actions {
            let parameters = action.parameters.map { $0.signature(text) }.joined(separator: "; ")
            lines.append("    \(action.type) \"\(action.title)\"\(parameters.isEmpty ? "" : " (\(parameters))")")
            lines += Self.details(of: action, text: text).map { "      \($0)" }
        }
        if record.actions.isEmpty { lines.append("    " + text("check.none")) }
        if !record.entities.isEmpty {
            lines.append("  " + text("check.entities", ["entities": record.entities.map { "\($0.id) \"\($0.title)\"" }.joined(separator: ", ")]))
        }
        lines.append("  " + text(record.staticItems.isEmpty ? "check.staticItems.none" : "check.staticItems"))
        for item in record.staticItems {
            let userInfo = item.userInfo.isEmpty ? "" : " \(JSONValue.object(item.userInfo).jsonText)"
            lines.append("    \(item.type) \"\(item.title)\"\(userInfo)")
        }
        lines.append("  " + text(record.hasProvider ? "check.provider.yes" : "check.provider.no"))
        let types = text(record.actions.count == 1 ? "check.types.one" : "check.types.many", ["count": "\(record.actions.count)"])
        if warnings.isEmpty {
            lines.append(text("check.ok", ["id": record.id, "types": types]))
        } else {
            lines.append("  " + text("check.warnings"))
            lines += warnings.map { "    - \($0)" }
            let count = text(warnings.count == 1 ? "check.warnings.one" : "check.warnings.many", ["count": "\(warnings.count)"])
            lines.append(text("check.okWarned", ["id": record.id, "types": types, "warnings": count]))
        }
        return lines
    }
}

extension PluginCheck {
    /// What the one-line signature of an action leaves out: subtitle, icon, each parameter's
    /// question and values, its phrases, and whether it is suggested. (A plugin's words are
    /// quoted with ", as menus show them.)
    static func details(of action: ActionRecord, text: HostText = HostText(language: "en")) -> [String] {
        var lines: [String] = []
        if let subtitle = action.subtitle { lines.append(text("check.subtitle", ["subtitle": "\"\(subtitle)\""])) }
        if let icon = action.icon { lines.append(text("check.icon", ["icon": icon])) }
        for parameter in action.parameters {
            var facts: [String] = []
            if let range = parameter.range {
                facts.append(text("check.range", ["min": ClosedRange.text(range.lowerBound), "max": ClosedRange.text(range.upperBound)]))
            }
            if let prompt = parameter.prompt { facts.append(text("check.asks", ["prompt": "\"\(prompt)\""])) }
            switch parameter.domain {
            case .entity(let id)?: facts.append(text("check.entityValues", ["entity": id]))
            case .choices(let values)?:
                facts.append(text("check.oneOf", ["choices": values.map { value in
                    let names = [value.title] + value.synonyms
                    return "\(value.id) (\(names.joined(separator: ", ")))"
                }.joined(separator: ", ")]))
            case nil: break
            }
            if !facts.isEmpty { lines.append("\(parameter.name): \(facts.joined(separator: "; "))") }
        }
        if !action.phrases.isEmpty {
            lines.append(text("check.phrases", ["phrases": action.phrases.map {
                "\"\($0.template)\" (\($0.language ?? text("check.everyLanguage")))"
            }.joined(separator: ", ")]))
        }
        if !action.suggestible { lines.append(text("check.notSuggested")) }
        if action.confirms { lines.append(text("check.confirms")) }
        return lines
    }
}

extension ParameterSpec {
    /// "times: int = 1", "name: string, required", "note: string?"
    func signature(_ text: HostText) -> String {
        if let defaultValue { return "\(name): \(kind.name) = \(defaultValue.text)" }
        return required ? text("check.required", ["name": name, "kind": kind.name]) : "\(name): \(kind.name)?"
    }
}
