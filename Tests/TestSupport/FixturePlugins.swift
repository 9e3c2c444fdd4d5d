import Foundation

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
    ]

    /// The directory holding every compiled variant; compiling fails the process loudly.
    public static let directory: URL = {
        let output = makeTemporaryDirectory("standfit-fixture-plugins")
        for variant in variants {
            compileC(variant, into: output)
        }
        return output
    }()

    /// The compiled fixture named `file` (e.g. "kinds.so").
    public static func url(_ file: String) -> URL {
        directory.appendingPathComponent(file)
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
        zooVariant("deep-json", "-DZOO_DEEP_JSON"),
        zooVariant("escape", "-DZOO_ESCAPE"),
        zooVariant("escape-init", "-DZOO_ESCAPE_INIT"),
        zooVariant("stray-answer", "-DZOO_STRAY_ANSWER"),
        zooVariant("env-in-place", "-DZOO_ENV_IN_PLACE"),
        zooVariant("slow", "-DZOO_SLOW"),
        zooVariant("temp-file", "-DZOO_TEMP_FILE"),
        zooVariant("impostor-type", "-DZOO_TYPE=\"com.standfit.logexercise\""),
        zooVariant("impostor-id", "-DZOO_PLUGIN_ID=\"com.standfit\""),
        // 6,000 actions and a phrase of eight adjacent placeholders (crowd.c): the host's costs.
        Variant(file: "crowd.so", source: "crowd.c"),
    ]

    private static func zooVariant(_ id: String, _ flags: String...) -> Variant {
        Variant(file: "\(id).so", source: "zoo.c", flags: ["-DZOO_ID=\"\(id)\""] + flags)
    }

    /// The directory holding the compiled zoo: every `zooVariants` file plus the Swift fixture
    /// `zoo_precondition.swift` as "precondition-init.so" and "precondition-handler.so". Kept apart
    /// from `directory` so a test that loads a whole directory never meets the zoo by accident.
    /// Compiling fails the process loudly.
    public static let zooDirectory: URL = {
        let output = makeTemporaryDirectory("standfit-zoo-plugins")
        for variant in zooVariants {
            compileC(variant, into: output)
        }
        let header = Fixtures.packageRoot.appendingPathComponent("Sources/CStandFitABI/include/standfit_plugin.h")
        let moduleDirectory = makeTemporaryDirectory("standfit-zoo-modulemap")
        let moduleMap = "module CStandFitABI {\n    header \"\(header.path)\"\n    export *\n}\n"
        do {
            try Data(moduleMap.utf8).write(to: moduleDirectory.appendingPathComponent("module.modulemap"))
        } catch {
            preconditionFailure("cannot write the zoo's module map: \(error)")
        }
        let source = Fixtures.url("Plugins/zoo_precondition.swift").path
        for (file, flags) in [("precondition-init.so", ["-D", "ZOO_INIT_TRAP"]), ("precondition-handler.so", [])] {
            let arguments = ["-emit-library", "-parse-as-library", "-module-name", "ZooPrecondition",
                             "-I", moduleDirectory.path]
                + flags
                + ["-o", output.appendingPathComponent(file).path, source]
            let result = runProcess(swiftCompiler, arguments: arguments)
            precondition(result.status == 0, "swiftc failed for \(file): \(result.stderr)")
        }
        return output
    }()

    /// The compiled zoo member named `file` (e.g. "crash-init.so").
    public static func zoo(_ file: String) -> URL {
        zooDirectory.appendingPathComponent(file)
    }

    /// Compiles one C variant into `output` with the flags every fixture is held to.
    private static func compileC(_ variant: Variant, into output: URL, directory: String = "Plugins",
                                 hidden: Bool = true) {
        let include = Fixtures.packageRoot.appendingPathComponent("Sources/CStandFitABI/include").path
        let arguments = ["-shared", "-fPIC"] + (hidden ? ["-fvisibility=hidden"] : []) + ["-Wall", "-Werror", "-I", include]
            + variant.flags
            + ["-o", output.appendingPathComponent(variant.file).path,
               Fixtures.url("\(directory)/\(variant.source)").path]
        let result = runProcess(URL(fileURLWithPath: "/usr/bin/cc"), arguments: arguments)
        precondition(result.status == 0, "cc failed for \(variant.file): \(result.stderr)")
    }

    // MARK: - Plugin authors' mistakes

    /// The C fixtures of `Tests/Fixtures/Mistakes` that build, each compiled as the guide says
    /// (`-fvisibility=hidden`) except "extra-exports.so", which makes the mistake of leaving it
    /// out; and "static-library.so", the good plugin archived with `ar` instead of linked. The
    /// Rust fixture is `rustDylib`; "swapped-arguments.c" does not compile, on purpose.
    public static let mistakesDirectory: URL = {
        let output = makeTemporaryDirectory("standfit-mistakes")
        let sources = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url("Mistakes").path)) ?? []
        for source in sources.sorted() where source.hasSuffix(".c") && source != "swapped-arguments.c" {
            let name = String(source.dropLast(2))
            compileC(Variant(file: "\(name).so", source: source), into: output, directory: "Mistakes",
                     hidden: name != "extra-exports")
        }
        let include = Fixtures.packageRoot.appendingPathComponent("Sources/CStandFitABI/include").path
        let object = output.appendingPathComponent("good.o").path
        let compiled = runProcess(URL(fileURLWithPath: "/usr/bin/cc"),
                                  arguments: ["-c", "-fPIC", "-I", include, "-o", object, Fixtures.url("Mistakes/good.c").path])
        precondition(compiled.status == 0, "cc failed for good.o: \(compiled.stderr)")
        let archived = runProcess(URL(fileURLWithPath: "/usr/bin/ar"),
                                  arguments: ["rcs", output.appendingPathComponent("static-library.so").path, object])
        precondition(archived.status == 0, "ar failed for static-library.so: \(archived.stderr)")
        return output
    }()

    /// The compiled mistake named `file` ("bad-default.so").
    public static func mistake(_ file: String) -> URL {
        mistakesDirectory.appendingPathComponent(file)
    }

    /// "panics.so": `Tests/Fixtures/Plugins/panics.rs`, a Rust plugin whose handlers panic (one
    /// caught at the boundary, one not), built by rustc as a cdylib.
    public static let rustPanics: URL = {
        let output = makeTemporaryDirectory("standfit-rust-panics").appendingPathComponent("panics.so")
        let result = runProcess(ExternalTool.rustc.url, arguments: [
            "--edition", "2021", "--crate-type", "cdylib", "-O", "-o", output.path, Fixtures.url("Plugins/panics.rs").path,
        ])
        precondition(result.status == 0, "rustc failed for panics.so: \(result.stderr)")
        return output
    }()

    /// Plugins/Examples/RustTimer built by cargo, offline, in a target directory of its own.
    public static let rustTimer: URL = {
        let target = makeTemporaryDirectory("standfit-rust-timer")
        var environment = ProcessInfo.processInfo.environment
        environment["CARGO_TARGET_DIR"] = target.path
        let manifest = Fixtures.packageRoot.appendingPathComponent("Plugins/Examples/RustTimer/Cargo.toml").path
        let result = runProcess(ExternalTool.cargo.url, arguments: ["build", "--release", "--offline", "--quiet", "--manifest-path", manifest],
                                environment: environment)
        precondition(result.status == 0, "cargo build failed for RustTimer: \(result.stderr)")
        return target.appendingPathComponent("release/librust_timer.so")
    }()

    /// "rust-dylib.so": `Tests/Fixtures/Mistakes/rust-dylib.rs` built by rustc as crate-type
    /// dylib. Only tests that need `.rustc` ask for it.
    public static let rustDylib: URL = {
        let output = makeTemporaryDirectory("standfit-rust-dylib").appendingPathComponent("rust-dylib.so")
        let result = runProcess(ExternalTool.rustc.url, arguments: [
            "--edition", "2021", "--crate-type", "dylib", "-O", "-o", output.path,
            Fixtures.url("Mistakes/rust-dylib.rs").path,
        ])
        precondition(result.status == 0, "rustc failed for rust-dylib.so: \(result.stderr)")
        return output
    }()

    /// The Swift compiler for the Swift zoo fixture: the toolchain's at /opt/swift, else the first
    /// `swiftc` on `PATH`.
    public static let swiftCompiler: URL = {
        let fileManager = FileManager.default
        let candidates = ["/opt/swift/usr/bin"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in candidates where !directory.isEmpty {
            let swiftc = URL(fileURLWithPath: directory).appendingPathComponent("swiftc")
            if fileManager.isExecutableFile(atPath: swiftc.path) { return swiftc }
        }
        preconditionFailure("no swiftc in /opt/swift/usr/bin or on PATH to build the zoo's Swift fixture")
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
        precondition(magic == Data([0x7F, 0x45, 0x4C, 0x46]), "plain.so is not an ELF file")
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
