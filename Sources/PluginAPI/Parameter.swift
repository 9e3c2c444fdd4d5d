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
    let makePrompt: () -> String?
    let entity: (any EntityQuery.Type)?
    let makeChoices: () -> [EntityValue]
    /// `range:`, as the ABI's doubles.
    var bounds: ClosedRange<Double>?
    /// `suggestible: false`: its value is left out of the run's donation.
    var isSuggestible = true
    let storage = ParameterStorage<Value>()

    /// - Parameters:
    ///   - prompt: the question asked on a terminal when the value is missing ("How many?"),
    ///     read when the plugin registers, in the run's language.
    ///   - entity: for a string, the entity whose values it names; the handler gets the id.
    ///   - choices: for a string, the fixed values it may take (an enumeration).
    ///   - suggestible: false for a value that is no habit (a time the run is backdated to): the
    ///     host leaves it out of the run's donation, so a suggestion never brings it back.
    public init(_ name: String? = nil, title: String? = nil, prompt: @autoclosure @escaping () -> String? = nil,
                entity: (any EntityQuery.Type)? = nil, choices: @autoclosure @escaping () -> [EntityValue] = [],
                suggestible: Bool = true) {
        isSuggestible = suggestible
        self.name = name
        self.title = title
        self.defaultValue = nil
        self.makePrompt = prompt
        self.entity = entity
        self.makeChoices = choices
    }

    public init(wrappedValue: Value, _ name: String? = nil, title: String? = nil,
                prompt: @autoclosure @escaping () -> String? = nil, entity: (any EntityQuery.Type)? = nil,
                choices: @autoclosure @escaping () -> [EntityValue] = [], suggestible: Bool = true) {
        isSuggestible = suggestible
        self.name = name
        self.title = title
        self.defaultValue = wrappedValue
        self.makePrompt = prompt
        self.entity = entity
        self.makeChoices = choices
    }

    /// The bound value. Reading it outside `perform` (before the host bound it) is a programming
    /// error in the plugin and stops with a message naming the parameter.
    public var wrappedValue: Value {
        if let value = storage.value ?? defaultValue { return value }
        preconditionFailure("Parameter '\(name ?? "?")' was read before the host bound it; read parameters only inside perform(_:).")
    }
}

extension Parameter where Value: RangedParameterValue {
    /// A number parameter whose values lie in `range`: `@Parameter(range: 1...180) var minutes: Int = 25`.
    /// The host refuses any other value before `perform` runs, naming the parameter and the
    /// range, and says the range when it asks for the value.
    public init(wrappedValue: Value, _ name: String? = nil, title: String? = nil,
                prompt: @autoclosure @escaping () -> String? = nil, range: ClosedRange<Value.Bound>) {
        self.init(wrappedValue: wrappedValue, name, title: title, prompt: prompt())
        bounds = Value.bounds(range)
    }

    /// A required or optional number parameter whose values lie in `range`.
    public init(_ name: String? = nil, title: String? = nil, prompt: @autoclosure @escaping () -> String? = nil,
                range: ClosedRange<Value.Bound>) {
        self.init(name, title: title, prompt: prompt())
        bounds = Value.bounds(range)
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
    var prompt: String? { get }
    var entity: (any EntityQuery.Type)? { get }
    var choices: [EntityValue] { get }
    /// `@Parameter(range:)`, as doubles.
    var range: ClosedRange<Double>? { get }
    /// `@Parameter(suggestible:)`.
    var isSuggestible: Bool { get }
    /// Why the bound value lies outside `range`, or nil.
    func rangeRefusal(name: String) -> String?
    /// Reads the C argument at `argument` into the parameter.
    func bind(argument: UnsafeRawPointer, provided: Bool)
}

extension Parameter: AnyParameter {
    var explicitName: String? { name }
    var kind: Int32 { Value.parameterKind }
    var isRequired: Bool { defaultValue == nil && !Value.isOptionalParameter }
    var defaultText: String? { defaultValue?.parameterText }
    var prompt: String? { makePrompt() }
    var choices: [EntityValue] { makeChoices() }
    var range: ClosedRange<Double>? { bounds }

    func rangeRefusal(name: String) -> String? {
        guard let bounds, let value = storage.value.flatMap({ ($0 as? any RangedParameterValue)?.rangeValue }),
              !bounds.contains(value) else { return nil }
        func text(_ number: Double) -> String { number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)" }
        return "\(name): expected a number from \(text(bounds.lowerBound)) to \(text(bounds.upperBound)), got \(text(value))."
    }

    func bind(argument: UnsafeRawPointer, provided: Bool) {
        storage.value = Value.read(argument: argument, provided: provided)
    }
}
