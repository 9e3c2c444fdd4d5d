// libFuzzer target: the .desktop writer's quoting. The input, split at NUL bytes, is an argv.
//
// Properties: the Exec value holds no line break, and a launcher that follows the Desktop Entry
// specification (TestSupport's DesktopExecParser, written apart from the writer) reads back
// exactly that argv, with the control characters the format cannot carry as U+FFFD. A Name or
// Comment value holds no line break either.
import Foundation
import HostModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDesktop(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let argv = UnsafeBufferPointer(start: bytes, count: count).split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let line = DesktopEntry.execLine(argv)
    check(!line.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }, "a line break in Exec=\(line)")
    let expected = argv.map { argument in
        String(String.UnicodeScalarView(argument.unicodeScalars.map {
            DesktopEntry.isRepresentableInExec($0) ? $0 : "\u{FFFD}"
        }))
    }
    do {
        let parsed = try DesktopExecParser.parse(line)
        check(parsed == expected, "Exec=\(line) reads back as \(parsed), not \(expected)")
    } catch {
        fatalError("property violated: Exec=\(line) does not parse: \(error)")
    }
    for argument in argv {
        let value = DesktopEntry.localeStringValue(argument)
        check(!value.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }, "a line break in Name=\(value)")
    }
    return 0
}
