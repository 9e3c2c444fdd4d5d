import Foundation
import HostModel
import Testing

/// `JSONValue` decodes every kind to its own case, from JSON text and from property lists
/// alike, whatever order the decoder tries the kinds in.
@Suite("JSON values", .timeLimit(.minutes(10)))
struct JSONValueTests {
    @Test("from JSON: null, strings, integers, doubles, booleans, arrays and objects, nested")
    func fromJSON() {
        let text = #"{"a": null, "b": "1", "c": 1, "d": 1.5, "e": true, "f": false, "g": [1, "x", [false]], "h": {"i": {"j": 2}}, "k": "true"}"#
        #expect(JSONValue(jsonText: text) == .object([
            "a": .null, "b": .string("1"), "c": .int(1), "d": .double(1.5), "e": .bool(true), "f": .bool(false),
            "g": .array([.int(1), .string("x"), .array([.bool(false)])]), "h": .object(["i": .object(["j": .int(2)])]),
            "k": .string("true"),
        ]))
        #expect(JSONValue(jsonText: "-9223372036854775808") == .int(.min))
        // A whole number is an integer however it is written; 1.5 is not.
        #expect(JSONValue(jsonText: "1e3") == .int(1_000))
        #expect(JSONValue(jsonText: "[") == nil)
    }

    @Test("from a property list: integer, real, true, false, string, date (ISO 8601) and data (base64)")
    func fromPropertyList() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>i</key><integer>3</integer><key>r</key><real>2.5</real><key>t</key><true/><key>f</key><false/>
            <key>s</key><string>3</string><key>d</key><date>2026-11-22T13:05:00Z</date><key>b</key><data>AAE=</data>
            <key>a</key><array><integer>1</integer><string>x</string></array>
            </dict></plist>
            """
        let value = try PropertyListDecoder().decode(JSONValue.self, from: Data(plist.utf8))
        #expect(value == .object([
            "i": .int(3), "r": .double(2.5), "t": .bool(true), "f": .bool(false), "s": .string("3"),
            "d": .string("2026-11-22T13:05:00Z"), "b": .string("AAE="), "a": .array([.int(1), .string("x")]),
        ]))
    }
}
