import HostModel
import HostIntents

/// Binds an action's declared parameters, in order: `name=value` arguments (which win), then
/// the item's userInfo, then declared defaults. Values are coerced to the declared kind.
/// `ParameterResolver` does the work; this is its plain form, with nobody to ask.
@_spi(Testing) public struct ParameterBinder: Sendable {
    public var type: String
    public var parameters: [ParameterSpec]

    public init(type: String, parameters: [ParameterSpec]) {
        self.type = type
        self.parameters = parameters
    }

    /// Why binding failed: one sentence, and the parameter it is about.
    public struct Failure: Error, Equatable, Sendable {
        public var message: String
        public var parameter: String?

        public init(message: String, parameter: String?) {
            self.message = message
            self.parameter = parameter
        }
    }

    /// Binds without entity queries or prompts: values of entity parameters stay as typed.
    public func bind(arguments: [NamedArgument], userInfo: [String: JSONValue]) -> Result<[ArgumentValue?], Failure> {
        ParameterResolver(type: type, parameters: parameters).resolve(arguments: arguments, userInfo: userInfo)
            .map(\.values).mapError { Failure(message: $0.message, parameter: $0.parameter) }
    }
}
