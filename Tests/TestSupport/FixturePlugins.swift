import Foundation

/// The C plugins of `Tests/Fixtures/Plugins`, compiled once per test process with the system C
/// compiler against the real ABI header.
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
        Variant(file: "abi-ok.so", source: "abi.c"),
        Variant(file: "abi-major2.so", source: "abi.c", flags: ["-DFIXTURE_MAJOR=2"]),
        Variant(file: "abi-minor9.so", source: "abi.c", flags: ["-DFIXTURE_MINOR=9"]),
        Variant(file: "abi-short.so", source: "abi.c", flags: ["-DFIXTURE_SIZE=12"]),
        Variant(file: "abi-noentry.so", source: "abi.c", flags: ["-DFIXTURE_NO_ENTRY"]),
    ]

    /// The directory holding every compiled variant; compiling fails the process loudly.
    public static let directory: URL = {
        let output = makeTemporaryDirectory("standfit-fixture-plugins")
        let include = Fixtures.packageRoot.appendingPathComponent("Sources/CStandFitABI/include").path
        for variant in variants {
            let arguments = ["-shared", "-fPIC", "-fvisibility=hidden", "-Wall", "-Werror", "-I", include]
                + variant.flags
                + ["-o", output.appendingPathComponent(variant.file).path,
                   Fixtures.url("Plugins/\(variant.source)").path]
            let result = runProcess(URL(fileURLWithPath: "/usr/bin/cc"), arguments: arguments)
            precondition(result.status == 0, "cc failed for \(variant.file): \(result.stderr)")
        }
        return output
    }()

    /// The compiled fixture named `file` (e.g. "kinds.so").
    public static func url(_ file: String) -> URL {
        directory.appendingPathComponent(file)
    }
}
