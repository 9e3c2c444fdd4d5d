import Foundation
import Testing
import TestSupport

/// docs/ABI.md publishes every table's size, alignment and field offsets, so that a plugin written
/// without the header (Rust's `#[repr(C)]`, Zig, a hand-written binding) can be checked against
/// them. This test asks the C compiler (clang's record-layout dump) for the layout of every struct
/// the header declares and compares it with the page; `STANDFIT_UPDATE_DOCS=1` rewrites the page's
/// tables from it.
@Suite("The ABI's table layouts, as docs/ABI.md publishes them", .timeLimit(.minutes(10)))
struct ABILayoutTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let header = root.appendingPathComponent("Sources/CStandFitABI/include/standfit_plugin.h")
    static let page = root.appendingPathComponent("docs/ABI.md")
    static let begin = "<!-- layouts:begin (generated from the compiler's record layouts by ABILayoutTests; STANDFIT_UPDATE_DOCS=1 swift test --filter ABILayoutTests rewrites it) -->"
    static let end = "<!-- layouts:end -->"

    struct Field: Equatable {
        var offset: Int
        var name: String
        var type: String
    }

    struct Layout: Equatable {
        var name: String
        var size: Int
        var alignment: Int
        var fields: [Field]
    }

    /// The structs the header declares, in its order: its own, then each extension header's
    /// in the order it includes them.
    static func declaredStructs() throws -> [String] {
        let own = try String(contentsOf: header, encoding: .utf8)
        let included = try NSRegularExpression(pattern: #"^#include "(standfit_ext_\w+\.h)"$"#, options: [.anchorsMatchLines])
        let text = try included.matches(in: own, range: NSRange(own.startIndex..., in: own)).reduce(own) { text, match in
            let name = String(own[Range(match.range(at: 1), in: own)!])
            return text + (try String(contentsOf: header.deletingLastPathComponent().appendingPathComponent(name), encoding: .utf8))
        }
        let pattern = try NSRegularExpression(pattern: #"^(?:typedef )?struct (standfit_\w+) \{"#, options: [.anchorsMatchLines])
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    /// The compiler's layout of each struct: clang -fdump-record-layouts on a file that takes
    /// the size of every one, read at the top level (nested headers are one field).
    static func compilerLayouts(of names: [String]) throws -> [Layout] {
        let directory = makeTemporaryDirectory("standfit-abi-layout")
        let source = directory.appendingPathComponent("layout.c")
        let uses = names.map { "sizeof(struct \($0))" }.joined(separator: ", ")
        try "#include \"standfit_plugin.h\"\nunsigned long sizes[] = { \(uses) };\n".write(to: source, atomically: true, encoding: .utf8)
        let clang = ["/opt/swift/usr/bin/clang", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let compiler = try #require(clang, "no clang in /opt/swift/usr/bin or /usr/bin to dump the record layouts")
        let result = runProcess(URL(fileURLWithPath: compiler), arguments: [
            "-I", header.deletingLastPathComponent().path, "-Xclang", "-fdump-record-layouts", "-fsyntax-only", source.path,
        ])
        try #require(result.status == 0, "\(result.stderr)")
        var layouts: [String: Layout] = [:]
        var current: Layout?
        let top = try NSRegularExpression(pattern: #"^\s*(\d+) \|   (\S.*) (\w+)$"#)
        let name = try NSRegularExpression(pattern: #"^\s*0 \| struct (standfit_\w+)$"#)
        let size = try NSRegularExpression(pattern: #"\[sizeof=(\d+), (?:dsize=\d+, )?align=(\d+)"#)
        func groups(_ expression: NSRegularExpression, _ line: String) -> [String]? {
            guard let match = expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { return nil }
            return (1..<match.numberOfRanges).map { String(line[Range(match.range(at: $0), in: line)!]) }
        }
        for line in result.stdout.split(separator: "\n").map(String.init) {
            if let found = groups(name, line) {
                current = Layout(name: found[0], size: 0, alignment: 0, fields: [])
            } else if let found = groups(size, line), var layout = current {
                layout.size = Int(found[0]) ?? 0
                layout.alignment = Int(found[1]) ?? 0
                layouts[layout.name] = layout
                current = nil
            } else if let found = groups(top, line), current != nil {
                current?.fields.append(Field(offset: Int(found[0]) ?? -1, name: found[2], type: found[1]))
            }
        }
        return try names.map { try #require(layouts[$0], "clang printed no layout for \($0)") }
    }

    /// The page's section for `layouts`.
    static func rendered(_ layouts: [Layout]) -> String {
        var lines = [
            "Sizes and offsets are in bytes, for 64-bit Linux (x86_64 and aarch64 lay C structs out alike).",
            "`bool` is C's `_Bool` (one byte, 0 or 1); a function pointer is one pointer.",
        ]
        for layout in layouts {
            lines += ["", "#### `\(layout.name)`: \(layout.size) bytes, aligned to \(layout.alignment)", "",
                      "| Offset | Field | C type |", "|---:|---|---|"]
            lines += layout.fields.map { "| \($0.offset) | `\($0.name)` | `\($0.type)` |" }
        }
        return lines.joined(separator: "\n")
    }

    @Test("every struct of the header is on the page with the compiler's size, alignment and offsets")
    func pageMatchesCompiler() throws {
        let layouts = try Self.compilerLayouts(of: Self.declaredStructs())
        #expect(layouts.count >= 18)
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let start = try #require(text.range(of: Self.begin), "docs/ABI.md has no \(Self.begin) marker")
        let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex), "docs/ABI.md has no \(Self.end) marker")
        let published = String(text[start.upperBound..<stop.lowerBound]).trimmingCharacters(in: .newlines)
        let expected = Self.rendered(layouts)
        if published != expected, ProcessInfo.processInfo.environment["STANDFIT_UPDATE_DOCS"] == "1" {
            try text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: "\n\(expected)\n")
                .write(to: Self.page, atomically: true, encoding: .utf8)
            return
        }
        #expect(published == expected, "docs/ABI.md's layouts are not the compiler's; run STANDFIT_UPDATE_DOCS=1 swift test --filter ABILayoutTests")
    }

    @Test("the layouts ABI 1 froze: a parameter array's stride and the entry table")
    func frozen() throws {
        let layouts = try Self.compilerLayouts(of: ["standfit_abi_header", "standfit_param", "standfit_plugin_entry"])
        #expect(layouts.map(\.size) == [12, 48, 56])
        #expect(layouts[1].fields.map(\.offset) == [0, 16, 24, 28, 32, 40])
    }
}
