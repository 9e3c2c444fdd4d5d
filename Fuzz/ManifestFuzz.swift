// libFuzzer target: the manifest reader. Every input is read three ways, as an Info.plist, as a
// manifest.json and as an InfoPlist.strings table, through the host's own readers.
//
// Properties: reading never crashes; a refusal is a HostError whose one sentence names the
// file; an accepted item has a non-blank type and title; a table's entries are what it holds.
import Foundation
import HostModel

private let loader = ManifestLoader(
    expander: VariableExpander(defines: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.fuzz"], environment: [:]),
    language: LanguagePreference(explicit: "en", environment: [:]))

private func checkRefusal(_ error: HostError, names path: String) {
    check(!error.message.isEmpty, "an empty error for \(path)")
    check(error.message.contains(path), "the error does not name \(path): \(error.message)")
    check(!error.message.contains("\n") || error.message.contains(path), "a multi-line error: \(error.message)")
}

private func readManifest(_ data: Data, path: String) {
    do {
        let document = try loader.decode(data, path: path)
        for (index, entry) in (document.shortcutItems ?? []).enumerated() {
            do {
                let item = try loader.item(from: entry, index: index, strings: [], path: path)
                check(!item.type.trimmingCharacters(in: .whitespaces).isEmpty, "an item with a blank type")
                check(!item.title.trimmingCharacters(in: .whitespaces).isEmpty, "an item with a blank title")
            } catch {
                checkRefusal(error, names: path)
            }
        }
    } catch {
        checkRefusal(error, names: path)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    readManifest(data, path: "Fuzz/Info.plist")
    readManifest(data, path: "Fuzz/manifest.json")
    do {
        let table = try StringsTable(data: data, path: "Fuzz/en.lproj/InfoPlist.strings")
        check(table.entries.count <= count, "more entries than bytes")
    } catch {
        checkRefusal(error, names: "Fuzz/en.lproj/InfoPlist.strings")
    }
    return 0
}
