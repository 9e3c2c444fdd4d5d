import CStandFitABI
import Foundation
import HostModel

/// A plugin's descriptor that the host will not take, and why.
struct DescriptorProblem: Error {
    var message: String
}

/// Reads a `standfit_action` into a `RegisteredAction` and the call of its handler, checking
/// every field.
enum ActionDescriptor {
    static func read(_ pointer: UnsafePointer<standfit_action>?,
                     pluginID: String) -> Result<(RegisteredAction, HandlerCall), DescriptorProblem> {
        guard let pointer else { return .failure(DescriptorProblem(message: "register_action was called with NULL")) }
        let raw = pointer.pointee
        if let problem = raw.abi.problem(minimumSize: MemoryLayout<standfit_action>.size) {
            return .failure(DescriptorProblem(message: "an action descriptor \(problem)"))
        }
        ScanTrace.note("plugin.place.actionStrings")
        guard let type = CText.string(raw.type), TypeName.isValid(type) else {
            return .failure(DescriptorProblem(message: "an action has type \(CText.quoted(raw.type)), which is not a reverse-DNS type such as com.example.open (or a namespace com.example.*); fix the descriptor's type"))
        }
        guard let title = CText.string(raw.title), !title.isEmpty else {
            return .failure(DescriptorProblem(message: "action '\(type)' has no title; give it one to show in menus"))
        }
        guard let function = raw.handler else {
            return .failure(DescriptorProblem(message: "action '\(type)' has no handler function; set it to the function that runs the action (STANDFIT_ACTION does)"))
        }
        guard raw.param_count <= UInt32(STANDFIT_MAX_PARAMS) else {
            return .failure(DescriptorProblem(message: "action '\(type)' declares \(raw.param_count) parameters; the ABI allows at most \(STANDFIT_MAX_PARAMS)"))
        }
        guard raw.param_count == 0 || raw.params != nil else {
            return .failure(DescriptorProblem(message: "action '\(type)' declares \(raw.param_count) parameters but its params pointer is NULL"))
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
            return .failure(DescriptorProblem(message: "libffi could not prepare the handler of '\(type)'"))
        }
        let action = RegisteredAction(
            type: type, title: title, subtitle: CText.string(raw.subtitle).flatMap { $0.isEmpty ? nil : $0 },
            icon: CText.string(raw.icon).flatMap { $0.isEmpty ? nil : $0 },
            parameters: parameters, pluginID: pluginID)
        return .success((action, HandlerCall(handler: handler, parameterNames: parameters.map(\.name))))
    }

    private static func readParameter(_ raw: standfit_param, index: Int, count: UInt32, type: String,
                                      seen: [String]) -> Result<ParameterSpec, DescriptorProblem> {
        if let problem = raw.abi.problem(minimumSize: MemoryLayout<standfit_param>.size) {
            // Past the first, a parameter that is no parameter at all is most often read past
            // the end of a shorter array.
            let overrun = index > 0 && raw.abi.abi_major == 0 ? " (or param_count \(count) is larger than its params array)" : ""
            return .failure(DescriptorProblem(message: "parameter \(index) of '\(type)' \(problem)\(overrun)"))
        }
        guard let name = CText.string(raw.name), ParameterName.isValid(name) else {
            return .failure(DescriptorProblem(message: "parameter \(index) of '\(type)' is named \(CText.quoted(raw.name)); use letters, digits and underscores, not starting with a digit"))
        }
        guard !seen.contains(name) else {
            return .failure(DescriptorProblem(message: "action '\(type)' declares parameter '\(name)' twice; rename one"))
        }
        guard let kind = ParameterKind(rawValue: raw.kind) else {
            return .failure(DescriptorProblem(message: "parameter '\(name)' of '\(type)' has kind \(raw.kind); use STANDFIT_KIND_BOOL, _INT64, _DOUBLE or _STRING"))
        }
        var defaultValue: ArgumentValue?
        if let text = CText.string(raw.default_value) {
            guard let value = ArgumentCoercion.coerce(text, to: kind) else {
                return .failure(DescriptorProblem(message: "parameter '\(name)' of '\(type)' has default \"\(text)\", which is not \(ArgumentCoercion.expectation(of: kind)); fix the default"))
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
        let noun = source == .static ? "static item" : "item"
        guard let pointer else { return .failure(DescriptorProblem(message: "a \(noun) is NULL; pass a standfit_item")) }
        let raw = pointer.pointee
        if let problem = raw.abi.problem(minimumSize: MemoryLayout<standfit_item>.size) {
            return .failure(DescriptorProblem(message: "a \(noun) \(problem)"))
        }
        guard let type = CText.string(raw.type), TypeName.isValid(type), !type.hasSuffix(".*") else {
            return .failure(DescriptorProblem(message: "a \(noun) has type \(CText.quoted(raw.type)), which is not a reverse-DNS type such as com.example.open; fix the item's type"))
        }
        guard let title = CText.string(raw.title), !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .failure(DescriptorProblem(message: "\(noun) '\(type)' has no title; give it one to show in menus"))
        }
        var userInfo: [String: JSONValue] = [:]
        if let json = CText.string(raw.user_info_json) {
            guard case .object(let object)? = JSONValue(jsonText: json) else {
                let shown = VisibleText.line(json.count > 60 ? json.prefix(59) + "…" : json)
                return .failure(DescriptorProblem(message: "\(noun) '\(type)' has userInfo \"\(shown)\", which is not a JSON object of string keys; give one such as {\"count\": 20}, or NULL for none"))
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
}
