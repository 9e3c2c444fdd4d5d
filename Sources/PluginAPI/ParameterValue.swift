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

extension Optional: ParameterValue where Wrapped: ParameterValue {
    public static var parameterKind: Int32 { Wrapped.parameterKind }
    public static var isOptionalParameter: Bool { true }
    public static func read(argument: UnsafeRawPointer, provided: Bool) -> Wrapped?? {
        .some(Wrapped.read(argument: argument, provided: provided))
    }
    public var parameterText: String? { self?.parameterText }
}
