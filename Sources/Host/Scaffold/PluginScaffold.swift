import Foundation
import HostModel

/// `plugins new ID --language c|swift|rust`: a plugin that builds, passes `plugins check --strict`
/// and runs, with its build file, written against the SDK this host ships (`PluginSDK`).
///
/// Each skeleton has one action, `<id>.greet`, with a string parameter that has a default and an
/// int parameter with a range the host checks, a static item for it, and the build file's
/// targets: build, check (`plugins check --strict`) and install.
public struct PluginScaffold: Sendable {
    public enum Language: String, CaseIterable, Sendable {
        case c, swift, rust
    }

    /// One file of the skeleton, relative to its directory.
    public struct File: Sendable, Equatable {
        public var path: String
        public var contents: String
    }

    public var id: String
    public var language: Language
    /// The SDK directory the build files point at.
    public var sdk: URL

    /// Why `id` cannot be a plugin id, or nil.
    public static func problem(with id: String) -> HostText.Phrase? {
        guard TypeName.isValid(id), !id.hasSuffix(".*"), !id.hasPrefix("."), id.contains(".") else {
            return HostText.Phrase("scaffold.notReverseDNS", ["id": id])
        }
        guard let last = id.split(separator: ".").last, last.first?.isLetter == true else {
            return HostText.Phrase("scaffold.lastPart", ["id": id])
        }
        return nil
    }

    public init(id: String, language: Language, sdk: URL) {
        self.id = id
        self.language = language
        self.sdk = sdk
    }

    /// The last component, as a file and crate name: "water", "step_counter".
    public var baseName: String {
        String(id.split(separator: ".").last ?? "plugin").lowercased()
            .map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }

    /// The Swift type and product name: "Water", "StepCounter".
    var typeName: String {
        baseName.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The shared object the build makes, relative to the skeleton's directory.
    public var product: String {
        switch language {
        case .c: "lib\(baseName).so"
        case .swift: ".build/debug/lib\(typeName).so"
        case .rust: "target/debug/lib\(baseName).so"
        }
    }

    /// The command that builds it, run in its directory.
    public var buildCommand: String {
        switch language {
        case .c: "make"
        case .swift: "swift build"
        case .rust: "cargo build --offline"
        }
    }

    /// The type of its action.
    public var actionType: String { "\(id).greet" }

    public var files: [File] {
        switch language {
        case .c: cFiles
        case .swift: swiftFiles
        case .rust: rustFiles
        }
    }

    var readme: File {
        File(path: "README.md", contents: """
            # \(id)

            A standfit-host plugin in \(language == .c ? "C" : language == .swift ? "Swift" : "Rust"), made by `standfit-host plugins new`.

            ```sh
            \(buildCommand)
            standfit-host plugins check --strict \(product)
            STANDFIT_PLUGIN_PATH=$PWD/\(product) standfit-host run greet name=Ada times=2
            ```

            Copy \(product) into ~/.local/share/standfit/plugins (`install -m 644`) to use it everywhere.
            The guide is docs/PLUGIN_GUIDE.md of standfit-host; the ABI is docs/ABI.md, and the SDK used
            here is \(sdk.path).

            """)
    }

    // MARK: C

}

/// Where this host's plugin SDK is: the directory `SDK/standfit-plugin-sdk` of a source tree the
/// host was built in, or `share/standfit-host/sdk` of the prefix it was installed into.
public enum PluginSDK {
    /// The SDK for the host at `executable`: `STANDFIT_SDK` when set, else the first of the
    /// places above found by walking up from the executable; nil when there is none.
    public static func locate(executable: URL, environment: [String: String]) -> URL? {
        if let given = environment["STANDFIT_SDK"], !given.isEmpty { return URL(fileURLWithPath: given) }
        var directory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            for candidate in ["SDK/standfit-plugin-sdk", "share/standfit-host/sdk"] {
                let sdk = directory.appendingPathComponent(candidate)
                if isSDK(sdk) { return sdk.standardizedFileURL }
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        return nil
    }

    /// Whether `directory` holds an SDK: its package manifest and the C header.
    public static func isSDK(_ directory: URL) -> Bool {
        let manager = FileManager.default
        return manager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path)
            && manager.fileExists(atPath: directory.appendingPathComponent("Sources/CStandFitABI/include/standfit_plugin.h").path)
    }
}
