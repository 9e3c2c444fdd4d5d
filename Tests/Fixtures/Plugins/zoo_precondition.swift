// Test fixture: a zoo plugin written in Swift straight against standfit_plugin.h (no PluginAPI), to
// show what a failed Swift precondition does to the host: it traps (SIGILL on x86_64) after
// printing "Fatal error: ..." to stderr. Compiled twice: with -D ZOO_INIT_TRAP it fails in init,
// otherwise in its one handler. The test provides the CStandFitABI module map.
import CStandFitABI
import Glibc

#if ZOO_INIT_TRAP
private let pluginID = "com.zoo.precondition-init"
#else
private let pluginID = "com.zoo.precondition-handler"
#endif

/// Fails on purpose; the condition depends on a runtime value so the compiler cannot fold it.
private func failPrecondition() {
    precondition(CommandLine.argc < 0, "zoo: precondition failed on purpose")
}

/// A copy of `text` in C memory that lives for the process, as the ABI requires of its strings.
private func permanent(_ text: String) -> UnsafePointer<CChar> {
    guard let copy = strdup(text) else { fatalError("zoo: out of memory") }
    return UnsafePointer(copy)
}

/// The header of a table of type `T`; `stride` is what C's `sizeof` says for an imported struct.
private func header<T>(_: T.Type) -> standfit_abi_header {
    standfit_abi_header(abi_major: UInt32(STANDFIT_ABI_MAJOR), abi_minor: UInt32(STANDFIT_ABI_MINOR),
                        struct_size: UInt32(MemoryLayout<T>.stride))
}

/// The handler of "<id>.run".
private let run: @convention(c) (UnsafePointer<standfit_invocation>?) -> Int32 = { context in
#if !ZOO_INIT_TRAP
    failPrecondition()
#endif
    guard let context else { return STANDFIT_STATUS_FAILED }
    _ = context.pointee.set_message(context, "zoo precondition ran")
    return STANDFIT_STATUS_HANDLED
}

/// The one action; made once, on first use, and never freed. Only read after that, so it may be
/// shared (nonisolated(unsafe) keeps the file clean in the Swift 6 language mode too).
nonisolated(unsafe) private let action: UnsafePointer<standfit_action> = {
    let table = UnsafeMutablePointer<standfit_action>.allocate(capacity: 1)
    table.initialize(to: standfit_action(
        abi: header(standfit_action.self),
        type: permanent(pluginID + ".run"),
        title: permanent("Run precondition"),
        subtitle: nil,
        icon: nil,
        params: nil,
        param_count: 0,
        handler: unsafeBitCast(run, to: standfit_handler_fn.self)))
    return UnsafePointer(table)
}()

/// `init` of the entry table.
private let pluginInit: @convention(c) (UnsafePointer<standfit_host>?) -> Int32 = { host in
#if ZOO_INIT_TRAP
    failPrecondition()
#endif
    guard let host, let register = host.pointee.register_action else { return STANDFIT_ERR_INVALID_ARGUMENT }
    _ = register(host, action)
    return STANDFIT_OK
}

/// The entry table; made once, on first use, and never freed. Only read after that.
nonisolated(unsafe) private let entry: UnsafePointer<standfit_plugin_entry> = {
    let table = UnsafeMutablePointer<standfit_plugin_entry>.allocate(capacity: 1)
    table.initialize(to: standfit_plugin_entry(
        abi: header(standfit_plugin_entry.self),
        id: permanent(pluginID),
        name: permanent("Zoo precondition"),
        version: permanent("0.1.0"),
        init: pluginInit,
        get_extension: nil))
    return UnsafePointer(table)
}()

@_cdecl("standfit_plugin_entry_v1")
public func standfitPluginEntry() -> UnsafePointer<standfit_plugin_entry>? { entry }
