/// The SDK's process-wide state: which plugin this library exports and the host it talks to.
///
/// Rationale for `nonisolated(unsafe)`: every plugin library carries its own copy of this SDK,
/// and the ABI lets the host call a plugin only on its main thread (see `standfit_plugin.h`),
/// so these are written during the entry call and `init`, and read later on that same thread.
enum SDKState {
    nonisolated(unsafe) static var pluginType: (any Plugin.Type)?
    nonisolated(unsafe) static var entry: UnsafePointer<standfit_plugin_entry>?
    nonisolated(unsafe) static var host: PluginHost?
    nonisolated(unsafe) static var preparedActions: [PreparedAction]?
}
