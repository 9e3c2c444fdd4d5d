/// A Swift type that can be a parameter: one of the ABI's C kinds, or an optional of one.
public protocol ParameterValue {
    /// The `STANDFIT_KIND_*` this type is passed as.
    static var parameterKind: Int32 { get }
    /// True for optionals: the parameter may be absent and reads as nil.
    static var isOptionalParameter: Bool { get }
    /// Reads the C argument that libffi stored at `argument`; nil when not provided.
    static func read(argument: UnsafeRawPointer, provided: Bool) -> Self?
    /// The text the host coerces back to this value (for defaults).
    var parameterText: String? { get }
}

extension ParameterValue {
    public static var isOptionalParameter: Bool { false }
}

extension Bool: ParameterValue {
    public static var parameterKind: Int32 { STANDFIT_KIND_BOOL }
    public static func read(argument: UnsafeRawPointer, provided: Bool) -> Bool? {
        provided ? argument.load(as: Bool.self) : nil
    }
    public var parameterText: String? { self ? "true" : "false" }
}

extension Int: ParameterValue {
    public static var parameterKind: Int32 { STANDFIT_KIND_INT64 }
    public static func read(argument: UnsafeRawPointer, provided: Bool) -> Int? {
        provided ? Int(argument.load(as: Int64.self)) : nil
    }
    public var parameterText: String? { String(self) }
}

extension Double: ParameterValue {
    public static var parameterKind: Int32 { STANDFIT_KIND_DOUBLE }
    public static func read(argument: UnsafeRawPointer, provided: Bool) -> Double? {
        provided ? argument.load(as: Double.self) : nil
    }
    public var parameterText: String? { "\(self)" }
}

extension String: ParameterValue {
    public static var parameterKind: Int32 { STANDFIT_KIND_STRING }
    public static func read(argument: UnsafeRawPointer, provided: Bool) -> String? {
        guard provided, let cString = argument.load(as: UnsafePointer<CChar>?.self) else { return nil }
        return String(cString: cString)
    }
    public var parameterText: String? { self }
}

/// A number parameter that can have a range (`@Parameter(range: 1...180)`): `Int`, `Double`
/// and their optionals.
public protocol RangedParameterValue: ParameterValue {
    /// What the range is written in: `Int` for `Int` and `Int?`, `Double` for `Double` and `Double?`.
    associatedtype Bound: Comparable
    /// The range as the ABI passes it.
    static func bounds(_ range: ClosedRange<Bound>) -> ClosedRange<Double>
    /// The value as a double, nil when absent.
    var rangeValue: Double? { get }
}

extension Int: RangedParameterValue {
    public static func bounds(_ range: ClosedRange<Int>) -> ClosedRange<Double> { Double(range.lowerBound)...Double(range.upperBound) }
    public var rangeValue: Double? { Double(self) }
}

extension Double: RangedParameterValue {
    public static func bounds(_ range: ClosedRange<Double>) -> ClosedRange<Double> { range }
    public var rangeValue: Double? { self }
}

extension Optional: RangedParameterValue where Wrapped: RangedParameterValue {
    public static func bounds(_ range: ClosedRange<Wrapped.Bound>) -> ClosedRange<Double> { Wrapped.bounds(range) }
    public var rangeValue: Double? { self?.rangeValue }
}

extension Optional: ParameterValue where Wrapped: ParameterValue {
    public static var parameterKind: Int32 { Wrapped.parameterKind }
    public static var isOptionalParameter: Bool { true }
    public static func read(argument: UnsafeRawPointer, provided: Bool) -> Wrapped?? {
        .some(Wrapped.read(argument: argument, provided: provided))
    }
    public var parameterText: String? { self?.parameterText }
}
