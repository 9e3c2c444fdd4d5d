/// A typed action parameter, passed by the host as a C argument of the matching kind.
///
/// The name is the property's name unless given. `@Parameter var count: Int = 10` declares an
/// optional-to-pass integer with default 10; `@Parameter var note: String?` an optional string
/// that is nil when absent; `@Parameter var exercise: String` a required string.
@propertyWrapper
public struct Parameter<Value: ParameterValue> {
    let name: String?
    let title: String?
    let defaultValue: Value?
    let storage = ParameterStorage<Value>()

    public init(_ name: String? = nil, title: String? = nil) {
        self.name = name
        self.title = title
        self.defaultValue = nil
    }

    public init(wrappedValue: Value, _ name: String? = nil, title: String? = nil) {
        self.name = name
        self.title = title
        self.defaultValue = wrappedValue
    }

    /// The bound value. Reading it outside `perform` (before the host bound it) is a programming
    /// error in the plugin and stops with a message naming the parameter.
    public var wrappedValue: Value {
        if let value = storage.value ?? defaultValue { return value }
        preconditionFailure("Parameter '\(name ?? "?")' was read before the host bound it; read parameters only inside perform(_:).")
    }
}

/// Rationale: a property wrapper is a value copied into the action; the host fills the value
/// after `init()`, so the wrapper keeps it in a small box that all copies share.
final class ParameterStorage<Value> {
    var value: Value?
}

/// What the SDK needs to know of any `@Parameter`, whatever its value type.
protocol AnyParameter {
    var explicitName: String? { get }
    var title: String? { get }
    var kind: Int32 { get }
    var isRequired: Bool { get }
    var defaultText: String? { get }
    /// Reads the C argument at `argument` into the parameter.
    func bind(argument: UnsafeRawPointer, provided: Bool)
}

extension Parameter: AnyParameter {
    var explicitName: String? { name }
    var kind: Int32 { Value.parameterKind }
    var isRequired: Bool { defaultValue == nil && !Value.isOptionalParameter }
    var defaultText: String? { defaultValue?.parameterText }

    func bind(argument: UnsafeRawPointer, provided: Bool) {
        storage.value = Value.read(argument: argument, provided: provided)
    }
}
