import ArgumentParser
import HostServer
import PluginRuntime

/// The hidden mode the host scans plugins in (a helper process): it talks over the result pipe, not to people.
struct ScanHelperCommand: HostCommand {
    static let traits = CommandTraits.process

    static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "scan-helper", abstract: Usage.words("help.scan-helper"), shouldDisplay: false) }

    @Flag(name: .shortAndLong) var verbose = false

    func run() throws {
        let status = ScanHelper.serve(request: .current, logger: GlobalOptions.logger(verbose: verbose))
        if status != 0 { throw ExitCode(status) }
    }
}
