import Foundation
import Logging
import StandFitHost
import Testing
import TestSupport
import HostModel
@testable import PluginRuntime
import HostDispatch

/// A swift-log backend that keeps lines, to check the loader's diagnostics word for word.
final class LogLines: @unchecked Sendable {
    // Rationale for @unchecked Sendable: the lock guards `lines`, the only mutable state.
    private let lock = NSLock()
    private var storage: [String] = []

    var lines: [String] { lock.withLock { storage } }

    func append(_ line: String) { lock.withLock { storage.append(line) } }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(sink: self) }
    }

    struct Handler: LogHandler {
        let sink: LogLines
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            sink.append("\(event.level): \(event.message)")
        }
    }
}

/// Loads real plugins: the two examples built by SwiftPM and C fixtures built by the test.
@Suite("Loading real plugins", .timeLimit(.minutes(10)), .serialized)
struct PluginLoadingTests {
    let log = LogLines()
    let paths = HostPaths(environment: [:], homeDirectory: makeTemporaryDirectory().path)

    func load(_ files: [URL]) -> PluginSet {
        PluginLoader(searchPath: files, paths: paths, logger: log.logger).load()
    }

    func run(_ plugins: PluginSet, _ type: String, _ arguments: [String] = [], items: [ShortcutItem]? = nil,
             showsData: Bool = true) -> Outcome {
        Dispatcher(registry: plugins.registry, items: items ?? plugins.staticItems, locale: "en_GB", calls: plugins.calls)
            .run(type, arguments: arguments.compactMap(NamedArgument.init(parsing:)),
                 options: Dispatcher.RunOptions(showsData: showsData))
    }

    @Test("the C example: string, int64, bool and an optional string passed as NULL")
    func cExample() {
        let plugins = load([Fixtures.cExamplePlugin])
        #expect(plugins.refusals == [])
        #expect(plugins.plugins.map(\.id) == ["com.example.hello"])
        #expect(plugins.plugins.first?.types == ["com.example.hello.greet", "com.example.hello.pace"])
        #expect(run(plugins, "com.example.hello.greet", ["name=Ada", "times=2", "shout=yes"]).message == "HELLO, ADA! HELLO, ADA!")
        #expect(run(plugins, "com.example.hello.greet", ["name=Ada", "suffix=?"]).message == "Hello, Ada?")
        let pace = run(plugins, "pace", ["km=5", "minutes=27.5"])
        #expect(pace.message == "5.00 km in 27.50 min is 5:30 min/km")
        #expect(pace.data?.value == .object(["minutesPerKm": .double(5.5)]))
        #expect(run(plugins, "pace", ["km=0", "minutes=1"]) == Outcome(
            status: .invalidInput, type: "com.example.hello.pace", message: "km: expected a distance above 0",
            plugin: "com.example.hello"))
    }

    @Test("the Swift example: Int, Double, Bool, String, optionals and defaults through libffi closures")
    func swiftExample() {
        let plugins = load([Fixtures.swiftExamplePlugin])
        #expect(plugins.refusals == [])
        #expect(plugins.plugins.map(\.types) == [["com.example.greeter.greet", "com.example.greeter.tip"]])
        let greet = plugins.registry.action(exactly: "com.example.greeter.greet")
        #expect(greet?.parameters == [
            ParameterSpec(name: "name", kind: .string, required: true, title: "Name"),
            ParameterSpec(name: "times", kind: .int64, defaultValue: .int64(1), title: "Times", range: 1...5),
            ParameterSpec(name: "excited", kind: .bool, defaultValue: .bool(false), title: "Excited"),
            ParameterSpec(name: "greeting", kind: .string, title: "Greeting"),
        ])
        #expect(run(plugins, "com.example.greeter.greet", ["name=Ada"]).message == "Hello, Ada.")
        #expect(run(plugins, "com.example.greeter.greet", ["name=Ada", "times=3", "excited=true", "greeting=Hoi"]).message
            == "Hoi, Ada! Hoi, Ada! Hoi, Ada!")
        #expect(run(plugins, "com.example.greeter.greet", ["name=Ada", "times=9"]).status == .invalidInput)
        let tip = run(plugins, "tip", ["amount=42.50", "people=3"])
        #expect(tip.message == "Total with 15% tip: 48.88, or 16.29 each for 3 people")
        #expect(tip.data?.value == .object(["total": .double(48.88), "perPerson": .double(16.29), "people": .int(3)]))
        #expect(run(plugins, "tip", ["amount=10", "percent=0"]).message == "Total with 0% tip: 10.00")
        #expect(plugins.staticItems == [
            ShortcutItem(type: "com.example.greeter.greet", title: "Greet the World", icon: "globe",
                         userInfo: ["name": .string("World")], source: .static, origin: "com.example.greeter"),
        ])
        #expect(run(plugins, "greet").message == "Hello, World.")
    }

    @Test("every kind crosses exactly, and absent optionals arrive as zero values with their bit clear")
    func everyKind() throws {
        let plugins = try load([FixturePlugins.url("kinds.so")])
        #expect(run(plugins, "echo", ["flag=false", "number=-9223372036854775808", "ratio=0.1", "text=héllo wörld", "note="]).message
            == #"flag=false number=-9223372036854775808 ratio=0.10000000000000001 text=[héllo wörld] note=[] provided=0x1f type=com.fixture.kinds.echo locale=en_GB userInfo={"flag":true,"note":"from userInfo","number":7}"#)
        let noItems = run(plugins, "echo", ["flag=1", "number=9223372036854775807"], items: [])
        #expect(noItems.message == "flag=true number=9223372036854775807 ratio=0.5 text=[plain] note=NULL provided=0x0f type=com.fixture.kinds.echo locale=en_GB userInfo={}")
        #expect(run(plugins, "echo").message
            == #"flag=true number=7 ratio=0.5 text=[plain] note=[from userInfo] provided=0x1f type=com.fixture.kinds.echo locale=en_GB userInfo={"flag":true,"note":"from userInfo","number":7}"#)
    }

    @Test("namespace handlers, statuses and bad data from a real plugin")
    func namespaceAndStatuses() throws {
        let plugins = try load([FixturePlugins.url("kinds.so")])
        #expect(run(plugins, "com.fixture.open.anything.at.all").message == "opened com.fixture.open.anything.at.all")
        #expect(run(plugins, "status", ["code=1", "message=Not now."]).status == .declined)
        #expect(run(plugins, "status", ["code=3", "message=Disk full."]).message == "Plugin 'com.fixture.kinds' failed to run com.fixture.kinds.status: Disk full.")
        #expect(run(plugins, "status", ["code=-7"]).message == "Plugin 'com.fixture.kinds' returned status -7 from com.fixture.kinds.status, which is not a STANDFIT_STATUS_* code; report this to the plugin's author.")
        #expect(run(plugins, "baddata").message == "Plugin 'com.fixture.kinds' attached data that is not valid JSON while running com.fixture.kinds.baddata; report this to the plugin's author.")
        // Data no surface shows is still checked: the run fails the same way without --json.
        #expect(run(plugins, "baddata", showsData: false) == run(plugins, "baddata"))
    }

    @Test("a context kept past its call answers STANDFIT_ERR_UNSUPPORTED, does nothing and reads empty")
    func staleContext() throws {
        let plugins = try load([FixturePlugins.url("kinds.so")])
        #expect(run(plugins, "com.fixture.kinds.stale").message == "first call")
        for _ in 0..<3 {
            #expect(run(plugins, "com.fixture.kinds.stale").message == "late call: -4, type []")
        }
    }

    @Test("standfit.reply/1 tells a handler whether its data is shown, and data not shown is dropped")
    func replyExtension() throws {
        let plugins = try load([FixturePlugins.url("kinds.so")])
        let shown = run(plugins, "com.fixture.kinds.shown")
        #expect(shown.message == "shows data: 1")
        #expect(shown.data?.value == .object(["shown": .int(1)]))
        let hidden = run(plugins, "com.fixture.kinds.shown", showsData: false)
        #expect(hidden.status == .handled)
        #expect(hidden.message == "shows data: 0")
        #expect(hidden.data == nil)
    }

    @Test("a type registered twice: the first plugin keeps it, and the diagnostic names both")
    func duplicates() throws {
        let kinds = try FixturePlugins.url("kinds.so"), duplicate = try FixturePlugins.url("duplicate.so")
        let plugins = load([kinds, duplicate])
        #expect(plugins.plugins.map(\.id) == ["com.fixture.kinds", "com.fixture.duplicate"])
        #expect(plugins.plugins.last?.types == ["com.fixture.dup.twice"])
        #expect(plugins.registry.action(exactly: "com.fixture.kinds.echo")?.pluginID == "com.fixture.kinds")
        #expect(log.lines == [
            "warning: Shortcut type 'com.fixture.kinds.echo' is registered by both 'com.fixture.kinds' (\(kinds.path)) and 'com.fixture.duplicate' (\(duplicate.path)); 'com.fixture.kinds' loaded first and keeps it, so remove one of the two or change its type.",
            "warning: Plugin 'com.fixture.duplicate' (\(duplicate.path)) registers shortcut type 'com.fixture.dup.twice' twice, and the first registration is kept; give the other action a type of its own.",
        ])
    }

    @Test("refusals name the file and the fix, and the other plugins still load", arguments: [
        ("abi-major2.so", "was built for ABI 2.x; this host speaks 1.x; rebuild it against standfit_plugin.h 1.0."),
        ("abi-minor9.so", "was built for ABI 1.9, newer than this host's 1.0; update standfit-host or rebuild the plugin against ABI 1.0."),
        ("abi-short.so", "declares a table of 12 bytes where ABI 1.0 needs at least 56; rebuild it against standfit_plugin.h."),
        ("abi-noentry.so", "does not export standfit_plugin_entry_v1; export it with STANDFIT_EXPORT (C) or @_cdecl(\"standfit_plugin_entry_v1\") (Swift)."),
    ])
    func refusals(file: String, reason: String) throws {
        let bad = try FixturePlugins.url(file)
        let plugins = try load([bad, FixturePlugins.url("abi-ok.so")])
        #expect(plugins.refusals == [PluginRefusal(path: bad.path, reason: "Plugin \(bad.path) \(reason)")])
        #expect(plugins.plugins.map(\.id) == ["com.fixture.abi"])
    }

    @Test("a file that is not a shared library is refused before dlopen, in plain words")
    func notALibrary() throws {
        let directory = makeTemporaryDirectory()
        let text = directory.appendingPathComponent("notes.so")
        try Data(String(repeating: "not a shared library, just text\n", count: 4).utf8).write(to: text)
        let plugins = load([directory])
        #expect(plugins.refusals == [PluginRefusal(path: text.path, reason: "Plugin \(text.path) is not a shared library (it does not start with an ELF header); rebuild it as a shared library for this machine or remove it from the plugin path.")])
    }

    @Test("a plugin rewritten in place, its size and modification time put back, has its header read again")
    func headerReadAgainAfterRewrite() throws {
        let directory = makeTemporaryDirectory()
        let plugin = directory.appendingPathComponent("abi.so")
        try FileManager.default.copyItem(at: FixturePlugins.url("abi-ok.so"), to: plugin)
        #expect(throws: Never.self) { try PluginVetting.vet(file: plugin.path).get() }
        var before = stat()
        #expect(stat(plugin.path, &before) == 0)
        // The first bytes overwritten, the size kept and the modification time set back: only
        // the change time tells (a header verdict kept by the file's stat must see it).
        let handle = try FileHandle(forWritingTo: plugin)
        try handle.write(contentsOf: Data(repeating: 0x20, count: 64))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, plugin.path, &times, 0) == 0)
        var after = stat()
        #expect(stat(plugin.path, &after) == 0)
        #expect(after.st_size == before.st_size && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        guard case .failure(let refusal) = PluginVetting.vet(file: plugin.path) else {
            Issue.record("the rewritten plugin was not refused")
            return
        }
        #expect(refusal.reason == "Plugin \(plugin.path) is not a shared library (it does not start with an ELF header); rebuild it as a shared library for this machine or remove it from the plugin path.")
    }

    @Test("a directory loads its .so files by name, once per inode, skipping other files")
    func directoryScan() throws {
        let directory = makeTemporaryDirectory()
        let kinds = try FixturePlugins.url("kinds.so")
        try FileManager.default.copyItem(at: kinds, to: directory.appendingPathComponent("b.so"))
        try FileManager.default.linkItem(at: directory.appendingPathComponent("b.so"), to: directory.appendingPathComponent("a.so"))
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("c.so"), withDestinationURL: kinds)
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("d.so"),
                                                   withDestinationURL: directory.appendingPathComponent("missing.so"))
        try Data().write(to: directory.appendingPathComponent("README.txt"))
        let loader = PluginLoader(searchPath: [directory], paths: paths, logger: log.logger)
        #expect(loader.candidates().map { URL(fileURLWithPath: $0).lastPathComponent } == ["a.so", "b.so", "c.so", "d.so"])
        let plugins = loader.load()
        #expect(plugins.plugins.map(\.path) == [directory.appendingPathComponent("a.so").path])
        // c.so resolves to the fixture's own inode, a second copy of the same plugin id.
        let c = directory.appendingPathComponent("c.so").path, d = directory.appendingPathComponent("d.so").path
        #expect(plugins.refusals == [
            PluginRefusal(path: c, reason: "Plugin \(c) has id 'com.fixture.kinds', which \(directory.appendingPathComponent("a.so").path) already uses; remove one of the two."),
            PluginRefusal(path: d, reason: "Plugin \(d) is a symbolic link to a file that does not exist; remove the link or reinstall the plugin."),
        ])
    }
}

/// The way out a refusal gives for a failed system call fits the cause: rebuilding a plugin
/// does not help when the host has too many files open or memory ran out.
@Suite("Ways out of system faults", .timeLimit(.minutes(10)))
struct SystemFaultTests {
    @Test("errno values and the dynamic linker's words map to their way out")
    func wayOut() {
        #expect(SystemFault.wayOut(errno: EMFILE)?.english == "the host has too many files open: raise the limit ('ulimit -n') or close other programs, then try again")
        #expect(SystemFault.wayOut(errno: ENOMEM)?.english == "the system is out of memory: close other programs, then try again")
        #expect(SystemFault.wayOut(errno: EACCES)?.english == "check its permissions")
        #expect(SystemFault.wayOut(errno: ENOEXEC) == nil)
        #expect(SystemFault.errno(in: "libx.so: cannot open shared object file: Too many open files") == EMFILE)
        #expect(SystemFault.errno(in: "libx.so: failed to map segment from shared object") == ENOMEM)
        #expect(SystemFault.errno(in: "libx.so: cannot allocate memory in static TLS block") == nil)
        #expect(SystemFault.errno(in: "libx.so: invalid ELF header") == nil)
        #expect(SystemFault.errno(of: CocoaError(.fileReadNoPermission, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EMFILE))])) == EMFILE)
    }
}
