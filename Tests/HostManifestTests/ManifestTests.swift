import Foundation
import Testing
import TestSupport
import HostModel
import HostManifest

@Suite("Static manifest", .timeLimit(.minutes(10)))
struct ManifestTests {
    let appleSample = Fixtures.url("ApplicationShortcuts/Info.plist")

    func load(_ url: URL, defines: [String: String] = ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.apple"],
              locale: String? = nil, environment: [String: String] = [:]) throws -> Manifest {
        let loader = ManifestLoader(
            expander: VariableExpander(defines: defines, environment: environment),
            language: LanguagePreference(explicit: locale, environment: environment))
        return try loader.load(url)
    }

    @Test("reads Apple's ApplicationShortcuts Info.plist verbatim, in English")
    func appleSampleInEnglish() throws {
        let manifest = try load(appleSample, locale: "en")
        #expect(manifest.items == [
            ShortcutItem(type: "com.example.apple.First", title: "Search", subtitle: "Search for an item",
                         icon: "UIApplicationShortcutIconTypeSearch",
                         userInfo: ["firstShorcutKey1": .string("firstShortcutKeyValue1")],
                         source: .static, origin: appleSample.path),
            ShortcutItem(type: "com.example.apple.Second", title: "Share", subtitle: "Share an \"item\"",
                         icon: "UIApplicationShortcutIconTypeShare",
                         userInfo: ["secondShortcutKey1": .string("secondShortcutKeyValue1"), "count": .int(3)],
                         source: .static, origin: appleSample.path),
        ])
        #expect(manifest.fallbackType == nil)
    }

    @Test("localizes from a UTF-16 nl.lproj table chosen by LANG")
    func dutchFromLang() throws {
        let manifest = try load(appleSample, environment: ["LANG": "nl_NL.UTF-8"])
        #expect(manifest.items.map(\.title) == ["Zoeken", "Delen"])
        #expect(manifest.items.map(\.subtitle) == ["Zoek een item", "Deel een \"item\" met één tik"])
    }

    @Test("--locale wins over LC_ALL, which wins over LANG")
    func localePrecedence() throws {
        #expect(try load(appleSample, locale: "en_GB", environment: ["LC_ALL": "nl_NL"]).items[0].title == "Search")
        #expect(try load(appleSample, environment: ["LC_ALL": "nl_BE.UTF-8", "LANG": "en_US"]).items[0].title == "Zoeken")
        #expect(try load(appleSample, environment: ["LC_MESSAGES": "nl", "LANG": "en_US"]).items[0].title == "Zoeken")
    }

    @Test("falls back to CFBundleDevelopmentRegion when the language has no table")
    func developmentRegionFallback() throws {
        let manifest = try load(appleSample, defines: ["PRODUCT_BUNDLE_IDENTIFIER": "x", "DEVELOPMENT_LANGUAGE": "en"],
                                environment: ["LANG": "de_DE.UTF-8"])
        #expect(manifest.items[0].title == "Search")
        #expect(manifest.developmentRegion == "en")
    }

    @Test("with no table for the language and no development region, Base.lproj; without that, the raw string")
    func baseFallback() throws {
        let directory = makeTemporaryDirectory("standfit-manifest-base")
        let manifest = directory.appendingPathComponent("Info.plist")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>UIApplicationShortcutItems</key><array>
            <dict><key>UIApplicationShortcutItemType</key><string>com.example.base.a</string>
            <key>UIApplicationShortcutItemTitle</key><string>TITLE_A</string></dict>
            <dict><key>UIApplicationShortcutItemType</key><string>com.example.base.b</string>
            <key>UIApplicationShortcutItemTitle</key><string>TITLE_B</string></dict>
            </array></dict></plist>
            """.utf8).write(to: manifest)
        let base = directory.appendingPathComponent("Base.lproj")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        try Data(#""TITLE_A" = "From Base";"#.utf8).write(to: base.appendingPathComponent("InfoPlist.strings"))
        // French has no table and the manifest names no development region.
        #expect(try load(manifest, locale: "fr").items.map(\.title) == ["From Base", "TITLE_B"])
    }

    @Test("the development region's $(DEVELOPMENT_LANGUAGE) must resolve when it is needed")
    func developmentRegionUnresolved() throws {
        let error = #expect(throws: HostError.self) { try load(appleSample, environment: ["LANG": "C"]) }
        #expect(error?.code == .variableUnresolved)
        #expect(error?.message == "\(appleSample.path): CFBundleDevelopmentRegion uses $(DEVELOPMENT_LANGUAGE), which is not defined; pass --define DEVELOPMENT_LANGUAGE=VALUE or set it in the environment.")
    }

    @Test("an unresolved $(VAR) in an item names the key path and the variable")
    func unresolvedVariable() throws {
        let error = #expect(throws: HostError.self) { try load(appleSample, defines: [:], locale: "en") }
        #expect(error?.message == "\(appleSample.path): UIApplicationShortcutItems[0].UIApplicationShortcutItemType uses $(PRODUCT_BUNDLE_IDENTIFIER), which is not defined; pass --define PRODUCT_BUNDLE_IDENTIFIER=VALUE or set it in the environment.")
    }

    @Test("--define wins over the environment, and userInfo strings expand too")
    func definesAndEnvironment() throws {
        let url = Fixtures.url("Manifests/examples.plist")
        let fromEnvironment = try load(url, defines: [:], environment: ["GREETEE": "Env"])
        #expect(fromEnvironment.items[0].title == "Greet Env")
        let defined = try load(url, defines: ["GREETEE": "Def"], environment: ["GREETEE": "Env"])
        #expect(defined.items[0].title == "Greet Def")
        #expect(defined.items[0].userInfo == ["name": .string("Def"), "times": .int(2)])
        #expect(defined.items[0].icon == "person.wave.2")
        #expect(defined.items[1].userInfo == ["km": .int(5), "minutes": .int(25)])
    }

    @Test("the same items written as JSON read the same, with a fallback type")
    func jsonManifest() throws {
        let url = Fixtures.url("Manifests/fallback.json")
        let manifest = try load(url, defines: [:])
        #expect(manifest.fallbackType == "com.fixture.kinds.fallback")
        #expect(manifest.items.map(\.type) == ["com.fixture.kinds.fallback", "com.fixture.kinds.echo"])
        #expect(manifest.items[1].userInfo == ["flag": .string("yes"), "number": .int(12), "text": .string("from manifest")])
    }

    @Test("malformed XML names the file and the line")
    func malformedPlist() throws {
        let url = Fixtures.url("Manifests/malformed.plist")
        let error = #expect(throws: HostError.self) { try load(url) }
        #expect(error?.code == .manifestInvalid)
        #expect(error?.message == "\(url.path) is not a valid property list file (close tag on line 8 does not match open tag string); fix the syntax there.")
    }

    @Test("malformed JSON names the file, the line and the column", arguments: [
        ("{\n  \"UIApplicationShortcutItems\": [\n    {\"UIApplicationShortcutItemType\": \"a.b\" \"UIApplicationShortcutItemTitle\": \"T\"}\n  ]\n}\n",
         "invalid value at line 3, column 45"),
        ("{\"UIApplicationShortcutItems\": [{\"UIApplicationShortcutItemTitle\": \"Ünïcödé\", x}]}", "invalid value at line 1, column 79"),
        ("{\n", "unexpected end of file during JSON parse at line 2, column 1"),
    ])
    func malformedJSON(json: String, detail: String) throws {
        let url = makeTemporaryDirectory().appendingPathComponent("manifest.json")
        try Data(json.utf8).write(to: url)
        let error = #expect(throws: HostError.self) { try load(url) }
        #expect(error?.code == .manifestInvalid)
        #expect(error?.message == "\(url.path) is not a valid JSON file (\(detail)); fix the syntax there.")
    }

    @Test("a value of the wrong type names the key path")
    func wrongType() throws {
        let url = Fixtures.url("Manifests/wrong-type.json")
        let error = #expect(throws: HostError.self) { try load(url) }
        #expect(error?.message == "\(url.path): UIApplicationShortcutItems[1].UIApplicationShortcutItemTitle should be a string; expected to decode String but found number instead.")
    }

    @Test("an item without a title is refused with its index")
    func missingTitle() throws {
        let directory = makeTemporaryDirectory()
        let url = directory.appendingPathComponent("manifest.json")
        try Data(#"{"UIApplicationShortcutItems": [{"UIApplicationShortcutItemType": "a.b"}]}"#.utf8).write(to: url)
        let error = #expect(throws: HostError.self) { try load(url) }
        #expect(error?.message == "\(url.path): UIApplicationShortcutItems[0] has no UIApplicationShortcutItemTitle; every shortcut item needs a type and a title.")
    }

    @Test("a missing --manifest path is an error; a missing default is an empty manifest")
    func locate() throws {
        let missing = "/nonexistent/standfit/Info.plist"
        let error = #expect(throws: HostError.self) { try ManifestLoader.locate(missing, required: true) }
        #expect(error?.code == .manifestNotFound)
        #expect(try ManifestLoader.locate(missing, required: false) == nil)
        let directory = Fixtures.url("ApplicationShortcuts").path
        #expect(try ManifestLoader.locate(directory, required: true)?.lastPathComponent == "Info.plist")
    }
}

@Suite("Strings tables and variables", .timeLimit(.minutes(10)))
struct StringsAndVariablesTests {
    @Test("comments, unquoted keys and escapes parse as Apple's format allows")
    func stringsSyntax() throws {
        let text = """
            /* block comment */
            // line comment
            "quoted" = "a \\"b\\" \\\\ c";
            bare = "line\\nbreak";
            "unicode" = "caf\\U00e9";
            """
        let table = try StringsTable(entries: parse(text))
        #expect(table.entries == ["quoted": "a \"b\" \\ c", "bare": "line\nbreak", "unicode": "café"])
    }

    @Test("a broken table names its file")
    func brokenTable() throws {
        let directory = makeTemporaryDirectory()
        let url = directory.appendingPathComponent("InfoPlist.strings")
        try Data(#""a" = "b""#.utf8).write(to: url)
        let error = #expect(throws: HostError.self) { try StringsTable(contentsOf: url) }
        #expect(error?.code == .stringsInvalid)
        #expect(error?.message.hasPrefix("\(url.path) is not a valid .strings table (") == true)
    }

    func parse(_ text: String) throws -> [String: String] {
        let directory = makeTemporaryDirectory()
        let url = directory.appendingPathComponent("InfoPlist.strings")
        try Data(text.utf8).write(to: url)
        return try StringsTable(contentsOf: url).entries
    }

    @Test("$(NAME), $(NAME:modifier), $$ and text without references", arguments: [
        ("$(A).x", "alpha.x"),
        ("$(A:rfc1034identifier)", "alpha"),
        ("cost: $$5", "cost: $5"),
        ("plain", "plain"),
        ("$(A)$(B)", "alphabeta"),
        ("trailing $", "trailing $"),
        ("$(unclosed", "$(unclosed"),
    ])
    func expansion(input: String, expected: String) throws {
        let expander = VariableExpander(defines: ["A": "alpha"], environment: ["B": "beta", "A": "ignored"])
        #expect(try expander.expand(input).get() == expected)
    }

    @Test("the first unresolved name is reported")
    func unresolved() {
        let expander = VariableExpander()
        guard case .failure(let unresolved) = expander.expand("$(MISSING).$(OTHER)") else {
            Issue.record("expected a failure")
            return
        }
        #expect(unresolved.name == "MISSING")
    }

    @Test("POSIX locales become .lproj names", arguments: [
        ("nl_NL.UTF-8", ["nl_NL", "nl-NL", "nl"]),
        ("pt-BR", ["pt-BR", "pt_BR", "pt"]),
        ("de_DE@euro", ["de_DE", "de-DE", "de"]),
        // A script modifier keeps the script (Serbian in Latin letters is not Cyrillic Serbian).
        ("sr_RS@latin", ["sr_Latn", "sr-Latn", "sr"]),
        ("sr@latin", ["sr_Latn", "sr-Latn", "sr"]),
        ("uz_UZ.UTF-8@cyrillic", ["uz_Cyrl", "uz-Cyrl", "uz"]),
        ("en", ["en"]),
        ("C", []),
        ("POSIX", []),
        ("", []),
    ])
    func lprojNames(locale: String, expected: [String]) {
        #expect(LanguagePreference(explicit: nil, environment: ["LANG": locale]).userLprojNames == expected)
    }
}
