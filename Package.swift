// swift-tools-version:6.1
import PackageDescription

/// Plugins are shared objects; everything they export beyond the one entry function is hidden
/// by this version script so that two plugins never interpose each other's symbols.
let pluginLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--version-script=Plugins/plugin.exports"])
]

let package = Package(
    name: "standfit-host",
    products: [
        // The command users type: a thin client that hands the command to the warm server, or
        // becomes the full host when none answers.
        .executable(name: "standfit-host", targets: ["standfit-host"]),
        // The full host: every command, cold; the server (`serve`); the helpers.
        .executable(name: "standfit-host-full", targets: ["standfit-host-full"]),
        .library(name: "PluginAPI", targets: ["PluginAPI"]),
        // StandFit, the bundled plugin: exercise logging.
        .library(name: "StandFit", type: .dynamic, targets: ["StandFit"]),
        // Example plugins double as SDK documentation (see Plugins/Examples/README.md).
        .library(name: "GreeterExample", type: .dynamic, targets: ["GreeterExample"]),
        .library(name: "HelloCExample", type: .dynamic, targets: ["HelloCExample"]),
        .library(name: "WaterCExample", type: .dynamic, targets: ["WaterCExample"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // StandFit's CSV export and import (RFC 4180 reading and writing).
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    ],
    targets: [
        // The C ABI: the one contract between the host and its plugins.
        .target(name: "CStandFitABI"),
        // libffi, found through pkg-config, with a shim that hands out the ffi_type_* globals.
        .systemLibrary(name: "CLibFFI", pkgConfig: "libffi", providers: [.apt(["libffi-dev"])]),
        .target(name: "PluginAPI", dependencies: ["CStandFitABI", "CLibFFI"]),
        // The few Linux calls Swift's Glibc module hides behind _GNU_SOURCE (memfd seals, dladdr1),
        // and the sandbox for untrusted plugin code: Landlock by system call, seccomp through
        // libseccomp (libseccomp-dev).
        .target(name: "CHostSystem", linkerSettings: [.linkedLibrary("seccomp")]),
        // The host library, in layers the compiler checks (docs/ARCHITECTURE.md). At the bottom, the
        // shared vocabulary: items, types, parameters and values, entities, phrases, invocation,
        // reply, outcome, JSON value, host error. It imports Foundation only.
        .target(name: "HostModel", path: "Sources/Host/Model"),
        // On the model only: the manifest reader, the host's own state, and the menu's rules.
        .target(name: "HostManifest", dependencies: ["HostModel"], path: "Sources/Host/Manifest"),
        .target(
            name: "HostStorage",
            dependencies: ["HostModel", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/Host/State"
        ),
        .target(name: "HostMenu", dependencies: ["HostModel"], path: "Sources/Host/Menu"),
        // Everything that touches plugin code: vetting, trust, the registry cache, loading, the
        // scan helper and handler workers, and the libffi call.
        .target(
            name: "PluginRuntime",
            dependencies: [
                "HostModel", "HostIntents", "CStandFitABI", "CLibFFI", "CHostSystem",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/Host/PluginRuntime"
        ),
        // On the model: entities, parameter resolution and prompts, phrases, suggestions,
        // routines; then the dispatcher, which resolves a type and runs it.
        .target(name: "HostIntents", dependencies: ["HostModel"], path: "Sources/Host/Intents"),
        .target(name: "HostDispatch", dependencies: ["HostModel", "HostIntents"], path: "Sources/Host/Dispatch"),
        // What people see: the menu and outcomes as text and JSON, the plugin list, the desktop
        // entry. Nothing below imports it.
        .target(
            name: "HostSurfaces",
            dependencies: ["HostModel", "HostMenu", "HostStorage", "PluginRuntime"],
            path: "Sources/Host/Surfaces"
        ),
        .target(
            name: "StandFitHost",
            dependencies: [
                "HostModel", "HostManifest", "HostStorage", "HostMenu", "PluginRuntime", "HostIntents", "HostDispatch",
                "HostSurfaces", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Host",
            exclude: ["Model", "Manifest", "State", "Menu", "PluginRuntime", "Intents", "Dispatch", "Surfaces", "Desktop", "Sentences", "Scaffold", "Server", "Doctor", "Schedules", "Speech"]
        ),
        // A surface over the session: `doctor`, what the host finds (directories, settings, state,
        // plugins, the manifest, routines) and what is wrong, with the way out.
        .target(
            name: "HostDoctor",
            dependencies: [
                "StandFitHost", "HostDesktop", "HostModel", "HostManifest", "HostStorage", "HostIntents", "HostDispatch", "PluginRuntime",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Host/Doctor"
        ),
        // `schedule`: actions on the user's systemd timers (unit files, systemctl, systemd-analyze).
        .target(name: "HostSchedules", dependencies: ["HostModel"], path: "Sources/Host/Schedules"),
        // Speech (`say --audio`, `listen`): a grammar from the plugins' phrases, PocketSphinx
        // through CSpeech (opened with dlopen by those commands alone), sound through SoX.
        .target(name: "CSpeech"),
        .target(name: "HostSpeech", dependencies: ["CSpeech", "HostModel", "HostIntents"], path: "Sources/Host/Speech"),
        // `plugins new`: a plugin that builds, in C, Swift or Rust, against the SDK this host
        // ships. On the model only.
        .target(name: "HostScaffold", dependencies: ["HostModel"], path: "Sources/Host/Scaffold"),
        // A surface over the session: `say`, a sentence instead of a type, and typed replies.
        .target(
            name: "HostSentences",
            dependencies: ["StandFitHost", "HostModel", "HostIntents", "HostDispatch"],
            path: "Sources/Host/Sentences"
        ),
        // A surface over the session: the desktop installation (the .desktop files, the D-Bus
        // service, KRunner's and GNOME's files, kept current) and the desktop's search (KRunner,
        // GNOME Shell). The composition wires it into the session (HostOptions.desktop).
        .target(
            name: "HostDesktop",
            dependencies: ["StandFitHost", "HostModel", "HostStorage", "HostMenu", "HostSurfaces", "HostIntents", "HostDispatch"],
            path: "Sources/Host/Desktop"
        ),
        // The socket calls Swift cannot write (SCM_RIGHTS, SO_PEERCRED, fork) and the client–server
        // protocol, without Foundation: the thin client links them statically.
        .target(name: "CWarmWire"),
        // The desktop front door: the warm server's session-bus connection (org.freedesktop.Application,
        // notifications) through sd-bus. Built against libsystemd-dev's headers; libsystemd itself is
        // opened with dlopen when the server starts its bus, so cold commands never load it.
        .target(name: "CDesktopBus"),
        .target(name: "WarmWire", dependencies: ["CWarmWire"]),
        // The warm server: the accept loop, each request's scope (its facts, console and helper
        // link), cancel, socket activation, and the desktop's front door on the session bus. It
        // knows no command: the composition hands it what a request comes to (ServedCommands,
        // DesktopRequests).
        .target(
            name: "HostServer",
            dependencies: [
                "WarmWire", "CWarmWire", "CDesktopBus", "CHostSystem", "StandFitHost", "HostDesktop", "HostModel",
                "HostSurfaces", "PluginRuntime", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Host/Server"
        ),
        .executableTarget(
            name: "standfit-host",
            dependencies: ["WarmWire"],
            path: "Sources/ThinClient",
            // Statically linked, so it starts without loading a shared library. lld, because gold
            // warns that libswiftCore.a calls dlopen (the client never reaches that code).
            linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=lld"])]
        ),
        .executableTarget(
            name: "standfit-host-full",
            dependencies: [
                "WarmWire", "CWarmWire", "CHostSystem", "StandFitHost", "HostServer", "HostDoctor", "HostDesktop", "HostSentences", "HostScaffold", "HostSchedules", "HostSpeech", "HostModel", "HostStorage", "HostMenu", "PluginRuntime",
                "HostIntents", "HostDispatch", "HostSurfaces", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/FullHost"
        ),
        // StandFit's model (catalogue, log store, streak, progress), kept apart from the plugin
        // shell so that it can be tested without loading a plugin.
        .target(
            name: "StandFitCore",
            dependencies: ["PluginAPI", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "CSV", package: "CSV.swift")],
            path: "Plugins/StandFit/Core"
        ),
        .target(
            name: "StandFit",
            dependencies: ["StandFitCore", "PluginAPI"],
            path: "Plugins/StandFit/Plugin",
            resources: [.copy("Localization")],
            linkerSettings: pluginLinkerSettings
        ),
        .target(
            name: "GreeterExample",
            dependencies: ["PluginAPI"],
            path: "Plugins/Examples/Greeter",
            linkerSettings: pluginLinkerSettings
        ),
        .target(
            name: "HelloCExample",
            dependencies: ["CStandFitABI"],
            path: "Plugins/Examples/HelloC",
            publicHeadersPath: ".",
            cSettings: [.unsafeFlags(["-fvisibility=hidden"])],
            linkerSettings: pluginLinkerSettings
        ),
        .target(
            name: "WaterCExample",
            dependencies: ["CStandFitABI"],
            path: "Plugins/Examples/WaterC",
            publicHeadersPath: ".",
            cSettings: [.unsafeFlags(["-fvisibility=hidden"])],
            linkerSettings: pluginLinkerSettings
        ),
        // Benchmarks (bench/run): the no-op floor every whole-process figure is divided by, and
        // the in-process call costs. Built in release mode by bench/run.
        .executableTarget(name: "bench-floor", path: "bench/Floor"),
        .executableTarget(name: "bench-floor-static", path: "bench/StaticFloor",
                          linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=lld"])]),
        .executableTarget(
            name: "bench-inprocess",
            dependencies: [
                "StandFitHost", "HostModel", "PluginRuntime", "HostDispatch", "CStandFitABI", "CLibFFI",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "bench/InProcess"
        ),
        .target(name: "TestSupport", dependencies: ["WarmWire"], path: "Tests/TestSupport"),
        .testTarget(
            name: "HostTests",
            dependencies: [
                "StandFitHost", "HostModel", "HostSchedules", "HostManifest", "HostStorage", "HostMenu", "PluginRuntime", "HostIntents",
                "HostDispatch", "HostSurfaces", "PluginAPI", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A test target per library target, each importing only what it tests (and the layers
        // under it); HostTests holds the composition's (StandFitHost) and what needs it whole.
        .testTarget(name: "HostModelTests", dependencies: ["HostModel", "PluginAPI", "TestSupport"]),
        .testTarget(name: "HostManifestTests", dependencies: ["HostModel", "HostManifest", "TestSupport"]),
        .testTarget(name: "HostStorageTests", dependencies: ["HostModel", "HostStorage", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "HostMenuTests", dependencies: ["HostModel", "HostMenu"]),
        .testTarget(name: "HostIntentsTests", dependencies: ["HostModel", "HostIntents"]),
        .testTarget(name: "HostSpeechTests", dependencies: ["HostModel", "HostIntents", "HostSpeech"]),
        .testTarget(name: "HostDispatchTests", dependencies: ["HostModel", "HostIntents", "HostDispatch"]),
        .testTarget(name: "HostSurfacesTests", dependencies: ["HostModel", "HostMenu", "HostSurfaces", "TestSupport"]),
        .testTarget(
            name: "HostServerTests",
            dependencies: ["HostServer", "HostModel", "HostSurfaces", "StandFitHost", "PluginRuntime", "WarmWire", "TestSupport",
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "PluginRuntimeTests", dependencies: ["PluginRuntime", "HostModel", "TestSupport"]),
        .testTarget(name: "PluginAPITests", dependencies: ["PluginAPI", "CLibFFI"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"]),
        .testTarget(name: "StandFitTests", dependencies: ["StandFitCore", "PluginAPI", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
    ]
)
