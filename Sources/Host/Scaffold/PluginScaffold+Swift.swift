import Foundation
import HostModel

/// The Swift skeleton of `plugins new`.
extension PluginScaffold {
    var swiftFiles: [File] {
        [
            File(path: "Package.swift", contents: """
                // swift-tools-version:6.1
                // \(id): a standfit-host plugin in Swift. It depends on the plugin SDK alone, so it
                // resolves nothing of the host. docs/PLUGIN_GUIDE.md of standfit-host is the guide.
                import PackageDescription

                let package = Package(
                    name: "\(baseName)",
                    products: [
                        // A shared library: lib\(typeName).so.
                        .library(name: "\(typeName)", type: .dynamic, targets: ["\(typeName)"]),
                    ],
                    dependencies: [
                        .package(path: "\(sdk.path)"),
                    ],
                    targets: [
                        .target(
                            name: "\(typeName)",
                            dependencies: [.product(name: "PluginAPI", package: "standfit-plugin-sdk")],
                            // Export only the entry function, so no symbol clashes with another plugin's.
                            linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=plugin.exports"])]
                        ),
                    ]
                )

                """),
            File(path: "Sources/\(typeName)/\(typeName).swift", contents: """
                // \(id): a standfit-host plugin in Swift.
                import PluginAPI

                struct Greet: ShortcutAction {
                    static let type = "\(actionType)"
                    static let title = "Greet"
                    static let icon = "hand.wave"

                    @Parameter(title: "Name") var name: String = "world"
                    // The host refuses times=50 before perform runs, naming the parameter and the range.
                    @Parameter(title: "Times", range: 1...10) var times: Int = 1

                    func perform(_ context: ActionContext) throws -> ActionResult {
                        .handled(Array(repeating: "Hello, \\(name)!", count: times).joined(separator: " "))
                    }
                }

                enum \(typeName): Plugin {
                    static let id = "\(id)"
                    static let name = "\(typeName)"
                    static let version = "0.1.0"
                    static let actions: [any ShortcutAction.Type] = [Greet.self]
                    static let staticItems = [ShortcutItem(type: Greet.type, title: "Greet Ada", icon: "hand.wave", userInfo: ["name": "Ada"])]
                }

                @_cdecl("standfit_plugin_entry_v1")
                public func standfitPluginEntry() -> UnsafePointer<standfit_plugin_entry>? { export(\(typeName).self) }

                """),
            File(path: "plugin.exports", contents: """
                {
                  global: standfit_plugin_entry_v1;
                  local: *;
                };

                """),
            readme,
            File(path: ".gitignore", contents: ".build/\nPackage.resolved\n"),
        ]
    }

    // MARK: Rust
}
