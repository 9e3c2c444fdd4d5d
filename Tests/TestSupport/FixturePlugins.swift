import Foundation

/// A test fixture a tool could not build, thrown when a test asks for it: Swift Testing records
/// a thrown error as one issue and ends the test there, so the test fails once, in the tool's own
/// words, rather than going on with a missing file into failures that say nothing of the build.
public struct FixtureNotBuilt: Error, CustomStringConvertible, Sendable {
    /// The fixture asked for ("crash-init.so").
    public let file: String
    /// The tool's words: which tool, its exit status and what it printed.
    public let failure: String

    public var description: String { "The test fixture \(file) was not built: \(failure)" }
}

/// Fixtures built once per test process, each with what went wrong building it. A fixture a
/// tool could not build fails the tests that ask for it, each with the tool's own words (the
/// `FixtureNotBuilt` thrown when it is asked for), and no other test: nothing here stops the process.
struct BuiltFixtures: Sendable {
    let directory: URL
    /// Why a file could not be built, by file name.
    var failures: [String: String] = [:]

    init(_ prefix: String) {
        directory = makeTemporaryDirectory(prefix)
    }

    /// `file` in the directory; when it failed to build, `FixtureNotBuilt` with why.
    func url(_ file: String) throws -> URL {
        if let failure = failures[file] ?? failures["*"] {
            throw FixtureNotBuilt(file: file, failure: failure)
        }
        return directory.appendingPathComponent(file)
    }

    /// Runs `tool` with `arguments` to build `file`; a failure is kept for `file`.
    mutating func run(_ tool: URL, _ arguments: [String], for file: String, environment: [String: String]? = nil) {
        let result = runProcess(tool, arguments: arguments, environment: environment)
        if result.status != 0 {
            failures[file] = "\(tool.lastPathComponent) exited with status \(result.status): \(result.stderr)\(result.stdout)"
        }
    }
}

/// The plugins of `Tests/Fixtures/Plugins`, compiled once per test process against the real ABI
/// header: the C fixtures with the system C compiler, the zoo's Swift fixture with `swiftc`.
public enum FixturePlugins {
    /// A plugin variant: its file name and how it is compiled.
    struct Variant {
        var file: String
        var source: String
        var flags: [String] = []
    }

    static let variants = [
        Variant(file: "kinds.so", source: "kinds.c"),
        Variant(file: "kinds-v2.so", source: "kinds.c", flags: ["-DFIXTURE_VERSION=\"0.2.0\""]),
        Variant(file: "duplicate.so", source: "duplicate.c"),
        Variant(file: "intents.so", source: "intents.c"),
        Variant(file: "shellbait.so", source: "shellbait.c"),
        Variant(file: "abi-ok.so", source: "abi.c"),
        Variant(file: "abi-major2.so", source: "abi.c", flags: ["-DFIXTURE_MAJOR=2"]),
        Variant(file: "abi-minor9.so", source: "abi.c", flags: ["-DFIXTURE_MINOR=9"]),
        Variant(file: "abi-short.so", source: "abi.c", flags: ["-DFIXTURE_SIZE=12"]),
        Variant(file: "abi-noentry.so", source: "abi.c", flags: ["-DFIXTURE_NO_ENTRY"]),
        // `com.fixture.values.meet` with the defaults `at=12:30` and `with=ada@example.org`
        // (characters bash splits words at) and a bool `remind`: the completion tests'.
        Variant(file: "values.so", source: "values.c"),
    ]

    /// Every compiled variant.
    static let built: BuiltFixtures = {
        var built = BuiltFixtures("standfit-fixture-plugins")
        for variant in variants {
            compileC(variant, into: &built)
        }
        return built
    }()

    /// The compiled fixture named `file` (e.g. "kinds.so"); `FixtureNotBuilt` when it could not be built.
    public static func url(_ file: String) throws -> URL {
        try built.url(file)
    }

    /// For the suite's own rules (TestSuiteRulesTests): the C fixture `source` of
    /// `Tests/Fixtures/Plugins` compiled as `file` with `compiler` and the flags every fixture is
    /// held to, in a directory of its own, on every call (nothing cached); `FixtureNotBuilt`, as
    /// from `url`, when `compiler` fails.
    public static func compiled(_ source: String, as file: String, with compiler: URL) throws -> URL {
        var built = BuiltFixtures("standfit-fixture-rule")
        compileC(Variant(file: file, source: source), into: &built, compiler: compiler)
        return try built.url(file)
    }

    // MARK: - The hostile plugin zoo

    /// The zoo's C variants (`zoo.c`), each named after its `ZOO_ID`. "plain.so" misbehaves in no
    /// way; it is the good plugin the file-level zoo members below are copied from.
    static let zooVariants: [Variant] = [
        zooVariant("plain"),
        zooVariant("crash-init", "-DZOO_INIT_FAULT=ZOO_CRASH"),
        zooVariant("crash-handler", "-DZOO_HANDLER_FAULT=ZOO_CRASH"),
        zooVariant("abort-init", "-DZOO_INIT_FAULT=ZOO_ABORT"),
        zooVariant("abort-handler", "-DZOO_HANDLER_FAULT=ZOO_ABORT"),
        zooVariant("trap-init", "-DZOO_INIT_FAULT=ZOO_TRAP"),
        zooVariant("exit-init", "-DZOO_INIT_FAULT=ZOO_EXIT"),
        zooVariant("exit-handler", "-DZOO_HANDLER_FAULT=ZOO_EXIT"),
        zooVariant("hang-init", "-DZOO_INIT_FAULT=ZOO_HANG"),
        zooVariant("hang-handler", "-DZOO_HANDLER_FAULT=ZOO_HANG"),
        zooVariant("null-entry", "-DZOO_NULL_ENTRY"),
        zooVariant("data-entry", "-DZOO_DATA_ENTRY"),
        zooVariant("late-register", "-DZOO_LATE_REGISTER"),
        zooVariant("bad-status", "-DZOO_BAD_STATUS"),
        zooVariant("bad-utf8", "-DZOO_BAD_UTF8"),
        zooVariant("stdout-noise", "-DZOO_STDOUT"),
        zooVariant("sloppy", "-DZOO_SLOPPY"),
        zooVariant("forge-garbage", "-DZOO_FORGE_GARBAGE"),
        zooVariant("forge-record", "-DZOO_FORGE_RECORD"),
        zooVariant("kill-parent", "-DZOO_KILL_PARENT"),
        zooVariant("kill-host", "-DZOO_KILL_HOST"),
        zooVariant("kill-group", "-DZOO_KILL_GROUP"),
        zooVariant("fork-init", "-DZOO_FORK_INIT"),
        zooVariant("fork-handler", "-DZOO_FORK_HANDLER"),
        zooVariant("escapes", "-DZOO_ESCAPES"),
        zooVariant("big-message", "-DZOO_BIG_MESSAGE=100"),
        zooVariant("provider", "-DZOO_PROVIDER"),
        zooVariant("snoop", "-DZOO_SNOOP"),
        zooVariant("trace", "-DZOO_TRACE"),
        zooVariant("group", "-DZOO_GROUP"),
        zooVariant("pry", "-DZOO_PRY"),
        zooVariant("network", "-DZOO_NETWORK"),
        // 100 lines of 1 KiB on stdout and stderr: 36 KiB more than the host passes on.
        zooVariant("loud", "-DZOO_LOUD=100"),
        zooVariant("deep-json", "-DZOO_DEEP_JSON"),
        zooVariant("escape", "-DZOO_ESCAPE"),
        zooVariant("escape-init", "-DZOO_ESCAPE_INIT"),
        zooVariant("stray-answer", "-DZOO_STRAY_ANSWER"),
        zooVariant("env-in-place", "-DZOO_ENV_IN_PLACE"),
        zooVariant("slow", "-DZOO_SLOW"),
        zooVariant("temp-file", "-DZOO_TEMP_FILE"),
        zooVariant("exec", "-DZOO_EXEC"),
        zooVariant("exec-declared", "-DZOO_EXEC", "-DZOO_DECLARE=\"/bin/true\""),
        zooVariant("exec-declared-bad", "-DZOO_EXEC", "-DZOO_DECLARE=\"/bin/true\"", "-DZOO_DECLARE_BAD"),
        zooVariant("exec-declared-directory", "-DZOO_EXEC", "-DZOO_DECLARE=\"/usr/bin\""),
        zooVariant("impostor-type", "-DZOO_TYPE=\"com.standfit.logexercise\""),
        zooVariant("impostor-id", "-DZOO_PLUGIN_ID=\"com.standfit\""),
        // An untrusted plugin declaring StandFit's own sentences as its phrases.
        zooVariant("phrase-takeover", "-DZOO_PHRASES=\"log twenty squats\",\"log twenty squat\",\"log 20 squats\""),
        // The same through its name: "log twenty squats" read as "twenty squats" in the app "Log".
        zooVariant("name-takeover", "-DZOO_NAME=\"Log\"", "-DZOO_PHRASES=\"twenty squats\",\"twenty squat\",\"20 squats\""),
        // A title that would write lines of its own into a schedule's unit file.
        zooVariant("unit-title", "-DZOO_TITLE=\"Zoo\\r[Service]\\rExecStartPre=/bin/touch /tmp/standfit-unit-title-pwned\\n%h $HOME \\\"q\\\\\""),
        // 6,000 actions and a phrase of eight adjacent placeholders (crowd.c): the host's costs.
        Variant(file: "crowd.so", source: "crowd.c"),
    ]

    private static func zooVariant(_ id: String, _ flags: String...) -> Variant {
        Variant(file: "\(id).so", source: "zoo.c", flags: ["-DZOO_ID=\"\(id)\""] + flags)
    }

    /// The directory holding the compiled zoo: every `zooVariants` file plus the Swift fixture
    /// `zoo_precondition.swift` as "precondition-init.so" and "precondition-handler.so". Kept apart
    /// from `directory` so a test that loads a whole directory never meets the zoo by accident.
    /// A fixture that fails to build fails the tests that ask for it.
    static let zooBuilt: BuiltFixtures = {
        var built = BuiltFixtures("standfit-zoo-plugins")
        for variant in zooVariants {
            compileC(variant, into: &built)
        }
        let swiftFiles = ["precondition-init.so", "precondition-handler.so"]
        guard let swiftc = swiftCompiler else {
            for file in swiftFiles { built.failures[file] = "no swiftc in /opt/swift/usr/bin or on PATH to build the zoo's Swift fixture" }
            return built
        }
        let header = Fixtures.packageRoot.appendingPathComponent("Sources/CStandFitABI/include/standfit_plugin.h")
        let moduleDirectory = makeTemporaryDirectory("standfit-zoo-modulemap")
        let moduleMap = "module CStandFitABI {\n    header \"\(header.path)\"\n    export *\n}\n"
        do {
            try Data(moduleMap.utf8).write(to: moduleDirectory.appendingPathComponent("module.modulemap"))
        } catch {
            for file in swiftFiles { built.failures[file] = "the zoo's module map could not be written: \(error)" }
            return built
        }
        let source = Fixtures.url("Plugins/zoo_precondition.swift").path
        for (file, flags) in [("precondition-init.so", ["-D", "ZOO_INIT_TRAP"]), ("precondition-handler.so", [])] {
            let arguments = ["-emit-library", "-parse-as-library", "-module-name", "ZooPrecondition",
                             "-I", moduleDirectory.path]
                + flags
                + ["-o", built.directory.appendingPathComponent(file).path, source]
            built.run(swiftc, arguments, for: file)
        }
        return built
    }()

    /// The compiled zoo member named `file` (e.g. "crash-init.so"); `FixtureNotBuilt` when it could not be built.
    public static func zoo(_ file: String) throws -> URL {
        try zooBuilt.url(file)
    }

    /// What `plugins` says of the zoo member `name` (its `ZOO_ID`) at `path`, untrusted.
    public static func zooListing(_ name: String, _ path: URL) -> String {
        """
        com.zoo.\(name) 0.1.0 (ABI 1.0): Zoo \(name)
          path: \(path.path)
          types: com.zoo.\(name).run
          runs: in a worker process

        """
    }

    /// Compiles one C variant into `built` with the flags every fixture is held to.
    private static func compileC(_ variant: Variant, into built: inout BuiltFixtures, directory: String = "Plugins",
                                 hidden: Bool = true, compiler: URL = cCompiler) {
        let include = Fixtures.packageRoot.appendingPathComponent("Sources/CStandFitABI/include").path
        let arguments = ["-shared", "-fPIC"] + (hidden ? ["-fvisibility=hidden"] : []) + ["-Wall", "-Werror", "-I", include]
            + variant.flags
            + ["-o", built.directory.appendingPathComponent(variant.file).path,
               Fixtures.url("\(directory)/\(variant.source)").path]
        built.run(compiler, arguments, for: variant.file)
    }

    // MARK: - Plugin authors' mistakes

    /// The C fixtures of `Tests/Fixtures/Mistakes` that build, each compiled as the guide says
    /// (`-fvisibility=hidden`) except "extra-exports.so", which makes the mistake of leaving it
    /// out; and "static-library.so", the good plugin archived with `ar` instead of linked. The
    /// Rust fixture is `rustDylib`; "swapped-arguments.c" does not compile, on purpose.
    static let mistakesBuilt: BuiltFixtures = {
        var built = BuiltFixtures("standfit-mistakes")
        let sources = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Mistakes").path)) ?? []
        for source in sources.sorted() where source.hasSuffix(".c") && source != "swapped-arguments.c" {
            let name = String(source.dropLast(2))
            compileC(Variant(file: "\(name).so", source: source), into: &built, directory: "Mistakes",
                     hidden: name != "extra-exports")
        }
        let include = Fixtures.packageRoot.appendingPathComponent("Sources/CStandFitABI/include").path
        let object = built.directory.appendingPathComponent("good.o").path
        built.run(cCompiler, ["-c", "-fPIC", "-I", include, "-o", object, Fixtures.url("Mistakes/good.c").path],
                  for: "static-library.so")
        if built.failures["static-library.so"] == nil {
            built.run(archiver, ["rcs", built.directory.appendingPathComponent("static-library.so").path, object],
                      for: "static-library.so")
        }
        return built
    }()

    /// The compiled mistake named `file` ("bad-default.so"); `FixtureNotBuilt` when it could not be built.
    public static func mistake(_ file: String) throws -> URL {
        try mistakesBuilt.url(file)
    }

    /// "panics.so": `Tests/Fixtures/Plugins/panics.rs`, a Rust plugin whose handlers panic (one
    /// caught at the boundary, one not), built by rustc as a cdylib.
    static let rustPanicsBuilt = rustc("Plugins/panics.rs", as: "cdylib", into: "panics.so")

    /// `source` built by rustc as `crateType` into `file`.
    private static func rustc(_ source: String, as crateType: String, into file: String) -> BuiltFixtures {
        var built = BuiltFixtures("standfit-rust")
        let linker = cCompiler.path == "/usr/bin/cc" ? [] : ["-C", "linker=\(cCompiler.path)"]
        built.run(ExternalTool.rustc.url, [
            "--edition", "2021", "--crate-type", crateType, "-O", "-o", built.directory.appendingPathComponent(file).path,
        ] + linker + [Fixtures.url(source).path], for: file)
        return built
    }

    /// "panics.so"; `FixtureNotBuilt` when rustc could not build it.
    public static func rustPanics() throws -> URL {
        try rustPanicsBuilt.url("panics.so")
    }

    /// Plugins/Examples/RustTimer built by cargo, offline, in a target directory of its own.
    static let rustTimerBuilt: BuiltFixtures = {
        var built = BuiltFixtures("standfit-rust-timer")
        var environment = ProcessInfo.processInfo.environment
        environment["CARGO_TARGET_DIR"] = built.directory.path
        environment.merge(compilerEnvironment) { $1 }
        let manifest = Fixtures.packageRoot.appendingPathComponent("Plugins/Examples/RustTimer/Cargo.toml").path
        built.run(ExternalTool.cargo.url, ["build", "--release", "--offline", "--quiet", "--manifest-path", manifest],
                  for: "release/librust_timer.so", environment: environment)
        return built
    }()

    /// The RustTimer example's library; `FixtureNotBuilt` when cargo could not build it.
    public static func rustTimer() throws -> URL {
        try rustTimerBuilt.url("release/librust_timer.so")
    }

    /// "rust-dylib.so": `Tests/Fixtures/Mistakes/rust-dylib.rs` built by rustc as crate-type
    /// dylib. Only tests that need `.rustc` ask for it.
    static let rustDylibBuilt = rustc("Mistakes/rust-dylib.rs", as: "dylib", into: "rust-dylib.so")

    /// "rust-dylib.so"; `FixtureNotBuilt` when rustc could not build it.
    public static func rustDylib() throws -> URL {
        try rustDylibBuilt.url("rust-dylib.so")
    }

    /// The C compiler the fixtures are built with: the system's `cc`, else the clang of the Swift
    /// toolchain that builds the host (every machine that runs the tests has one), so that the
    /// README's prerequisites alone are enough to build them.
    public static let cCompiler = systemOrToolchain("/usr/bin/cc", toolchain: "clang")

    /// The archiver for the static-library mistake, as `cCompiler` is the compiler: binutils'
    /// `ar` where the C toolchain is, else the Swift toolchain's own `llvm-ar` (like `cc`, it is
    /// what building anything here takes, not a program a test may skip without).
    public static let archiver = systemOrToolchain("/usr/bin/ar", toolchain: "llvm-ar")

    /// The program at `system` where it is installed, else the one named `toolchain` beside the
    /// Swift compiler that builds the host; `system` when neither is (its run then says why).
    private static func systemOrToolchain(_ system: String, toolchain name: String) -> URL {
        if FileManager.default.isExecutableFile(atPath: system) { return URL(fileURLWithPath: system) }
        if let tool = swiftCompiler?.deletingLastPathComponent().appendingPathComponent(name),
           FileManager.default.isExecutableFile(atPath: tool.path) {
            return tool
        }
        return URL(fileURLWithPath: system)
    }

    /// What make and Rust's tools need where the system has no `cc` (make compiles, and cargo
    /// links, with it): the C compiler above as make's `CC` and cargo's linker; empty where `cc`
    /// is there.
    public static var compilerEnvironment: [String: String] {
        cCompiler.path == "/usr/bin/cc" ? [:] : ["CC": cCompiler.path, "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER": cCompiler.path]
    }

    /// The Swift compiler for the Swift zoo fixture: the toolchain's at /opt/swift, else the first
    /// `swiftc` on `PATH`; nil when there is none.
    public static let swiftCompiler: URL? = {
        let fileManager = FileManager.default
        let candidates = ["/opt/swift/usr/bin"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in candidates where !directory.isEmpty {
            let swiftc = URL(fileURLWithPath: directory).appendingPathComponent("swiftc")
            if fileManager.isExecutableFile(atPath: swiftc.path) { return swiftc }
        }
        return nil
    }()

    // MARK: Zoo members that are files, not compiled plugins

    /// Makes "text.so" in `directory`: a text file with a shared library's name.
    @discardableResult
    public static func textFileNamedSO(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("text.so")
        try Data("this is not a shared library\n".utf8).write(to: url)
        return url
    }

    /// Makes "empty.so" in `directory`: zero bytes.
    @discardableResult
    public static func emptyFile(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("empty.so")
        try Data().write(to: url)
        return url
    }

    /// Makes "other-arch.so" in `directory`: the good "plain.so" with its ELF header claiming
    /// AArch64 (`e_machine`, 2 bytes little-endian at offset 18, set to 183, EM_AARCH64), so the
    /// only thing wrong with it is the machine it was built for.
    @discardableResult
    public static func otherArchitecture(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("other-arch.so")
        try FileManager.default.copyItem(at: zoo("plain.so"), to: url)
        let file = try FileHandle(forUpdating: url)
        defer { try? file.close() }
        let magic = try file.read(upToCount: 4)
        guard magic == Data([0x7F, 0x45, 0x4C, 0x46]) else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path]) }
        try file.seek(toOffset: 18)
        try file.write(contentsOf: Data([183, 0]))
        return url
    }

    /// Makes "dangling.so" in `directory`: a symbolic link to "missing-target.so", which does not
    /// exist.
    @discardableResult
    public static func danglingSymlink(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("dangling.so")
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "missing-target.so")
        return url
    }

    /// Makes "world-writable.so" in `directory`: a copy of the good "plain.so" with mode 0666, so
    /// anyone may replace the code the host would run.
    @discardableResult
    public static func worldWritableFile(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("world-writable.so")
        try FileManager.default.copyItem(at: zoo("plain.so"), to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: url.path)
        return url
    }

    /// Makes the subdirectory "open-dir" of `directory` with mode 0777 (set explicitly, as the umask
    /// would narrow it at creation) and puts "in-open-dir.so", a copy of the good "plain.so", in
    /// it: a plugin that is safe itself in a directory where anyone may swap it. Returns the
    /// plugin's URL.
    @discardableResult
    public static func worldWritableDirectory(in directory: URL) throws -> URL {
        let openDirectory = directory.appendingPathComponent("open-dir", isDirectory: true)
        try FileManager.default.createDirectory(at: openDirectory, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: openDirectory.path)
        let url = openDirectory.appendingPathComponent("in-open-dir.so")
        try FileManager.default.copyItem(at: zoo("plain.so"), to: url)
        return url
    }
}
