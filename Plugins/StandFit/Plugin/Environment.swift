import Foundation
import PluginAPI
import StandFitCore
import Synchronization

/// Builds StandFit's app from what the host hands the plugin: the data directory, the
/// language, and the process's time zone and environment.
enum Environment {
    /// SwiftPM copies `Localization/` into this bundle directory beside the plugin library;
    /// install the two together.
    static let localizationPath = "standfit-host_StandFit.resources/Localization"

    /// The language of the run, for what `init` registers.
    static var hostLanguage: String { PluginHost.current?.language ?? "en" }

    /// What one process keeps once made: the opened log per data directory, and the strings
    /// table per language. A run calls the handler, then the provider, and perhaps an entity
    /// query; each would otherwise open and migrate the database and read the tables again.
    private struct Kept {
        var stores: [String: ExerciseStore] = [:]
        var strings: [String: LocalizedStrings] = [:]
    }

    private static let kept = Mutex(Kept())

    /// Closes the kept logs. Run at exit: SQLite folds its write-ahead log back into the
    /// database when the last connection closes, so no `-wal` or `-shm` file stays behind.
    private static func closeStores() {
        kept.withLock { kept in
            kept.stores.values.forEach { $0.close() }
            kept.stores = [:]
        }
    }

    static func text(language: String) -> StandFitText {
        let strings = kept.withLock { kept in
            if let strings = kept.strings[language] { return strings }
            let strings = LocalizedStrings(directory: PluginLibrary.resource(localizationPath), language: language)
            kept.strings[language] = strings
            return strings
        }
        return StandFitText(strings: strings,
                            calendar: StandFitClock.calendar(language: strings.language, timeZone: .current))
    }

    static func app(language: String) throws -> StandFitApp {
        guard let host = PluginHost.current else {
            throw StandFitError("StandFit was not initialised by a host; it runs only as a plugin of standfit-host.")
        }
        let directory = try host.dataDirectory
        let text = text(language: language)
        let clock = StandFitClock.live(language: text.strings.language, now: { host.now })
        let store = try kept.withLock { kept in
            if let store = kept.stores[directory.path] { return store }
            let store = try ExerciseStore(directory: directory)
            if kept.stores.isEmpty { atexit { Environment.closeStores() } }
            kept.stores[directory.path] = store
            return store
        }
        // The user's own exercises and names: one read of a small table per call.
        let settings = try store.exerciseSettings()
        var named = text
        let language = text.strings.languageCode.lowercased()
        named.ownNames = Dictionary(settings.compactMap { setting in setting.name(in: language).map { (setting.id, $0) } },
                                    uniquingKeysWith: { _, last in last })
        named.otherNames = Dictionary(settings.map { setting in
            (setting.id, ([setting.name].compactMap { $0 } + setting.names.values.sorted()).filter { $0 != named.ownNames[setting.id] })
        }, uniquingKeysWith: { _, last in last })
        return StandFitApp(store: store, clock: clock, text: named, catalogue: .standard.with(settings))
    }
}
