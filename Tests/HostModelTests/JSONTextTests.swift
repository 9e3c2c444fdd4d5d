import Foundation
import HostModel
import Testing

@Suite("Handler data as JSON text", .timeLimit(.minutes(10)))
struct JSONTextTests {
    @Test("a document is checked whole: escapes, numbers and control characters too, not only its brackets", arguments: [
        #"{"a":"\q"}"#, #"{"a":1-2}"#, "{\"a\":\"tab\there\"}", #"{"a":1,}x"#, #"[1,2"#, "nul",
    ])
    func refused(text: String) {
        #expect(JSONText(validating: text) == nil)
        #expect(JSONText.refusal(of: text)?.english == "that is not valid JSON")
    }

    @Test("valid documents of every kind are taken as written, and read back as values", arguments: [
        #"{"a":[1,2.5,true,null,"é\n"]}"#, "5", #""x""#, "{}", "[]",
    ])
    func accepted(text: String) {
        #expect(JSONText(validating: text)?.text == text)
        #expect(JSONText(validating: text)?.value == JSONValue(jsonText: text))
    }

    @Test("depth beyond the host's limit is named")
    func depth() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(JSONText.refusal(of: deep)?.english == "nested deeper than 512 levels (the most the host reads)")
        #expect(JSONText.refusal(of: deep)?.text(in: "nl") == "die dieper genest zijn dan 512 niveaus (het meeste dat de host leest)")
    }
}
