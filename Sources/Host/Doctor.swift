import Foundation
import HostModel
import PluginRuntime
import HostStorage

/// `doctor`: the state of every plugin, the cache, the state database, the settings and the
/// permissions that decide what loads, on one screen, each problem with its fix.
public struct Doctor {
    public struct Report: Encodable {
        public var lines: [String]
        public var problems: [String]
    }

    public static func examine(_ context: PluginContext, options: HostOptions) -> Report {
        var lines: [String] = []
        var problems: [String] = []
        let paths = context.paths
        let settings = context.catalog.settings
        lines.append("standfit-host \(HostTable.version) at \(options.executable.path)")

        lines.append("Directories:")
        for (label, url) in [("config", paths.configDirectory), ("data", paths.dataDirectory), ("cache", paths.cacheDirectory)] {
            let exists = FileManager.default.fileExists(atPath: url.path)
            lines.append("  \(label): \(url.path)\(exists ? "" : " (not made yet)")")
        }

        let config = context.config
        lines.append("Settings (\(paths.configDirectory.appendingPathComponent("config.json").path)):")
        lines.append("  menuLimit \(config.menuLimit), scanTimeout \(Seconds.format(config.scanTimeout)) s, handlerTimeout \(Seconds.format(config.handlerTimeout)) s, requireTrusted \(settings.requireTrusted)")

        if settings.sandbox {
            lines.append("Sandbox for untrusted plugins: \(Sandbox.support.description)")
        } else {
            lines.append("Sandbox for untrusted plugins: off (\"sandbox\": false in config.json); they run in worker processes with the user's rights")
        }

        do {
            let check = try context.state.integrityCheck()
            lines.append("State: \(context.state.url.path): integrity \(check)")
            if check != "ok" {
                problems.append("The host's state \(context.state.url.path) fails its integrity check (\(check)); move it aside to start afresh.")
            }
        } catch {
            problems.append(error.message)
        }

        if let cache = context.catalog.cache {
            lines.append("Registry cache: \(cache.url.path): format \(RegistryCache.formatVersion), \(cache.entryCount()) entries")
        } else {
            problems.append("The registry cache in \(paths.cacheDirectory.path) cannot be used; plugins are scanned on every run. Check that the directory is writable.")
        }

        lines.append("Plugin search path:")
        let bundled = settings.bundledLocations
        for entry in settings.searchPath {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: entry.path, isDirectory: &isDirectory)
            let kind = !exists ? "missing" : isDirectory.boolValue ? "directory" : "file"
            lines.append("  \(entry.path) (\(kind)\(bundled.contains(RealPath.of(entry.path)) ? ", bundled with the host" : ""))")
        }

        let loaded = context.catalog.load()
        lines.append("Plugins: \(loaded.plugins.plugins.count) loaded, \(loaded.plugins.refusals.filter { !$0.isQuarantined }.count) refused, \(loaded.plugins.refusals.filter(\.isQuarantined).count) quarantined (\(loaded.scannedCount) scanned now, the rest from the cache)")
        for plugin in loaded.plugins.plugins {
            let runs = plugin.runsInProcess ? "in-process" : "worker"
            lines.append("  ok: \(plugin.id) \(plugin.version), \(plugin.types.count) type\(plugin.types.count == 1 ? "" : "s"), runs \(runs)\(plugin.isTrusted ? ", trusted" : ""): \(plugin.path)")
        }
        for plugin in loaded.plugins.plugins {
            let directory = paths.pluginDataDirectory(for: plugin.id)
            for finding in DatabaseHealth.check(directory: directory) {
                lines.append("  data of \(plugin.id): \(finding.url.path): \(finding.verdict == "ok" ? "sound" : "DAMAGED")")
                if finding.verdict != "ok" {
                    problems.append("The data of plugin '\(plugin.id)' in \(finding.url.path) fails SQLite's check (\(finding.verdict)); restore it from a backup, or move it aside to start afresh (the plugin then starts with no data).")
                }
            }
        }
        for refusal in loaded.plugins.refusals {
            lines.append("  \(refusal.isQuarantined ? "quarantined" : "refused"): \(refusal.path)")
            problems.append(refusal.reason)
        }

        let pins = settings.pins.sorted { $0.key < $1.key }
        lines.append("Trusted (pinned) plugins: \(pins.isEmpty ? "none" : "\(pins.count)")")
        for (path, pinned) in pins {
            let actual = try? SealedImage.sha256(ofFile: path)
            let state = actual == nil ? "missing" : actual == pinned ? "matches its pin" : "CHANGED since it was trusted"
            lines.append("  \(path): \(state)")
            if actual == nil {
                problems.append("The trusted plugin \(path) is gone; run 'standfit-host plugins untrust \(path)' to forget it.")
            } else if actual != pinned {
                problems.append("The trusted plugin \(path) changed since it was trusted, so it does not load; check it, then run 'standfit-host plugins trust \(path)' again.")
            }
        }

        lines.append(problems.isEmpty ? "No problems found." : "\(problems.count) problem\(problems.count == 1 ? "" : "s"):")
        lines += problems.map { "  - \($0)" }
        return Report(lines: lines, problems: problems)
    }
}
