import CStandFitABI
import Foundation
import HostModel

/// The `standfit_host` table handed to a plugin's init: one per plugin, so that `host_data`
/// says which plugin is calling. Allocated once and never freed: a plugin may keep it.
package enum HostTable {
    package static let version = "1.0.0"

    static func make(for registrar: PluginRegistrar) -> UnsafePointer<standfit_host> {
        let table = UnsafeMutablePointer<standfit_host>.allocate(capacity: 1)
        table.initialize(to: standfit_host(
            abi: .host(for: standfit_host.self),
            host_version: hostVersion,
            host_data: Unmanaged.passRetained(registrar).toOpaque(),
            log: log, register_action: registerAction, register_static_item: registerStaticItem,
            register_dynamic_provider: registerProvider, data_directory: dataDirectory,
            get_extension: getExtension))
        return UnsafePointer(table)
    }

    /// Rationale for `nonisolated(unsafe)`: written once here, never changed, read by plugins.
    nonisolated(unsafe) private static let hostVersion = UnsafePointer(strdup(version))
}

/// `standfit_host.log`.
private let log: @convention(c) (UnsafePointer<standfit_host>?, Int32, UnsafePointer<CChar>?) -> Void = { host, level, message in
    guard let registrar = PluginRegistrar.from(host), let message else { return }
    registrar.log(level: level, message: CText.string(message) ?? String(decoding: Data(bytes: message, count: strlen(message)), as: UTF8.self))
}

/// `standfit_host.register_action`.
private let registerAction: @convention(c) (UnsafePointer<standfit_host>?, UnsafePointer<standfit_action>?) -> Int32 = { host, action in
    ScanTrace.within("register_action") { PluginRegistrar.from(host)?.registerAction(action) ?? STANDFIT_ERR_INVALID_ARGUMENT }
}

/// `standfit_host.register_static_item`.
private let registerStaticItem: @convention(c) (UnsafePointer<standfit_host>?, UnsafePointer<standfit_item>?) -> Int32 = { host, item in
    ScanTrace.within("register_static_item") { PluginRegistrar.from(host)?.registerStaticItem(item) ?? STANDFIT_ERR_INVALID_ARGUMENT }
}

/// `standfit_host.register_dynamic_provider`.
private let registerProvider: @convention(c) (UnsafePointer<standfit_host>?, UnsafePointer<standfit_dynamic_provider>?) -> Int32 = { host, provider in
    ScanTrace.within("register_dynamic_provider") { PluginRegistrar.from(host)?.registerProvider(provider) ?? STANDFIT_ERR_INVALID_ARGUMENT }
}

/// `standfit_host.data_directory`.
private let dataDirectory: @convention(c) (UnsafePointer<standfit_host>?) -> UnsafePointer<CChar>? = { host in
    PluginRegistrar.from(host)?.dataDirectoryPath()
}

/// `standfit_host.get_extension`: `standfit.locale/1`; anything else is NULL.
private let getExtension: @convention(c) (UnsafePointer<standfit_host>?, UnsafePointer<CChar>?) -> UnsafeRawPointer? = { host, id in
    guard let registrar = PluginRegistrar.from(host), let id else { return nil }
    return registrar.hostExtension(String(cString: id))
}

/// The `standfit.action-traits/1` and `/2` tables: the same function for every plugin, which
/// finds its plugin through `host_data`; /2 knows one bit more.
enum ActionTraitsTable {
    static func make() -> UnsafePointer<standfit_action_traits_ext> {
        table { host, type, traits in ActionTraitsTable.set(host, type, traits, revision: 1) }
    }

    static func makeSecond() -> UnsafePointer<standfit_action_traits_ext> {
        table { host, type, traits in ActionTraitsTable.set(host, type, traits, revision: 2) }
    }

    private static func table(_ set: standfit_action_traits_ext.Setter) -> UnsafePointer<standfit_action_traits_ext> {
        let table = UnsafeMutablePointer<standfit_action_traits_ext>.allocate(capacity: 1)
        table.initialize(to: standfit_action_traits_ext(abi: .host(for: standfit_action_traits_ext.self), set_action_traits: set))
        return UnsafePointer(table)
    }

    private static func set(_ host: UnsafePointer<standfit_host>?, _ type: UnsafePointer<CChar>?, _ traits: UInt32, revision: Int) -> Int32 {
        ScanTrace.within("set_action_traits") {
            PluginRegistrar.from(host)?.setActionTraits(type: type, traits: traits, revision: revision) ?? STANDFIT_ERR_INVALID_ARGUMENT
        }
    }
}

extension standfit_action_traits_ext {
    typealias Setter = @convention(c) (UnsafePointer<standfit_host>?, UnsafePointer<CChar>?, UInt32) -> Int32
}

/// The `standfit.parameter-traits/1` table: the same function for every plugin, which finds its
/// plugin through `host_data`.
enum ParameterTraitsTable {
    static func make() -> UnsafePointer<standfit_parameter_traits_ext> {
        let table = UnsafeMutablePointer<standfit_parameter_traits_ext>.allocate(capacity: 1)
        table.initialize(to: standfit_parameter_traits_ext(
            abi: .host(for: standfit_parameter_traits_ext.self),
            set_parameter_traits: { host, type, param, traits in
                ScanTrace.within("set_parameter_traits") {
                    PluginRegistrar.from(host)?.setParameterTraits(type: type, param: param, traits: traits) ?? STANDFIT_ERR_INVALID_ARGUMENT
                }
            }))
        return UnsafePointer(table)
    }
}

/// The `standfit.parameter-checks/1` table: `set_parameter_range` finds its plugin through
/// `host_data`, `set_invalid_parameter` its call through the context.
enum ParameterChecksTable {
    static func make() -> UnsafePointer<standfit_parameter_checks_ext> {
        let table = UnsafeMutablePointer<standfit_parameter_checks_ext>.allocate(capacity: 1)
        table.initialize(to: standfit_parameter_checks_ext(
            abi: .host(for: standfit_parameter_checks_ext.self),
            set_parameter_range: { host, type, param, minimum, maximum in
                ScanTrace.within("set_parameter_range") {
                    PluginRegistrar.from(host)?.setParameterRange(type: type, param: param, minimum: minimum, maximum: maximum)
                        ?? STANDFIT_ERR_INVALID_ARGUMENT
                }
            },
            set_invalid_parameter: { context, param in
                guard let collector = ReplyCollector.from(context) else { return ReplyCollector.refusal(context) }
                guard let name = CText.string(param), collector.parameterNames.contains(name) else {
                    collector.warnings.append(HostText.Phrase("handlerWarning.notParameter", ["name": CText.quoted(param),
                                                                                              "parameters": collector.parameterNames.joined(separator: ", ")]))
                    return STANDFIT_ERR_INVALID_ARGUMENT
                }
                collector.invalidParameter = name
                return STANDFIT_OK
            }))
        return UnsafePointer(table)
    }
}

/// The `standfit.programs/1` table: the same function for every plugin, which finds its plugin
/// through `host_data`.
enum ProgramsTable {
    static func make() -> UnsafePointer<standfit_programs_ext> {
        let table = UnsafeMutablePointer<standfit_programs_ext>.allocate(capacity: 1)
        table.initialize(to: standfit_programs_ext(
            abi: .host(for: standfit_programs_ext.self),
            declare_program: { host, path in
                ScanTrace.within("declare_program") {
                    PluginRegistrar.from(host)?.declareProgram(path) ?? STANDFIT_ERR_INVALID_ARGUMENT
                }
            }))
        return UnsafePointer(table)
    }
}

/// The `standfit.clock/1` table.
enum ClockTable {
    static func make() -> UnsafePointer<standfit_clock_ext> {
        let table = UnsafeMutablePointer<standfit_clock_ext>.allocate(capacity: 1)
        table.initialize(to: standfit_clock_ext(
            abi: .host(for: standfit_clock_ext.self),
            now: { _ in RunClock.now().timeIntervalSince1970 }))
        return UnsafePointer(table)
    }
}

/// The run's "now" where plugin code runs: `STANDFIT_NOW` from the environment the call runs in
/// (a worker takes on each call's environment, so it is the request's), else the system clock,
/// as `HostRequest.clock` reads it for the host's own side of the request.
enum RunClock {
    static func now() -> Date {
        guard let fixed = getenv("STANDFIT_NOW").flatMap({ String(validatingCString: $0) }) else { return Date() }
        // An instant that does not read is refused by the command that asked for the time; a
        // plugin asking meanwhile gets the system clock rather than a made-up one.
        return ISO8601DateFormatter().date(from: fixed) ?? Date()
    }
}

/// The `standfit.intents/1` table: the same functions for every plugin, which find their
/// plugin through `host_data`.
enum IntentsTable {
    static func make() -> UnsafePointer<standfit_intents_ext> {
        let table = UnsafeMutablePointer<standfit_intents_ext>.allocate(capacity: 1)
        table.initialize(to: standfit_intents_ext(
            abi: .host(for: standfit_intents_ext.self),
            register_entity: { host, entity in
                ScanTrace.within("register_entity") { PluginRegistrar.from(host)?.registerEntity(entity) ?? STANDFIT_ERR_INVALID_ARGUMENT }
            },
            set_parameter_entity: { host, type, param, entity in
                ScanTrace.within("set_parameter_entity") {
                    PluginRegistrar.from(host)?.setParameterEntity(type: type, param: param, entity: entity)
                        ?? STANDFIT_ERR_INVALID_ARGUMENT
                }
            },
            set_parameter_choices: { host, type, param, values, count in
                ScanTrace.within("set_parameter_choices") {
                    PluginRegistrar.from(host)?.setParameterChoices(type: type, param: param, values: values, count: count)
                        ?? STANDFIT_ERR_INVALID_ARGUMENT
                }
            },
            set_parameter_prompt: { host, type, param, prompt in
                ScanTrace.within("set_parameter_prompt") {
                    PluginRegistrar.from(host)?.setParameterPrompt(type: type, param: param, prompt: prompt)
                        ?? STANDFIT_ERR_INVALID_ARGUMENT
                }
            },
            register_phrase: { host, type, language, phrase in
                ScanTrace.within("register_phrase") {
                    PluginRegistrar.from(host)?.registerPhrase(type: type, language: language, phrase: phrase)
                        ?? STANDFIT_ERR_INVALID_ARGUMENT
                }
            }))
        return UnsafePointer(table)
    }
}
