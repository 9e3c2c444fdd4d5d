// libFuzzer target: parameter coercion and binding. The input is split at NUL bytes: the first
// field is a userInfo JSON text, the rest are command-line arguments (`name=value`).
//
// Properties: nothing crashes; a value coerced from text reads back from its own text as the
// same value; `name=value` splits at the first `=` and loses nothing; JSON text the host
// writes reads back to the same text; binding either yields one value per declared parameter,
// each of its declared kind, or fails with a one-sentence message.
import Foundation
import HostModel

private let parameters = [
    ParameterSpec(name: "count", kind: .int64, required: true),
    ParameterSpec(name: "km", kind: .double, defaultValue: .double(5)),
    ParameterSpec(name: "shout", kind: .bool, defaultValue: .bool(false)),
    ParameterSpec(name: "name", kind: .string),
    ParameterSpec(name: "exercise", kind: .string, domain: .choices([
        EntityValue(id: "pushups", title: "Push-Ups", synonyms: ["push ups", "opdrukken"]),
        EntityValue(id: "squats", title: "Squats", defaults: ["count": .int(20)]),
    ])),
]

private func kindMatches(_ value: ArgumentValue, _ kind: ParameterKind) -> Bool {
    switch (value, kind) {
    case (.int64, .int64), (.double, .double), (.bool, .bool), (.string, .string): true
    default: false
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCoercion(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let fields = UnsafeBufferPointer(start: bytes, count: count).split(separator: 0, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    let jsonText = fields.first ?? ""
    var userInfo: [String: JSONValue] = [:]
    if let json = JSONValue(jsonText: jsonText) {
        let written = json.jsonText
        check(JSONValue(jsonText: written)?.jsonText == written, "JSON text does not read back: \(written)")
        if case .object(let object) = json { userInfo = object }
    }
    var arguments: [NamedArgument] = []
    for text in fields.dropFirst() {
        for kind in [ParameterKind.int64, .double, .bool, .string] {
            if let value = ArgumentCoercion.coerce(text, to: kind) {
                check(kindMatches(value, kind), "\(text) coerced to another kind")
                check(ArgumentCoercion.coerce(value.text, to: kind) == value, "\(value) does not read back from \(value.text)")
            }
        }
        if let argument = NamedArgument(parsing: text) {
            check(!argument.name.isEmpty && !argument.name.contains("="), "a bad name from \(text)")
            check(argument.name + "=" + argument.value == text, "\(text) split lossily")
            arguments.append(argument)
        } else {
            // By scalar, as the parser reads it: a mark may join the "=" into a grapheme.
            check(!text.unicodeScalars.contains("=") || text.unicodeScalars.first == "=", "\(text) has a name=value but was not parsed")
        }
    }
    switch ParameterBinder(type: "com.fuzz.log", parameters: parameters).bind(arguments: arguments, userInfo: userInfo) {
    case .success(let values):
        check(values.count == parameters.count, "one value per parameter")
        for (value, parameter) in zip(values, parameters) {
            if let value { check(kindMatches(value, parameter.kind), "\(parameter.name) bound to another kind") }
            if parameter.required { check(value != nil, "required \(parameter.name) bound to nothing") }
        }
    case .failure(let failure):
        check(!failure.message.isEmpty, "a failure without a message")
        if let parameter = failure.parameter {
            check(failure.message.contains(parameter), "the failure does not name \(parameter): \(failure.message)")
        }
    }
    return 0
}
