import Foundation
@testable import StandFitHost
import Testing
import TestSupport
@testable import HostModel
@testable import HostManifest
@testable import HostSurfaces

/// Replays the fuzzers' seed corpora and every input a fuzzer once crashed on (`Fuzz/`) through
/// the same readers, so a crash found once stays fixed without building the fuzzers.
@Suite("Fuzz corpora and regressions", .timeLimit(.minutes(10)))
struct FuzzCorpusTests {
    static let fuzzDirectory = Fixtures.packageRoot.appendingPathComponent("Fuzz")

    /// The files of `Fuzz/corpus/<target>` and `Fuzz/regressions/<target>`.
    static func inputs(_ target: String) -> [URL] {
        ["corpus", "regressions"].flatMap { folder in
            let directory = fuzzDirectory.appendingPathComponent("\(folder)/\(target)")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.sorted().map { directory.appendingPathComponent($0) }
        }
    }

    /// An input as the coercion and desktop harnesses read it: text fields split at NUL bytes.
    static func fields(of input: URL) throws -> [String] {
        try Data(contentsOf: input).split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    let loader = ManifestLoader(expander: VariableExpander(defines: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.fuzz"]),
                                language: LanguagePreference(explicit: "en", environment: [:]))

    /// Reads `data` as the manifest at `path`: items with a type and title, or a refusal naming the file.
    func read(_ data: Data, path: String) {
        do {
            let document = try loader.decode(data, path: path)
            for (index, entry) in (document.shortcutItems ?? []).enumerated() {
                do {
                    let item = try loader.item(from: entry, index: index, strings: [], path: path)
                    #expect(!item.type.trimmingCharacters(in: .whitespaces).isEmpty)
                    #expect(!item.title.trimmingCharacters(in: .whitespaces).isEmpty)
                } catch {
                    #expect(error.message.contains(path))
                }
            }
        } catch {
            #expect(error.message.contains(path))
        }
    }

    @Test("every manifest input is read as a plist, as JSON and as .strings without a crash")
    func manifests() throws {
        let inputs = Self.inputs("manifest")
        #expect(inputs.count >= 10)
        for input in inputs {
            let data = try Data(contentsOf: input)
            read(data, path: "Fuzz/Info.plist")
            read(data, path: "Fuzz/manifest.json")
            do {
                _ = try StringsTable(data: data, path: "Fuzz/InfoPlist.strings")
            } catch {
                #expect(error.message.contains("Fuzz/InfoPlist.strings"))
            }
        }
    }

    @Test("a plist that is not UTF-8 is refused in words: Foundation's reader trapped on it")
    func plistNotUTF8() throws {
        let input = Self.fuzzDirectory.appendingPathComponent("regressions/manifest/plist-integer-not-utf8.plist")
        let data = try Data(contentsOf: input)
        do {
            _ = try loader.decode(data, path: "Info.plist")
            Issue.record("a plist that is not UTF-8 was read")
        } catch {
            #expect(error.message == "Info.plist is not valid UTF-8 text; save the property list as UTF-8 (or as a binary plist).")
            #expect(error.code == .manifestInvalid)
        }
        // A UTF-16 plist with its byte-order mark is still read.
        let utf16 = try #require("<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist version=\"1.0\"><dict/></plist>"
            .data(using: .utf16))
        #expect(try loader.decode(utf16, path: "Info.plist").shortcutItems == nil)
    }

    @Test("every coercion input: values read back from their own text, name=value splits losslessly")
    func coercion() throws {
        let inputs = Self.inputs("coercion")
        #expect(inputs.count >= 5)
        for input in inputs {
            let fields = try Self.fields(of: input)
            for text in fields.dropFirst() {
                for kind in [ParameterKind.int64, .double, .bool, .string] {
                    if let value = ArgumentCoercion.coerce(text, to: kind) {
                        #expect(ArgumentCoercion.coerce(value.text, to: kind) == value)
                    }
                }
                if let argument = NamedArgument(parsing: text) {
                    #expect(argument.name + "=" + argument.value == text)
                }
            }
            if let json = JSONValue(jsonText: fields[0]) {
                #expect(JSONValue(jsonText: json.jsonText)?.jsonText == json.jsonText)
            }
        }
    }

    @Test("every desktop input: Exec reads back as the argv, with no line break")
    func desktop() throws {
        let inputs = Self.inputs("desktop")
        #expect(inputs.count >= 4)
        for input in inputs {
            let argv = try Self.fields(of: input)
            let line = DesktopEntry.execLine(argv)
            #expect(!line.contains("\n") && !line.contains("\r"))
            let expected = argv.map { argument in
                String(String.UnicodeScalarView(argument.unicodeScalars.map {
                    DesktopEntry.isRepresentableInExec($0) ? $0 : "\u{FFFD}"
                }))
            }
            #expect(try DesktopExecParser.parse(line) == expected)
        }
    }
}
