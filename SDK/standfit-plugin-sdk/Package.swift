// swift-tools-version:6.1
// The standfit-host plugin SDK on its own: PluginAPI (Swift) over the C ABI, and nothing of the
// host. A Swift plugin depends on this package, so it resolves and builds only what PluginAPI
// needs (libffi, through pkg-config), not the host's GRDB, swift-crypto or ArgumentParser.
// Its sources are the host's own (Sources/ holds links to them), so the two cannot drift.
import PackageDescription

let package = Package(
    name: "standfit-plugin-sdk",
    products: [
        .library(name: "PluginAPI", targets: ["PluginAPI"]),
    ],
    targets: [
        .target(name: "CStandFitABI"),
        .systemLibrary(name: "CLibFFI", pkgConfig: "libffi", providers: [.apt(["libffi-dev"])]),
        .target(name: "PluginAPI", dependencies: ["CStandFitABI", "CLibFFI"]),
    ]
)
