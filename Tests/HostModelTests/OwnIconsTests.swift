import Foundation
import HostModel
import Testing
import TestSupport

/// The host's own icon set: which names it gives, and where it counts as installed.
@Suite("The host's own icon set", .timeLimit(.minutes(10)))
struct OwnIconUnitTests {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Resources/icons/hicolor")

    @Test("installed, the SF Symbols it draws get its icons and everything else the theme's; not installed, the theme's alone")
    func names() {
        let own = OwnIcons(installed: true)
        #expect(own.themeName(for: "plus.circle.fill") == "org.standfit.Host.log")
        #expect(own.themeName(for: "flame.fill") == "org.standfit.Host.streak")
        #expect(own.themeName(for: "chart.bar.fill") == "org.standfit.Host.progress")
        #expect(own.themeName(for: "figure.pilates") == "org.standfit.Host.exercise-situps")
        #expect(own.themeName(for: "plus") == "list-add")
        #expect(own.themeName(for: "figure.run") == "emoji-activities")
        #expect(own.themeName(for: nil) == nil)
        #expect(own.fallback == "org.standfit.Host")
        #expect(OwnIcons.none.themeName(for: "plus.circle.fill") == "list-add")
        #expect(OwnIcons.none.fallback == "applications-utilities")
    }

    @Test("every icon the set names is in Resources/icons, scalable and symbolic, and nothing else is")
    func everyIconExists() throws {
        let scalable = try FileManager.default.contentsOfDirectory(atPath: Self.source.appendingPathComponent("scalable/apps").path).sorted()
        let symbolic = try FileManager.default.contentsOfDirectory(atPath: Self.source.appendingPathComponent("symbolic/apps").path).sorted()
        #expect(scalable == OwnIcons.names.map { "\($0).svg" }.sorted())
        #expect(symbolic == OwnIcons.names.map { "\($0)-symbolic.svg" }.sorted())
    }

    @Test("found under $XDG_DATA_HOME or any of $XDG_DATA_DIRS, by the app icon's file")
    func found() throws {
        let home = makeTemporaryDirectory("standfit-icons-home"), system = makeTemporaryDirectory("standfit-icons-system")
        let elsewhere = ["XDG_DATA_DIRS": "/nonexistent:\(system.path)"]
        #expect(OwnIcons.find(dataHome: home, environment: elsewhere) == .none)
        let marker = OwnIcons.marker(in: system)
        try FileManager.default.createDirectory(at: marker.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: marker.path, contents: Data("<svg/>".utf8)))
        #expect(OwnIcons.find(dataHome: home, environment: elsewhere) == OwnIcons(installed: true))
        #expect(OwnIcons.find(dataHome: home, environment: ["XDG_DATA_DIRS": "relative/only"]) == .none)
        #expect(OwnIcons.find(dataHome: system, environment: [:]) == OwnIcons(installed: true))
    }
}
