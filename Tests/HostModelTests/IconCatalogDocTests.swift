import Foundation
import HostModel
import Testing

/// The icon names docs/PLUGIN_GUIDE.md lists are the catalog's, generated from it: this test
/// fails when they differ, and rewrites the list with `STANDFIT_UPDATE_DOCS=1`.
@Suite("The icon catalog and the guide's list of it", .timeLimit(.minutes(10)))
struct IconCatalogDocTests {
    static let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/PLUGIN_GUIDE.md")
    static let begin = "<!-- icons:begin (generated from IconCatalog by IconCatalogDocTests; STANDFIT_UPDATE_DOCS=1 swift test --filter IconCatalogDocTests rewrites it) -->"
    static let end = "<!-- icons:end -->"

    /// The list as the guide shows it.
    static func rendered() -> String {
        var lines: [String] = []
        let variants = IconCatalog.symbolVariants.dropFirst().map { "`\($0)`" }
        lines.append("**SF Symbols.** Each name also answers with \(variants.dropLast().joined(separator: ", ")) and \(variants.last!) after it (`drop.fill`, `plus.circle`), and every `figure.…` symbol (`figure.run`, `figure.strengthtraining.traditional`) is an exercise: \(IconCatalog.exercise.glyph) in menus, `\(IconCatalog.exercise.themeName)` on the desktop.")
        lines.append("")
        lines.append("| SF Symbol | Menu | Desktop icon |")
        lines.append("|---|---|---|")
        for (name, entry) in IconCatalog.symbols.sorted(by: { $0.key < $1.key }) {
            lines.append("| `\(name)` | \(entry.glyph) | `\(entry.themeName)` |")
        }
        lines.append("")
        lines.append("**UIApplicationShortcutIconType.** As an iOS `Info.plist` names them (`UIApplicationShortcutItemIconType`).")
        lines.append("")
        lines.append("| Name | Menu | Desktop icon |")
        lines.append("|---|---|---|")
        for (name, entry) in IconCatalog.appleIcons.sorted(by: { $0.key < $1.key }) {
            lines.append("| `UIApplicationShortcutIconType\(name)` | \(entry.glyph) | `\(entry.themeName)` |")
        }
        lines.append("")
        lines.append("**freedesktop icon names** (the Icon Naming Specification's), used on the desktop as they are; the menu shows the glyph after each. A name that is also an SF Symbol (`phone`) is the SF Symbol.")
        lines.append("")
        lines.append(IconCatalog.themeIcons.sorted(by: { $0.key < $1.key }).map { "`\($0.key)` \($0.value)" }.joined(separator: " · "))
        return lines.joined(separator: "\n")
    }

    @Test("docs/PLUGIN_GUIDE.md lists exactly the names the catalog accepts")
    func guideListsTheCatalog() throws {
        let text = try String(contentsOf: Self.guide, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "the guide has no \(Self.begin) marker")
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex), "the guide has no \(Self.end) marker")
        let listed = String(text[start.upperBound..<stop.lowerBound]).trimmingCharacters(in: .newlines)
        let expected = Self.rendered()
        if listed != expected, ProcessInfo.processInfo.environment["STANDFIT_UPDATE_DOCS"] == "1" {
            let updated = text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: "\n\(expected)\n")
            try updated.write(to: Self.guide, atomically: true, encoding: .utf8)
            return
        }
        #expect(listed == expected, "docs/PLUGIN_GUIDE.md's icon list is not the catalog's; run STANDFIT_UPDATE_DOCS=1 swift test --filter IconCatalogDocTests")
    }

    @Test("every desktop icon a symbol or Apple type maps to is a freedesktop name the catalog accepts, with one glyph")
    func consistent() {
        for entry in Array(IconCatalog.symbols.values) + Array(IconCatalog.appleIcons.values) {
            #expect(IconCatalog.themeIcons[entry.themeName] != nil, "\(entry.themeName)")
        }
        // A name that is both ("phone": the SF Symbol is a handset, the freedesktop icon a
        // device) is the SF Symbol, as an app's Info.plist means it.
        for (name, glyph) in IconCatalog.themeIcons {
            #expect(glyph.count == 1, "\(name): \(glyph)")
            if IconCatalog.symbols[name] == nil { #expect(IconCatalog.themeName(for: name) == name) }
        }
    }

    @Test("what authors tried is accepted: real SF Symbols and freedesktop names")
    func authorsNames() {
        for name in ["face.smiling", "drop.fill", "timer", "clock", "star", "flame.fill", "plus.circle", "document-new",
                     "face-smile", "bell.fill", "cup.and.saucer.fill", "figure.run"] {
            #expect(IconCatalog.isKnown(name), "\(name)")
        }
        #expect(IconCatalog.themeName(for: "drop.fill") == "weather-showers")
        #expect(IconCatalog.glyph(for: "face-smile") == "🙂")
    }

    @Test("an unknown name gets the three closest known ones")
    func closest() {
        #expect(IconCatalog.closest(to: "drop.fil") == ["drop.fill", "drop", "doc.fill"])
        #expect(IconCatalog.closest(to: "smiling").first == "face.smiling")
        #expect(IconCatalog.closest(to: "Calender").first == "calendar")
    }
}
