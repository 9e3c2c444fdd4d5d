import ArgumentParser
import Foundation
import StandFitHost

struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "Show the plugins on the plugin path: id, version, ABI, path and types."
    )

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let options = HostOptions(environment: ProcessInfo.processInfo.environment,
                                  executableDirectory: Executable.directory)
        let plugins = HostSession.loadPlugins(options: options, logger: global.logger)
        if global.json {
            Output.printJSON(plugins.document)
            return
        }
        if plugins.plugins.isEmpty && plugins.refusals.isEmpty {
            Output.printError("No plugins found; put plugin .so files in \(HostPaths(environment: options.environment).userPluginDirectory.path) or set STANDFIT_PLUGIN_PATH.")
        }
        plugins.textLines.forEach { print($0) }
    }
}
