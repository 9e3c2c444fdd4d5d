import Foundation
import Logging
import HostModel
import HostIntents
import HostManifest
import HostDispatch
import PluginRuntime
import HostStorage
import StandFitHost

/// What `doctor` reports (its `--json` document, and the lines it prints).
extension Doctor {
    /// One problem: what it is about (`area`) and the sentence that says the fix.
    public struct Problem: Encodable, Sendable, Equatable {
        /// settings, state, registry-cache, plugin, plugin-data, trust, manifest, routine.
        public var area: String
        public var message: String
    }

    public struct Directory: Encodable, Sendable {
        public var role: String
        public var path: String
        public var exists: Bool
    }

    public struct Settings: Encodable, Sendable {
        public var file: String
        /// False when config.json does not parse: these are then the defaults the others would not run with.
        public var valid: Bool
        public var menuLimit: Int
        public var scanTimeout: Double
        public var handlerTimeout: Double
        public var requireTrusted: Bool
        public var sandbox: String
    }

    public struct Database: Encodable, Sendable {
        public var path: String
        /// SQLite's integrity check ("ok"), or nil when the file cannot be opened at all.
        public var integrity: String?
    }

    public struct Cache: Encodable, Sendable {
        public var path: String
        public var format: Int
        public var entries: Int
    }

    public struct SearchEntry: Encodable, Sendable {
        public var path: String
        /// directory, file or missing.
        public var kind: String
        public var bundled: Bool
    }

    public struct Plugin: Encodable, Sendable {
        public var id: String
        public var version: String
        public var types: Int
        /// in-process or worker.
        public var runs: String
        public var trusted: Bool
        public var path: String
        /// Each SQLite file in its data directory, with whether it passed SQLite's check.
        public var data: [DataFile]
        /// Its author's mistakes the host noticed (`PluginInfo.warnings`), in the run's language.
        public var warnings: [String]
    }

    public struct DataFile: Encodable, Sendable {
        public var path: String
        public var sound: Bool
    }

    public struct Refusal: Encodable, Sendable {
        public var path: String
        public var quarantined: Bool
        public var reason: String
    }

    public struct ManifestSummary: Encodable, Sendable {
        /// The file read, or nil when there is none (or it could not be read: see `problems`).
        public var path: String?
        public var items: Int
        public var fallbackType: String?
    }

    public struct RoutineSummary: Encodable, Sendable {
        public var type: String
        public var title: String
        public var steps: Int
    }

    public struct Pin: Encodable, Sendable {
        public var path: String
        /// matches, missing or changed.
        public var state: String
    }

    public struct Report: Encodable, Sendable {
        public var version: String
        public var executable: String
        /// Whether a warm server runs and how plugins run now (`DoctorCommand` says it).
        public var server: String?
        public var directories: [Directory] = []
        public var settings: Settings?
        public var state: Database?
        public var registryCache: Cache?
        public var searchPath: [SearchEntry] = []
        public var plugins: [Plugin] = []
        public var refused: [Refusal] = []
        public var manifest: ManifestSummary?
        public var routines: [RoutineSummary] = []
        public var trusted: [Pin] = []
        public var problems: [Problem] = []
        /// The text form, line by line.
        public var lines: [String] = []

        private enum CodingKeys: String, CodingKey {
            case version, executable, server, directories, settings, state, registryCache, searchPath, plugins, refused
            case manifest, routines, trusted, problems
        }
    }
}
