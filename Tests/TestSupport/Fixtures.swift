import Foundation
import Glibc

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

/// A fresh directory under the system's temporary directory, removed when the test process
/// exits (`TemporaryDirectories`).
public func makeTemporaryDirectory(_ label: String = "standfit-tests") -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    TemporaryDirectories.shared.add(url)
    return url
}

/// The temporary directories the tests made, removed when the test process exits, so that a
/// run leaves nothing in /tmp (a full run makes over a thousand sandboxes; kept, they came to
/// gigabytes). `STANDFIT_TEST_KEEP=1` keeps them, to look at after a failure.
///
/// Rationale: removed at exit rather than when each sandbox goes, because a test's sandbox
/// is copied into helpers (a bus, a server) that may outlive the test's own value, and its
/// failure messages name files in it.
public final class TemporaryDirectories: @unchecked Sendable {
    public static let shared = TemporaryDirectories()
    private let lock = NSLock()
    private var directories: [String] = []
    private var registered = false

    func add(_ url: URL) {
        guard ProcessInfo.processInfo.environment["STANDFIT_TEST_KEEP"] != "1" else { return }
        let first = lock.withLock { () -> Bool in
            directories.append(url.path)
            defer { registered = true }
            return !registered
        }
        if first { atexit { TemporaryDirectories.shared.removeAll() } }
    }

    /// Removes them, each directory made writable before it is emptied: a test may leave one
    /// read-only (the plugin directories' permission checks). Plain system calls: this runs at
    /// exit, where starting processes or threads is not safe.
    func removeAll() {
        let paths = lock.withLock { () -> [String] in
            defer { directories = [] }
            return directories
        }
        for path in paths {
            var status = stat()
            if lstat(path, &status) == 0 { Self.remove(path, device: status.st_dev) }
        }
    }

    /// Removes `path` and what is under it on `device`: never into anything mounted there.
    private static func remove(_ path: String, device: dev_t) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_dev == device else { return }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            unlink(path)
            return
        }
        chmod(path, 0o700)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { remove(path + "/" + name, device: device) }
        rmdir(path)
    }
}
