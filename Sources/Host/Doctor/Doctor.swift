import Foundation
import Logging
import HostModel
import HostIntents
import HostManifest
import HostDesktop
import HostDispatch
import PluginRuntime
import HostStorage
import StandFitHost

/// `doctor`: the state of every plugin, the cache, the state database, the settings, the
/// manifest, the routines and the permissions that decide what loads, on one screen, each
/// problem with its fix. It reads what every other command reads, but a file another command
/// stops at (a config.json or manifest that does not parse, a state database that is not one)
/// is a problem it lists, and it goes on with the rest.
public struct Doctor {
    /// Examines everything `options` describes. `server` is the line about the warm server.
    public static func examine(options: HostOptions, server: String?, logger: Logger) -> Report {
        var report = Report(version: HostTable.version, executable: options.executable.path, server: server)
        // In the run's language, plugins' refusals and warnings included.
        let preference = options.languagePreference
        let text = HostText(language: preference.language(fallback: nil))
        var lines: [String] = [text("doctor.host", ["version": HostTable.version, "path": options.executable.path])]
        if let server { lines.append(server) }
        func problem(_ area: String, _ message: String) {
            report.problems.append(Problem(area: area, message: message))
        }
        let paths = options.request.paths

        lines.append(text("doctor.directories"))
        for (role, url) in [("config", paths.configDirectory), ("data", paths.dataDirectory), ("cache", paths.cacheDirectory)] {
            let exists = FileManager.default.fileExists(atPath: url.path)
            report.directories.append(Directory(role: role, path: url.path, exists: exists))
            lines.append("  \(role): \(url.path)\(exists ? "" : text("doctor.notMadeYet"))")
        }

        // Settings: a config.json that does not parse stops every other command; here it is a
        // problem, and the rest is examined with the defaults.
        let configFile = paths.configDirectory.appendingPathComponent("config.json").path
        var config = HostConfig()
        var configValid = true
        do {
            config = try options.config(of: paths)
        } catch {
            configValid = false
            problem("settings", error.message(in: text.language))
        }
        for warning in config.unknownKeyWarnings(path: configFile, language: text.language) { problem("settings", warning) }

        // The state: one that cannot be opened stops every other command; here the plugins are
        // examined with an empty stand-in (so no pins), removed afterwards.
        let state: HostState
        // In the request's temporary directory (its TMPDIR), not the process's: in the warm
        // server they differ.
        let temporary = options.request.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let standIn = URL(fileURLWithPath: temporary, isDirectory: true).appendingPathComponent("standfit-doctor-\(UUID().uuidString)")
        var usesStandIn = false
        defer { if usesStandIn { try? FileManager.default.removeItem(at: standIn) } }
        do {
            state = try options.state(of: paths)
        } catch {
            let path = paths.dataDirectory.appendingPathComponent(HostState.fileName).path
            report.state = Database(path: path, integrity: nil)
            // A file that is no database (or a damaged one) is moved aside; anything else
            // (permissions, a read-only disk) has HostState's own sentence and fix.
            problem("state", HostState.isDamaged(error)
                ? text("doctor.stateDamaged", ["path": path, "cause": Doctor.cause(of: error, language: text.language)])
                : error.message(in: text.language))
            usesStandIn = true
            do {
                state = try HostState(directory: standIn)
            } catch {
                problem("state", error.message(in: text.language))
                report.lines = lines + Doctor.problemLines(report.problems, text)
                return report
            }
        }

        let catalog: PluginCatalog
        do {
            catalog = try HostSession.catalog(options: options, paths: paths, config: config, state: state, logger: logger)
        } catch {
            // Only the pins, which are in the state, can fail here.
            problem("state", error.message(in: text.language))
            report.lines = lines + Doctor.problemLines(report.problems, text)
            return report
        }
        let settings = catalog.settings
        let sandbox = settings.sandbox ? Sandbox.support.description(in: text.language)
            : text("doctor.sandboxOff")
        report.settings = Settings(file: configFile, valid: configValid, menuLimit: config.menuLimit, scanTimeout: config.scanTimeout,
                                   handlerTimeout: config.handlerTimeout, requireTrusted: settings.requireTrusted, sandbox: sandbox)
        lines.append(text(configValid ? "doctor.settings" : "doctor.settingsDefaults", ["path": configFile]))
        lines.append("  menuLimit \(config.menuLimit), scanTimeout \(Seconds.format(config.scanTimeout)) s, handlerTimeout \(Seconds.format(config.handlerTimeout)) s, requireTrusted \(settings.requireTrusted)")
        lines.append(text("doctor.sandbox", ["sandbox": sandbox]))

        if !usesStandIn {
            do {
                let check = try state.integrityCheck()
                report.state = Database(path: state.url.path, integrity: check)
                lines.append(text("doctor.state", ["path": state.url.path, "check": check]))
                if check != "ok" {
                    problem("state", text("doctor.stateIntegrity", ["path": state.url.path, "check": check]))
                }
            } catch {
                report.state = Database(path: state.url.path, integrity: nil)
                problem("state", error.message(in: text.language))
            }
        } else if let broken = report.state {
            lines.append(text("doctor.stateUnopened", ["path": broken.path]))
        }

        if let cache = catalog.cache {
            report.registryCache = Cache(path: cache.url.path, format: RegistryCache.formatVersion, entries: cache.entryCount())
            lines.append(text("doctor.cache", ["path": cache.url.path, "format": "\(RegistryCache.formatVersion)", "entries": "\(cache.entryCount())"]))
        } else {
            problem("registry-cache", text("doctor.cacheUnusable", ["path": paths.cacheDirectory.path]))
        }

        lines.append(text("doctor.searchPath"))
        let bundled = settings.bundledLocations
        for entry in settings.searchPath {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: entry.path, isDirectory: &isDirectory)
            let kind = !exists ? "missing" : isDirectory.boolValue ? "directory" : "file"
            let isBundled = bundled.contains(RealPath.of(entry.path))
            report.searchPath.append(SearchEntry(path: entry.path, kind: kind, bundled: isBundled))
            lines.append("  \(entry.path) (\(text("doctor.kind.\(kind)"))\(isBundled ? text("doctor.bundled") : ""))")
        }

        let loaded = catalog.load()
        let plugins = loaded.plugins
        lines.append(text("doctor.plugins", ["loaded": "\(plugins.plugins.count)", "refused": "\(plugins.refusals.filter { !$0.isQuarantined }.count)",
                                             "quarantined": "\(plugins.refusals.filter(\.isQuarantined).count)", "scanned": "\(loaded.scannedCount)"]))
        for plugin in plugins.plugins {
            let runs = plugin.runsInProcess ? "in-process" : "worker"
            lines.append(text(plugin.types.count == 1 ? "doctor.plugin.one" : "doctor.plugin.many", ["id": plugin.id, "version": plugin.version, "types": "\(plugin.types.count)", "runs": runs,
                                                "trusted": plugin.isTrusted ? text("doctor.trustedMark") : "", "path": plugin.path]))
            report.plugins.append(Plugin(id: plugin.id, version: plugin.version, types: plugin.types.count, runs: runs,
                                         trusted: plugin.isTrusted, path: plugin.path, data: [], warnings: plugin.warnings))
            lines += plugin.warnings.map { text("doctor.pluginWarning", ["warning": $0]) }
        }
        for (index, plugin) in plugins.plugins.enumerated() {
            let directory = paths.pluginDataDirectory(for: plugin.id)
            for finding in DatabaseHealth.check(directory: directory) {
                let sound = finding.verdict == "ok"
                report.plugins[index].data.append(DataFile(path: finding.url.path, sound: sound))
                lines.append(text("doctor.data", ["id": plugin.id, "path": finding.url.path, "verdict": text(sound ? "doctor.sound" : "doctor.damaged")]))
                if !sound {
                    problem("plugin-data", text("doctor.dataDamaged", ["id": plugin.id, "path": finding.url.path, "verdict": finding.verdict]))
                }
            }
        }
        for refusal in plugins.refusals {
            let reason = refusal.reason(in: text.language)
            report.refused.append(Refusal(path: refusal.path, quarantined: refusal.isQuarantined, reason: reason))
            lines.append("  \(text(refusal.isQuarantined ? "doctor.quarantined" : "doctor.refused")): \(refusal.path)")
            problem("plugin", reason)
        }

        // The manifest and the routines, read as every command that shows or runs items reads them.
        let loader = ManifestLoader(expander: VariableExpander(defines: options.defines, environment: options.environment),
                                    language: preference)
        var manifest = Manifest()
        let place = options.manifestPath.map { options.request.url(forPath: $0).path } ?? paths.configDirectory.path
        do {
            if let url = try ManifestLoader.locate(place, required: options.manifestPath != nil) {
                do {
                    manifest = try loader.load(url)
                } catch {
                    report.manifest = ManifestSummary(path: url.path, items: 0, fallbackType: nil)
                    lines.append(text("doctor.manifestUnreadable", ["path": url.path]))
                    problem("manifest", error.message(in: text.language))
                }
            }
        } catch {
            report.manifest = ManifestSummary(path: place, items: 0, fallbackType: nil)
            lines.append(text("doctor.manifestMissing", ["path": place]))
            problem("manifest", error.message(in: text.language))
        }
        /// An item of `path` whose icon menus would show as a plain bullet.
        func unknownIcon(_ area: String, _ path: String, _ item: ShortcutItem) {
            guard HostSession.iconIsUnknown(item), let icon = item.icon else { return }
            problem(area, text("doctor.unknownIcon", ["path": path, "type": item.type, "icon": icon,
                                                      "closest": IconCatalog.closest(to: icon).joined(separator: ", ")]))
        }
        if let path = manifest.path {
            for item in manifest.items { unknownIcon("manifest", path, item) }
            report.manifest = ManifestSummary(path: path, items: manifest.items.count, fallbackType: manifest.fallbackType)
            lines.append(text(manifest.items.count == 1 ? "doctor.manifest.one" : "doctor.manifest.many", ["path": path, "count": "\(manifest.items.count)"])
                         + (manifest.fallbackType.map { text("doctor.fallback", ["type": $0]) } ?? ""))
        } else if report.manifest == nil {
            report.manifest = ManifestSummary(path: nil, items: 0, fallbackType: nil)
            lines.append(text("doctor.manifestNone", ["path": paths.configDirectory.path]))
        }
        let read = RoutineLoader.load(directory: paths.configDirectory.appendingPathComponent("shortcuts"), registry: plugins.registry,
                                      language: text.language)
        report.routines = read.routines.map { RoutineSummary(type: $0.type, title: $0.title, steps: $0.steps.count) }
        for routine in read.routines { unknownIcon("routine", routine.file, routine.item) }
        lines.append(text("doctor.routines", ["path": paths.configDirectory.appendingPathComponent("shortcuts").path,
                                              "routines": read.routines.isEmpty ? text("doctor.none") : read.routines.map(\.type).joined(separator: ", ")]))
        for message in read.problems { problem("routine", message) }
        // A manifest item nothing runs is never shown: the menu prunes it, by the same rule.
        let staticTypes = Set(manifest.items.map(\.type))
        for item in manifest.items where !Dispatcher.runs(item.type, registry: plugins.registry, routines: read.routines, staticItemTypes: staticTypes) {
            problem("manifest", text("doctor.neverShown", ["title": item.title, "type": item.type, "path": manifest.path ?? ""]))
        }

        let pins = settings.pins.sorted { $0.key < $1.key }
        lines.append(text("doctor.trusted", ["count": pins.isEmpty ? text("doctor.none") : "\(pins.count)"]))
        for (path, pinned) in pins {
            let actual = try? SealedImage.sha256(ofFile: path)
            let verdict = actual == nil ? "missing" : actual == pinned ? "matches" : "changed"
            report.trusted.append(Pin(path: path, state: verdict))
            lines.append("  \(path): \(text("doctor.pin.\(verdict)"))")
            if actual == nil {
                problem("trust", text("doctor.pinGone", ["path": path]))
            } else if actual != pinned {
                problem("trust", text("doctor.pinChanged", ["path": path]))
            }
        }

        // The desktop integrations: half installed (one file without the other) or stale (a
        // file that starts a program that is gone).
        for found in DesktopInstallation.problems(paths: paths, state: state, environment: options.environment) {
            problem("desktop", Doctor.sentence(found, text))
        }

        report.lines = lines + Doctor.problemLines(report.problems, text)
        return report
    }

    /// The closing lines: "No problems found." or the count and each problem.
    static func problemLines(_ problems: [Problem], _ text: HostText) -> [String] {
        [problems.isEmpty ? text("doctor.noProblems") : text(problems.count == 1 ? "doctor.problems.one" : "doctor.problems.many", ["count": "\(problems.count)"])]
            + problems.map { "  - \($0.message)" }
    }

    /// What SQLite said ("file is not a database"), from a state error's cause.
    static func cause(of error: HostError, language: String) -> String {
        error.cause.map(HostState.describe) ?? error.message(in: language)
    }
}
