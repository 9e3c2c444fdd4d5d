import Foundation
import PluginAPI
import StandFitCore

/// Builds StandFit's app from what the host hands the plugin: the data directory, the
/// language, and the process's time zone and environment.
enum Environment {
    /// SwiftPM copies `Localization/` into this bundle directory beside the plugin library;
    /// install the two together.
    static let localizationPath = "standfit-host_StandFit.resources/Localization"

    /// The language of the run, for what `init` registers.
    static var hostLanguage: String { PluginHost.current?.language ?? "en" }

    static func text(language: String) -> StandFitText {
        let strings = LocalizedStrings(directory: PluginLibrary.resource(localizationPath), language: language)
        return StandFitText(strings: strings,
                            calendar: StandFitClock.calendar(language: strings.language, timeZone: .current))
    }

    static func app(language: String) throws -> StandFitApp {
        guard let directory = PluginHost.current?.dataDirectory else {
            throw StandFitError("StandFit has no data directory: the host could not create it (see the host's log above).")
        }
        let text = text(language: language)
        let clock = try StandFitClock.live(language: text.strings.language,
                                           environment: ProcessInfo.processInfo.environment)
        return StandFitApp(store: try ExerciseStore(directory: directory), clock: clock, text: text)
    }
}
