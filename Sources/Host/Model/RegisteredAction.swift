/// A shortcut type some plugin handles, with its declared parameters: plain data; its handler
/// is called through `PluginCalls.perform`.
public struct RegisteredAction: Sendable, Equatable {
    /// The registered type: a full type, or a namespace ending in `.*`.
    public var type: String
    public var title: String
    public var subtitle: String?
    public var icon: String?
    public var parameters: [ParameterSpec]
    /// The id of the plugin that registered it.
    public var pluginID: String
    /// Sentences that invoke it, with `{parameter}` placeholders.
    public var phrases: [Phrase]
    /// False when its runs are never suggestion material (`STANDFIT_TRAIT_NOT_SUGGESTIBLE`):
    /// they are not donated, and `suggest` ignores any donated before.
    public var suggestible: Bool
    /// True when it is confirmed on a terminal before it runs (`STANDFIT_TRAIT_CONFIRM`).
    public var confirms: Bool

    public init(type: String, title: String, subtitle: String? = nil, icon: String? = nil,
                parameters: [ParameterSpec] = [], pluginID: String, phrases: [Phrase] = [],
                suggestible: Bool = true, confirms: Bool = false) {
        self.confirms = confirms
        self.type = type
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.parameters = parameters
        self.pluginID = pluginID
        self.phrases = phrases
        self.suggestible = suggestible
    }

    /// True for a namespace handler such as `com.example.*`.
    public var isNamespace: Bool { type.hasSuffix(".*") }
}

/// One call of a handler: what was asked for and the bound arguments, in declared order.
public struct Invocation: Sendable, Equatable, Codable {
    /// The type as the user resolved it (differs from the registered one for namespace and
    /// fallback handlers).
    public var requestedType: String
    public var userInfo: [String: JSONValue]
    /// One entry per declared parameter; nil where no value bound.
    public var arguments: [ArgumentValue?]
    public var locale: String
    /// Whether the surface shows the data the handler attaches (`--json`); a handler may ask
    /// (`standfit.reply/1`) and build none when it does not.
    public var showsData: Bool

    public init(requestedType: String, userInfo: [String: JSONValue] = [:],
                arguments: [ArgumentValue?] = [], locale: String = "en", showsData: Bool = true) {
        self.requestedType = requestedType
        self.userInfo = userInfo
        self.arguments = arguments
        self.locale = locale
        self.showsData = showsData
    }
}

/// What a handler answered.
public struct HandlerReply: Sendable, Equatable, Codable {
    /// The raw `STANDFIT_STATUS_*` code it returned.
    public var status: Int32
    /// The dialog it set, if any.
    public var message: String?
    /// The structured data it attached, if any.
    public var data: JSONText?
    /// A fault the host saw in how the plugin answered (e.g. a non-UTF-8 message): the words
    /// that follow "Plugin 'x'", said in the run's language.
    public var fault: HostText.Phrase?
    /// What it named this run's donation, and the donations it withdrew (`standfit.donations/1`).
    public var donationID: String?
    public var withdrawnDonations: [String]?
    /// Mistakes in how it answered that cost the run nothing, each to finish "Plugin 'x' …".
    public var warnings: [HostText.Phrase]?
    /// The parameter its invalid input is about (`standfit.parameter-checks/1`).
    public var parameter: String?

    public init(status: Int32, message: String? = nil, data: JSONText? = nil, fault: HostText.Phrase? = nil,
                donationID: String? = nil, withdrawnDonations: [String]? = nil, warnings: [HostText.Phrase]? = nil) {
        self.status = status
        self.message = message
        self.data = data
        self.fault = fault
        self.donationID = donationID
        self.withdrawnDonations = withdrawnDonations
        self.warnings = warnings
    }
}
