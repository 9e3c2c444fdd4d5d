import CLibFFI
import Foundation

/// An action made ready for the host: its C descriptor and a real C handler function.
///
/// The handler is a libffi closure whose C signature is exactly the declared one,
/// `int32_t (const standfit_invocation *, <parameters>)`, so the host calls a Swift action the
/// same way it calls a C one. Everything here lives for the life of the process.
final class PreparedAction {
    let descriptor: UnsafePointer<standfit_action>
    let actionType: any ShortcutAction.Type
    /// Its `@Parameter`s as declared, for the intents registered after the action.
    let parameters: [(name: String, value: any AnyParameter)]

    /// True when it has anything for `standfit.intents/1`.
    var hasIntents: Bool {
        !actionType.phrases.isEmpty
            || parameters.contains { $0.value.entity != nil || !$0.value.choices.isEmpty || $0.value.prompt != nil }
    }

    init(_ actionType: any ShortcutAction.Type) throws {
        self.actionType = actionType
        let parameters = PreparedAction.parameters(of: actionType)
        self.parameters = parameters
        guard parameters.count <= Int(STANDFIT_MAX_PARAMS) else {
            throw PluginAPIError("Action '\(actionType.type)' declares \(parameters.count) parameters; the ABI allows at most \(STANDFIT_MAX_PARAMS).")
        }
        let cParams = UnsafeMutablePointer<standfit_param>.allocate(capacity: max(parameters.count, 1))
        for (index, parameter) in parameters.enumerated() {
            (cParams + index).initialize(to: standfit_param(
                abi: .current(for: standfit_param.self),
                name: UnsafePointer(strdup(parameter.name)),
                kind: parameter.value.kind,
                required: parameter.value.isRequired,
                default_value: parameter.value.defaultText.map { UnsafePointer(strdup($0)) },
                title: parameter.value.title.map { UnsafePointer(strdup($0)) }))
        }
        let handler = try HandlerClosure(kinds: parameters.map(\.value.kind), actionType: actionType)
        let descriptor = UnsafeMutablePointer<standfit_action>.allocate(capacity: 1)
        descriptor.initialize(to: standfit_action(
            abi: .current(for: standfit_action.self),
            type: UnsafePointer(strdup(actionType.type)),
            title: UnsafePointer(strdup(actionType.title)),
            subtitle: actionType.subtitle.isEmpty ? nil : UnsafePointer(strdup(actionType.subtitle)),
            icon: actionType.icon.isEmpty ? nil : UnsafePointer(strdup(actionType.icon)),
            params: UnsafePointer(cParams),
            param_count: UInt32(parameters.count),
            handler: handler.function))
        self.descriptor = UnsafePointer(descriptor)
    }

    /// The action's `@Parameter` properties, in declaration order, with their names.
    static func parameters(of actionType: any ShortcutAction.Type) -> [(name: String, value: any AnyParameter)] {
        parameters(in: actionType.init())
    }

    static func parameters(in action: any ShortcutAction) -> [(name: String, value: any AnyParameter)] {
        Mirror(reflecting: action).children.compactMap { child in
            guard let parameter = child.value as? any AnyParameter else { return nil }
            let propertyName = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
            return (parameter.explicitName ?? propertyName ?? "", parameter)
        }
    }
}

/// An error in how a Swift plugin declared itself; reported through the host's log.
struct PluginAPIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
