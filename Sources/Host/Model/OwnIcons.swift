import Foundation

/// The host's own icon set: scalable SVGs in the hicolor theme (`Resources/icons/hicolor`), the
/// app, logging, streak, progress and one per StandFit exercise, each with a `-symbolic`
/// variant. Installed by the package under `/usr/share/icons`, by `Scripts/install` under its
/// prefix, and by `export desktop --install` under `$XDG_DATA_HOME/icons` when neither did; where
/// it is installed, the desktop file, notifications, rofi, KRunner and GNOME's search show these
/// icons for the SF Symbols they draw, and the theme's names (`IconCatalog`) everywhere else.
///
/// Per request: whether the set is installed depends on the request's data directories.
public struct OwnIcons: Sendable, Equatable {
    /// Whether the set is installed where the desktop looks (`$XDG_DATA_HOME`, `$XDG_DATA_DIRS`).
    public var installed: Bool

    public init(installed: Bool) {
        self.installed = installed
    }

    /// No own icons: the theme's names alone.
    public static let none = OwnIcons(installed: false)

    /// The application's icon: the host's desktop entry, and notifications without an item icon.
    public static let appIcon = "org.standfit.Host"

    /// The own icon for each SF Symbol the set draws.
    public static let symbols: [String: String] = {
        var table: [String: String] = [:]
        for name in ["plus.circle", "plus.circle.fill"] { table[name] = "org.standfit.Host.log" }
        for name in ["flame", "flame.fill"] { table[name] = "org.standfit.Host.streak" }
        for name in ["chart.bar", "chart.bar.fill"] { table[name] = "org.standfit.Host.progress" }
        let figures = [
            "figure.strengthtraining.functional": "squats", "figure.strengthtraining.traditional": "pushups",
            "figure.core.training": "plank", "figure.step.training": "lunges", "figure.stairs": "calfraises",
            "figure.flexibility": "stretching", "figure.mixed.cardio": "jumpingjacks", "figure.seated.side": "wallsit",
            "figure.highintensity.intervaltraining": "burpees", "figure.pilates": "situps",
        ]
        for (symbol, exercise) in figures { table[symbol] = "org.standfit.Host.exercise-\(exercise)" }
        return table
    }()

    /// Every icon of the set (without its `-symbolic` variant).
    public static var names: [String] { Array(Set(symbols.values)).sorted() + [appIcon] }

    /// The icon name a desktop surface shows for an item's `icon`: the set's own where it has
    /// one and is installed, else the theme's (`IconCatalog.themeName`); nil when unknown.
    public func themeName(for icon: String?) -> String? {
        if installed, let icon, let own = OwnIcons.symbols[icon] { return own }
        return IconCatalog.themeName(for: icon)
    }

    /// The icon for something with no item icon of its own (the app itself).
    public var fallback: String { installed ? OwnIcons.appIcon : OwnIcons.themeFallback }

    /// The theme's icon for the app when the set is not installed.
    public static let themeFallback = "applications-utilities"

    /// Where the set is looked for, in the icon theme specification's order: `$XDG_DATA_HOME`,
    /// then each of `$XDG_DATA_DIRS` (by default `/usr/local/share:/usr/share`).
    public static func dataDirectories(dataHome: URL, environment: [String: String]) -> [URL] {
        [dataHome] + XDGDirectories.systemData(environment: environment)
    }

    /// The app icon's file under a data directory: present when the set is installed there.
    public static func marker(in dataDirectory: URL) -> URL {
        dataDirectory.appendingPathComponent("icons/hicolor/scalable/apps/\(appIcon).svg")
    }

    /// The set as the request's data directories have it.
    public static func find(dataHome: URL, environment: [String: String]) -> OwnIcons {
        OwnIcons(installed: dataDirectories(dataHome: dataHome, environment: environment)
            .contains { access(marker(in: $0).path, R_OK) == 0 })
    }
}
