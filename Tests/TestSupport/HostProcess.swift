import Foundation

/// What a finished process printed and how it exited.
public struct ProcessResult: Sendable, Equatable, CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    public var description: String {
        "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
    }
}

/// Runs `executable` to completion with `arguments` and exactly `environment`.
public func runProcess(_ executable: URL, arguments: [String], environment: [String: String]? = nil,
                       stdin: String? = nil) -> ProcessResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe(), error = Pipe(), input = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = input
    do {
        try process.run()
    } catch {
        return ProcessResult(status: -1, stdout: "", stderr: "could not start \(executable.path): \(error)")
    }
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a chatty process cannot block on a full pipe.
    let group = DispatchGroup()
    nonisolated(unsafe) var errorData = Data()
    group.enter()
    DispatchQueue.global().async {
        errorData = error.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: outputData, as: UTF8.self),
                         stderr: String(decoding: errorData, as: UTF8.self))
}

/// `standfit-host` run against a private home: its own XDG directories and plugin path.
public struct HostSandbox: Sendable {
    public let root: URL
    public var pluginPath: [URL]
    public var extraEnvironment: [String: String] = [:]

    /// A sandbox whose plugin path holds the two example plugins.
    public init(pluginPath: [URL] = [Fixtures.swiftExamplePlugin, Fixtures.cExamplePlugin]) {
        root = makeTemporaryDirectory("standfit-e2e")
        self.pluginPath = pluginPath
    }

    /// A sandbox with only the built StandFit plugin, at a fixed instant and zone: Sunday
    /// 22 November 2026, 14:05 in Amsterdam.
    public static func standFit() -> HostSandbox {
        var sandbox = HostSandbox(pluginPath: [Fixtures.standFitPlugin])
        sandbox.extraEnvironment = ["TZ": "Europe/Amsterdam", "STANDFIT_NOW": "2026-11-22T13:05:00Z"]
        return sandbox
    }

    public var configDirectory: URL { root.appendingPathComponent("config/standfit") }

    public var environment: [String: String] {
        var environment = [
            "HOME": root.path,
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
            "STANDFIT_PLUGIN_PATH": pluginPath.map(\.path).joined(separator: ":"),
            "LANG": "C",
            "PATH": "/usr/bin:/bin",
        ]
        environment.merge(extraEnvironment) { $1 }
        return environment
    }

    /// Runs the built `standfit-host` with `arguments`.
    public func run(_ arguments: String...) -> ProcessResult {
        run(arguments)
    }

    public func run(_ arguments: [String], stdin: String? = nil) -> ProcessResult {
        runProcess(Fixtures.hostBinary, arguments: arguments, environment: environment, stdin: stdin)
    }

    /// `$XDG_DATA_HOME` of the sandbox.
    public var dataHome: URL { root.appendingPathComponent("data") }
}

extension HostSandbox {
    /// A sandbox with `plugins` on its path and short deadlines in `config.json`: one second to
    /// scan a plugin and one for a handler in a worker, so hanging plugins are found quickly.
    public static func zoo(_ plugins: [URL]) -> HostSandbox {
        let sandbox = HostSandbox(pluginPath: plugins)
        sandbox.writeConfig(#"{"scanTimeout": 1, "handlerTimeout": 1}"#)
        return sandbox
    }

    /// Writes `config.json`.
    public func writeConfig(_ json: String) {
        try? FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
        try? Data(json.utf8).write(to: configDirectory.appendingPathComponent("config.json"))
    }

    /// `PRAGMA integrity_check` of the host's state database, "ok" when it is sound.
    public func stateIntegrity() -> String {
        let file = dataHome.appendingPathComponent("standfit/state.sqlite")
        return runProcess(ExternalTool.sqlite3.url, arguments: [file.path, "PRAGMA integrity_check;"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The registry cache file.
    public var registryCache: URL { root.appendingPathComponent("cache/standfit/registry.sqlite") }
}
