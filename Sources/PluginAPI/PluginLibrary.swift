import Foundation

/// The shared library this SDK is linked into: where it was loaded from, so a plugin can find
/// the resources installed beside it.
public enum PluginLibrary {
    /// The directory of the plugin's `.so`, or nil when it cannot be told: as the host says
    /// (`standfit.plugin-file/1`), else as the kernel's map of this process says.
    ///
    /// Rationale: the host may load the plugin from a sealed in-memory copy (a plugin the user
    /// pinned), whose mapping has no directory; only the host knows where the file is installed.
    public static var directory: URL? {
        PluginHost.current?.pluginFile?.deletingLastPathComponent() ?? mappedDirectory
    }

    /// The directory of the file this image is mapped from. `dladdr` would answer this, but
    /// glibc hides it from Swift's Glibc module (it needs `_GNU_SOURCE`).
    private static let mappedDirectory: URL? = {
        // `#dsohandle` is this image's own header: the plugin library that links this SDK.
        let address = UInt(bitPattern: #dsohandle)
        guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return nil }
        for line in maps.split(separator: "\n") {
            // start-end perms offset dev inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, let dash = fields[0].firstIndex(of: "-"),
                  let start = UInt(fields[0][..<dash], radix: 16),
                  let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16),
                  (start..<end).contains(address)
            else { continue }
            let path = fields[5].trimmingCharacters(in: .whitespaces)
            guard path.hasPrefix("/") else { return nil }
            return URL(fileURLWithPath: path).deletingLastPathComponent()
        }
        return nil
    }()

    /// `relativePath` under the plugin's directory (e.g. SwiftPM's `Package_Target.resources`).
    public static func resource(_ relativePath: String) -> URL? {
        directory?.appendingPathComponent(relativePath, isDirectory: true)
    }
}
