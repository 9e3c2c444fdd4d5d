import CStandFitABI
import Foundation
import HostModel

/// A plugin's descriptor that the host will not take, and why: a problem and its fix, as the
/// host's words (`plugin.registration.*`, `plugin.item.*`, `plugin.entity.*`), said in the
/// language of the run that shows it.
struct DescriptorProblem: Error {
    var words: HostText.Phrase

    init(_ key: String, _ values: [String: String] = [:], parts: [String: HostText.Phrase] = [:]) {
        words = HostText.Phrase(key, values, parts: parts)
    }

    /// In English, as logs say it.
    var message: String { words.english }
}

/// Reads a `standfit_action` into a `RegisteredAction` and the call of its handler, checking
/// every field.
enum ActionDescriptor {
    static func read(_ pointer: UnsafePointer<standfit_action>?,
                     pluginID: String) -> Result<(RegisteredAction, HandlerCall), DescriptorProblem> {
        guard let pointer else { return .failure(DescriptorProblem("plugin.registration.actionNull")) }
        let raw = pointer.pointee
        if let problem = raw.abi.abiProblem(minimumSize: MemoryLayout<standfit_action>.size) {
            return .failure(DescriptorProblem("plugin.registration.actionABI", parts: ["problem": problem]))
        }
        ScanTrace.note("plugin.place.actionStrings")
        guard let type = CText.string(raw.type), TypeName.isValid(type) else {
            return .failure(DescriptorProblem("plugin.registration.actionType", parts: ["given": CText.shown(raw.type)]))
        }
        guard let title = CText.string(raw.title), !title.isEmpty else {
            return .failure(DescriptorProblem("plugin.registration.actionNoTitle", ["type": type]))
        }
        guard let function = raw.handler else {
            return .failure(DescriptorProblem("plugin.registration.noHandler", ["type": type]))
        }
        guard raw.param_count <= UInt32(STANDFIT_MAX_PARAMS) else {
            return .failure(DescriptorProblem("plugin.registration.tooManyParameters",
                                                ["type": type, "count": "\(raw.param_count)", "limit": "\(STANDFIT_MAX_PARAMS)"]))
        }
        guard raw.param_count == 0 || raw.params != nil else {
            return .failure(DescriptorProblem("plugin.registration.paramsNull", ["type": type, "count": "\(raw.param_count)"]))
        }
        var parameters: [ParameterSpec] = []
        for index in 0..<Int(raw.param_count) {
            ScanTrace.note("plugin.place.parameter", ["index": "\(index)", "type": type, "count": "\(raw.param_count)"])
            switch readParameter(raw.params![index], index: index, count: raw.param_count, type: type, seen: parameters.map(\.name)) {
            case .success(let parameter): parameters.append(parameter)
            case .failure(let problem): return .failure(problem)
            }
        }
        guard let handler = FFIHandler(function: function, kinds: parameters.map(\.kind)) else {
            return .failure(DescriptorProblem("plugin.registration.libffi", ["type": type]))
        }
        let action = RegisteredAction(
            type: type, title: title, subtitle: CText.string(raw.subtitle).flatMap { $0.isEmpty ? nil : $0 },
            icon: CText.string(raw.icon).flatMap { $0.isEmpty ? nil : $0 },
            parameters: parameters, pluginID: pluginID)
        return .success((action, HandlerCall(handler: handler, parameterNames: parameters.map(\.name))))
    }

    private static func readParameter(_ raw: standfit_param, index: Int, count: UInt32, type: String,
                                      seen: [String]) -> Result<ParameterSpec, DescriptorProblem> {
        if let problem = raw.abi.abiProblem(minimumSize: MemoryLayout<standfit_param>.size) {
            // Past the first, a parameter that is no parameter at all is most often read past
            // the end of a shorter array.
            let overrun = index > 0 && raw.abi.abi_major == 0
                ? HostText.Phrase("plugin.registration.parameterOverrun", ["count": "\(count)"]) : .verbatim("")
            return .failure(DescriptorProblem("plugin.registration.parameterABI", ["index": "\(index)", "type": type],
                                              parts: ["problem": problem, "overrun": overrun]))
        }
        guard let name = CText.string(raw.name), ParameterName.isValid(name) else {
            return .failure(DescriptorProblem("plugin.registration.parameterName", ["index": "\(index)", "type": type],
                                              parts: ["given": CText.shown(raw.name)]))
        }
        guard !seen.contains(name) else {
            return .failure(DescriptorProblem("plugin.registration.parameterTwice", ["type": type, "name": name]))
        }
        guard let kind = ParameterKind(rawValue: raw.kind) else {
            return .failure(DescriptorProblem("plugin.registration.parameterKind", ["name": name, "type": type, "kind": "\(raw.kind)"]))
        }
        var defaultValue: ArgumentValue?
        if let text = CText.string(raw.default_value) {
            guard let value = ArgumentCoercion.coerce(text, to: kind) else {
                return .failure(DescriptorProblem("plugin.registration.parameterDefault", ["name": name, "type": type, "default": "\"\(text)\""],
                                                  parts: ["expectation": HostText.Phrase(CText.expectationKey(of: kind))]))
            }
            defaultValue = value
        }
        return .success(ParameterSpec(name: name, kind: kind, required: raw.required,
                                      defaultValue: defaultValue, title: CText.string(raw.title)))
    }
}

/// Reads a `standfit_item` into a `ShortcutItem`, checking every field.
enum ItemDescriptor {
    static func read(_ pointer: UnsafePointer<standfit_item>?, source: ShortcutItem.Source,
                     origin: String) -> Result<ShortcutItem, DescriptorProblem> {
        // "static item" or "item"; a sentence that starts with it has a key for each.
        let which = source == .static ? "static" : "dynamic"
        let noun = HostText.Phrase("plugin.item.noun.\(which)")
        guard let pointer else { return .failure(DescriptorProblem("plugin.item.null", parts: ["noun": noun])) }
        let raw = pointer.pointee
        if let problem = raw.abi.abiProblem(minimumSize: MemoryLayout<standfit_item>.size) {
            return .failure(DescriptorProblem("plugin.item.abi", parts: ["noun": noun, "problem": problem]))
        }
        guard let type = CText.string(raw.type), TypeName.isValid(type), !type.hasSuffix(".*") else {
            return .failure(DescriptorProblem("plugin.item.type", parts: ["noun": noun, "given": CText.shown(raw.type)]))
        }
        guard let title = CText.string(raw.title), !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .failure(DescriptorProblem("plugin.item.noTitle.\(which)", ["type": type]))
        }
        var userInfo: [String: JSONValue] = [:]
        if let json = CText.string(raw.user_info_json) {
            guard case .object(let object)? = JSONValue(jsonText: json) else {
                let shown = VisibleText.line(json.count > 60 ? json.prefix(59) + "…" : json)
                return .failure(DescriptorProblem("plugin.item.userInfo.\(which)",
                                                  ["type": type, "userInfo": "\"\(shown)\"", "example": #"{"count": 20}"#]))
            }
            userInfo = object
        }
        return .success(ShortcutItem(
            type: type, title: title, subtitle: CText.string(raw.subtitle).flatMap { $0.isEmpty ? nil : $0 },
            icon: CText.string(raw.icon).flatMap { $0.isEmpty ? nil : $0 },
            userInfo: userInfo, source: source, origin: origin))
    }
}

/// Reading C strings from plugins: NULL and invalid UTF-8 read as nil.
enum CText {
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.flatMap { String(validatingCString: $0) }
    }

    static func quoted(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "NULL" }
        return string(pointer).map { "'\($0)'" } ?? "(not UTF-8)"
    }

    /// What `quoted` says, as the host's words: 'text', NULL, or "(not UTF-8)" in the run's language.
    static func shown(_ pointer: UnsafePointer<CChar>?) -> HostText.Phrase {
        guard let pointer else { return .verbatim("NULL") }
        return string(pointer).map { .verbatim("'\($0)'") } ?? HostText.Phrase("plugin.notUTF8")
    }

    /// The key of what a value of `kind` must be: `expect.int64` is "an integer".
    static func expectationKey(of kind: ParameterKind) -> String {
        switch kind {
        case .bool: "expect.bool"
        case .int64: "expect.int64"
        case .double: "expect.double"
        case .string: "expect.string"
        }
    }
}
