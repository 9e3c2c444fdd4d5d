import Foundation
import HostModel
import HostStorage
import HostDispatch

/// Keeping the stored dynamic items current: providers are asked after their plugin handled
/// an action and on `refresh`; `dynamic set` and `dynamic clear` own the script list.
extension HostSession {
    /// What one refresh did, per provider.
    public struct RefreshReport: Sendable, Equatable {
        public var pluginID: String
        /// Items stored in the run's language, or nil when the provider failed.
        public var itemCount: Int?
        /// Why it failed, or what else happened.
        public var note: String?
    }

    /// Asks the providers of `pluginIDs` (all when nil) for their items and stores them, in the
    /// run's language and in every other language already stored for them. A provider that
    /// fails keeps its previous items. Providers whose plugin is gone are forgotten.
    @discardableResult
    public func refreshDynamicItems(of pluginIDs: [String]? = nil) -> [RefreshReport] {
        let (reports, changed) = storeProvidedItems(of: pluginIDs)
        if changed { afterRun.itemsChanged() }
        return reports
    }

    /// The stored dynamic items as they hold now, for a surface to show. Providers never asked
    /// (a fresh home), whose plugin changed version, or with an item that has expired
    /// (`standfit.item-lifetime/1`) are asked first, in the languages they answered in; an
    /// installed desktop file follows what changed. A provider that fails then keeps only its
    /// items that still hold (an empty answer of its version when it had none to keep), and is
    /// not asked again until its plugin runs or `refresh`; an expired item is never returned.
    func currentDynamicSources() throws(HostError) -> [DynamicSource] {
        var sources = try state.dynamicSources(language: language)
        let stored = Dictionary(sources.map { ($0.source, $0) }, uniquingKeysWith: { first, _ in first })
        let versions = Dictionary(plugins.plugins.map { ($0.id, $0.version) }, uniquingKeysWith: { first, _ in first })
        let due = plugins.providers.map(\.pluginID).filter { id in
            guard let source = stored[id] else { return true }
            // A plugin that changed version answers again rather than being pruned.
            if let version = source.pluginVersion, version != versions[id] { return true }
            return source.items.contains { $0.hasExpired(at: now) }
        }
        // One language per menu: a provider that answered only in other languages is asked in
        // this one (and kept current in it from then on), as one never asked would be.
        let mine = HostState.languageKey(language)
        let untranslated = plugins.providers.map(\.pluginID).filter { id in
            !due.contains(id) && stored[id].map { $0.language != nil && $0.language != mine } == true
        }
        if !untranslated.isEmpty {
            logger.debug("Asking the dynamic providers of \(untranslated.joined(separator: ", ")) in \(language): they answered in other languages only")
            let (reports, changed) = storeProvidedItems(of: untranslated, languages: .run)
            for report in reports where report.itemCount == nil {
                // Failing: an empty answer in this language, so it is not asked on every list.
                do throws(HostError) {
                    try state.replaceItems(source: report.pluginID, language: language, pluginVersion: versions[report.pluginID],
                                           items: [], at: request.wallClock)
                } catch {
                    logger.warning("\(error.message(in: self.language))")
                }
            }
            if changed || reports.contains(where: { $0.itemCount == nil }) {
                sources = try state.dynamicSources(language: language)
                if changed { afterRun.itemsChanged() }
            }
        }
        if !due.isEmpty {
            logger.debug("Asking the dynamic providers of \(due.joined(separator: ", ")): never asked, changed version, or an item expired")
            var (reports, changed) = storeProvidedItems(of: due, languages: .stored)
            for report in reports where report.itemCount == nil {
                do throws(HostError) {
                    // In every language at once, so no other language's session asks again.
                    if try state.removeItems(of: report.pluginID, expiredAt: now) > 0 { changed = true }
                    // Never asked, or its plugin changed version, and failing: an empty answer of
                    // this version, so it is not asked on every list (a run or refresh asks again).
                    let id = report.pluginID
                    if stored[id] == nil || stored[id]?.pluginVersion.map({ $0 != versions[id] }) == true {
                        let languages = try state.languages(of: id)
                        for stale in languages.isEmpty ? [language] : languages {
                            try state.replaceItems(source: id, language: stale, pluginVersion: versions[id], items: [], at: request.wallClock)
                        }
                        changed = true
                    }
                } catch {
                    logger.warning("\(error.message(in: self.language))")
                }
            }
            if changed {
                sources = try state.dynamicSources(language: language)
                afterRun.itemsChanged()
            }
        }
        return sources.map { source in
            var source = source
            source.items.removeAll { $0.hasExpired(at: now) }
            return source
        }
    }

    /// In which languages `storeProvidedItems` asks a provider.
    package enum ProvidedLanguages {
        /// The run's, then every other it has answered in.
        case runAndStored
        /// Those it has answered in (the run's only when none).
        case stored
        /// The run's alone.
        case run
    }

    /// Asks the providers and stores their answers; whether the stored items changed. Items
    /// that have expired already are not stored.
    package func storeProvidedItems(of pluginIDs: [String]?, languages asked: ProvidedLanguages = .runAndStored) -> (reports: [RefreshReport], changed: Bool) {
        var reports: [RefreshReport] = []
        var changed = false
        let versions = Dictionary(plugins.plugins.map { ($0.id, $0.version) }, uniquingKeysWith: { first, _ in first })
        for provider in plugins.providers where pluginIDs?.contains(provider.pluginID) ?? true {
            let id = provider.pluginID
            var languages = [language]
            do {
                let stored = try state.languages(of: id), mine = HostState.languageKey(language)
                switch asked {
                case .run: break
                case .stored where !stored.isEmpty && !stored.contains(mine): languages = stored
                case .stored, .runAndStored: languages = [language] + stored.filter { $0 != mine }
                }
            } catch {
                logger.warning("\(error.message(in: self.language))")
            }
            var report = RefreshReport(pluginID: id, itemCount: nil, note: nil)
            for (position, language) in languages.enumerated() {
                switch plugins.calls.provide(provider.pluginID, language) {
                case .success(var items):
                    items.removeAll { $0.hasExpired(at: now) }
                    do {
                        try state.replaceItems(source: id, language: language, pluginVersion: versions[id], items: items, at: request.wallClock)
                        changed = true
                        if position == 0 { report.itemCount = items.count }
                    } catch {
                        report.note = error.message(in: self.language)
                        logger.warning("\(error.message(in: self.language))")
                    }
                case .failure(let failure):
                    report.note = failure.message(in: self.language)
                    logger.warning("\(failure.message(in: self.language))")
                }
            }
            reports.append(report)
        }
        if pluginIDs == nil {
            changed = forgetGoneProviders(reports: &reports) || changed
        }
        return (reports, changed)
    }

    /// Replaces the script-owned dynamic list.
    public func setScriptItems(_ items: [ShortcutItem]) throws(HostError) {
        try state.replaceItems(source: HostState.scriptSource, language: "", pluginVersion: nil, items: items, at: request.wallClock)
        afterRun.itemsChanged()
    }

    /// Empties the script-owned dynamic list.
    public func clearScriptItems() throws(HostError) {
        try state.removeSource(HostState.scriptSource)
        afterRun.itemsChanged()
    }

    /// The after-run policy's hooks, wired to this session's state, providers and desktop file.
    var afterRun: AfterRun {
        let state = state, logger = logger, registry = plugins.registry, timeZone = request.timeZone
        return AfterRun(
            donate: { donation in
                // Runs of an action that is not suggestion material (undo) are not donated.
                if registry.handler(for: donation.type)?.suggestible == false { return }
                do throws(HostError) {
                    try state.donate(donation, minute: LocalMinute.of(donation.date, in: timeZone))
                } catch {
                    logger.warning("\(error.message(in: self.language))")
                }
            },
            withdraw: { pluginID, effects in
                do throws(HostError) {
                    let removed = try state.withdrawDonations(of: pluginID, effects: effects)
                    logger.debug("Plugin '\(pluginID)' undid \(effects.joined(separator: ", ")): \(removed) donated runs withdrawn")
                } catch {
                    logger.warning("\(error.message(in: self.language))")
                }
            },
            refresh: { storeProvidedItems(of: $0).changed },
            desktopInstalled: { options.desktop.isInstalled(self) },
            rewriteDesktop: {
                // Once, when the request is done (`DesktopRewrite`).
                DesktopRewrite.mark {
                    do throws(HostError) {
                        try options.desktop.update(self)
                    } catch {
                        logger.warning("\(error.message(in: self.language))")
                    }
                }
            },
            recordScheduled: { run in
                do throws(HostError) {
                    try state.recordScheduledRun(run)
                } catch {
                    logger.warning("\(error.message(in: self.language))")
                }
            })
    }

    private func forgetGoneProviders(reports: inout [RefreshReport]) -> Bool {
        let providing = Set(plugins.providers.map(\.pluginID))
        var changed = false
        do {
            for source in try state.dynamicSources(language: language)
            where source.source != HostState.scriptSource && !providing.contains(source.source) {
                try state.removeSource(source.source)
                reports.append(RefreshReport(pluginID: source.source, itemCount: 0,
                                             note: HostText(language: self.language)("refresh.gone")))
                changed = true
            }
        } catch {
            logger.warning("\(error.message(in: self.language))")
        }
        return changed
    }
}
