/// The one seam between the host and plugin code: every call into a plugin goes through these
/// closures, and the rest of the host holds plugins' registrations as plain data.
///
/// The plugin runtime builds the live form, which runs each plugin either in the host's process
/// or in a worker process, chosen once per plugin; tests build a fake that loads nothing.
///
/// Rationale: a struct of closures rather than a protocol (swift-dependencies style), so a test
/// overrides only the call it expects and one value can route each plugin to its own form.
public struct PluginCalls {
    /// Runs the handler `action` names (registered by `action.pluginID`) with `invocation`. A
    /// fault in the plugin comes back as a reply with `fault` set, never as a crash of the host.
    public var perform: (_ action: RegisteredAction, _ invocation: Invocation) -> HandlerReply
    /// Asks plugin `pluginID`'s dynamic provider for its items in `locale`.
    public var provide: (_ pluginID: String, _ locale: String) -> Result<[ShortcutItem], ProviderFailure>
    /// Asks `entity` one query in `locale`.
    public var query: (_ entity: EntityProvider, _ query: EntityQuery, _ locale: String)
        -> Result<[EntityValue], EntityFailure>

    public init(perform: @escaping (_ action: RegisteredAction, _ invocation: Invocation) -> HandlerReply,
                provide: @escaping (_ pluginID: String, _ locale: String) -> Result<[ShortcutItem], ProviderFailure>,
                query: @escaping (_ entity: EntityProvider, _ query: EntityQuery, _ locale: String)
                    -> Result<[EntityValue], EntityFailure>) {
        self.perform = perform
        self.provide = provide
        self.query = query
    }

    /// Calls for a set with no plugins: each answers that nothing is loaded.
    public static var none: PluginCalls {
        PluginCalls(
            perform: { action, _ in HandlerReply(status: -1, fault: HostText.Phrase("fault.notRegistered", ["type": action.type])) },
            provide: { pluginID, _ in .failure(ProviderFailure(HostText.Phrase("provider.notLoaded", ["plugin": pluginID]))) },
            query: { entity, _, _ in
                .failure(EntityFailure(HostText.Phrase("entityFailure.notLoaded", ["plugin": entity.pluginID, "entity": entity.record.title.lowercased()])))
            })
    }
}

/// Why a dynamic provider gave no items: one sentence naming the plugin.
public struct ProviderFailure: Error, Sendable, Equatable {
    /// Why, said in the language of the run that shows it.
    public var sentence: HostText.Phrase

    /// A sentence made as text: said as it is in every language.
    public init(message: String) {
        sentence = .verbatim(message)
    }

    public init(_ sentence: HostText.Phrase) {
        self.sentence = sentence
    }

    /// In English, as logs say it.
    public var message: String { sentence.english }

    public func message(in language: String) -> String { sentence.text(in: language) }
}
