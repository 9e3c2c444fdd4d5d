import Foundation

/// Where the package, its fixtures and its built products are.
public enum Fixtures {
    /// The package's root directory.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let directory = packageRoot.appendingPathComponent("Tests/Fixtures")

    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }

    /// The build's products directory, where `standfit-host` and the example plugins are:
    /// beside the running test binary, or `STANDFIT_PRODUCTS_DIR` when set.
    public static let productsDirectory: URL = {
        if let explicit = ProcessInfo.processInfo.environment["STANDFIT_PRODUCTS_DIR"] {
            return URL(fileURLWithPath: explicit)
        }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // Swift Testing may run from inside the .xctest bundle's directory.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("standfit-host").path),
              directory.pathComponents.count > 1 {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// The command users type: the thin client.
    public static var hostBinary: URL { productsDirectory.appendingPathComponent("standfit-host") }
    /// The full host the client execs when it runs a command cold, and which serves warm.
    public static var fullHostBinary: URL { productsDirectory.appendingPathComponent("standfit-host-full") }
    public static var swiftExamplePlugin: URL { productsDirectory.appendingPathComponent("libGreeterExample.so") }
    public static var standFitPlugin: URL { productsDirectory.appendingPathComponent("libStandFit.so") }
    public static var cExamplePlugin: URL { productsDirectory.appendingPathComponent("libHelloCExample.so") }
    public static var waterExamplePlugin: URL { productsDirectory.appendingPathComponent("libWaterCExample.so") }
}

/// A fresh directory under the system's temporary directory.
public func makeTemporaryDirectory(_ label: String = "standfit-tests") -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
