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
    public static func problem(with id: String) -> String? {
        guard TypeName.isValid(id), !id.hasSuffix(".*"), !id.hasPrefix("."), id.contains(".") else {
            return "'\(id)' is not a reverse-DNS plugin id; give one such as com.yourname.water (letters, digits, '-' and '_', separated by dots)."
        }
        guard let last = id.split(separator: ".").last, last.first?.isLetter == true else {
            return "The last part of '\(id)' must start with a letter, since it names the library and the Swift type; give one such as com.yourname.water."
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

    private var readme: File {
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

    private var cFiles: [File] {
        [
            File(path: "\(baseName).c", contents: """
                /* \(id): a standfit-host plugin in C. docs/PLUGIN_GUIDE.md of standfit-host is the guide. */
                #include <stdio.h>

                #include "standfit_plugin.h"

                /* Each action is declared once: its parameters as rows P(KIND, name, required, default,
                   title). The macro makes the parameter table and the handler's prototype from them, so
                   the compiler checks the handler against what the host will pass it. */
                #define GREET(P)                                  \\
                    P(STRING, name, false, "world", "Name")       \\
                    P(INT64, times, false, "1", "Times")
                STANDFIT_DECLARE_HANDLER(greet, GREET)

                static int32_t greet(const standfit_invocation *ctx, const char *name, int64_t times) {
                    char message[512];
                    size_t used = 0;
                    for (int64_t i = 0; i < times && used < sizeof message; i++) {
                        int written = snprintf(message + used, sizeof message - used, "%sHello, %s!", i ? " " : "", name);
                        if (written < 0) return STANDFIT_STATUS_FAILED;
                        used += (size_t)written;
                    }
                    ctx->set_message(ctx, message); /* copied by the host */
                    return STANDFIT_STATUS_HANDLED;
                }

                static const standfit_action actions[] = {
                    STANDFIT_ACTION(greet, "\(actionType)", "Greet", NULL, "hand.wave"),
                };

                /* An extension table this plugin can read, or NULL: the host may be older. */
                static const void *extension(const standfit_host *host, const char *id, size_t size) {
                    const standfit_abi_header *header = host->get_extension(host, id);
                    if (!header || header->abi_major != STANDFIT_ABI_MAJOR || header->struct_size < size) return NULL;
                    return header;
                }

                static int32_t init(const standfit_host *host) {
                    /* Return the status of a registration the host refuses: it then says which and why. */
                    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++) {
                        int32_t status = host->register_action(host, &actions[i]);
                        if (status != STANDFIT_OK) return status;
                    }
                    const standfit_parameter_checks_ext *checks =
                        extension(host, STANDFIT_EXT_PARAMETER_CHECKS, sizeof *checks);
                    if (checks) {
                        int32_t status = checks->set_parameter_range(host, "\(actionType)", "times", 1, 10);
                        if (status != STANDFIT_OK) return status;
                    }
                    static const standfit_item item = {
                        STANDFIT_HEADER(standfit_item), "\(actionType)", "Greet Ada", NULL, "hand.wave", "{\\"name\\": \\"Ada\\"}",
                    };
                    return host->register_static_item(host, &item);
                }

                static const standfit_plugin_entry entry = {
                    STANDFIT_HEADER(standfit_plugin_entry), "\(id)", "\(typeName)", "0.1.0", init, NULL,
                };

                /* The one exported function; everything else is hidden (-fvisibility=hidden). */
                STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }

                """),
            File(path: "Makefile", contents: """
                # Builds lib\(baseName).so, a standfit-host plugin.
                #   make            build it
                #   make check      standfit-host plugins check --strict
                #   make install    copy it where standfit-host looks for plugins
                SDK ?= \(sdk.path)
                STANDFIT_HOST ?= standfit-host
                CC ?= cc
                CFLAGS ?= -O2 -g
                PLUGIN := lib\(baseName).so
                PLUGINS := $(if $(XDG_DATA_HOME),$(XDG_DATA_HOME),$(HOME)/.local/share)/standfit/plugins

                all: $(PLUGIN)

                # Export only the entry function (-fvisibility=hidden; STANDFIT_EXPORT marks the entry).
                $(PLUGIN): \(baseName).c
                \t$(CC) $(CFLAGS) -std=gnu11 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \\
                \t\t-I $(SDK)/Sources/CStandFitABI/include -o $@ $<

                check: $(PLUGIN)
                \t$(STANDFIT_HOST) plugins check --strict ./$(PLUGIN)

                # Plugins and their directories must not be group- or world-writable.
                install: $(PLUGIN)
                \tinstall -d -m 755 $(PLUGINS)
                \tinstall -m 644 $(PLUGIN) $(PLUGINS)/

                clean:
                \trm -f $(PLUGIN)

                .PHONY: all check install clean

                """),
            readme,
            File(path: ".gitignore", contents: "*.so\n"),
        ]
    }

    // MARK: Swift

    private var swiftFiles: [File] {
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

    private var rustFiles: [File] {
        [
            File(path: "Cargo.toml", contents: """
                [package]
                name = "\(baseName)"
                version = "0.1.0"
                edition = "2021"
                publish = false

                [lib]
                # A C-ABI shared library that exports only what is #[no_mangle]; "dylib" would export
                # Rust's own symbols too.
                crate-type = ["cdylib"]

                [dependencies]
                # The ABI's tables as #[repr(C)] types, std only: builds offline.
                standfit-abi = { path = "\(sdk.appendingPathComponent("rust/standfit-abi").path)" }

                [profile.dev]
                panic = "unwind"

                [profile.release]
                panic = "unwind"

                """),
            File(path: "src/lib.rs", contents: """
                //! \(id): a standfit-host plugin in Rust. docs/PLUGIN_GUIDE.md of standfit-host is the guide.
                use std::os::raw::c_char;

                use standfit_abi::*;

                /// greet(name: string = "world", times: int = 1, from 1 to 10). No panic may cross into
                /// the host: `guarded` turns one into a failure with its message.
                unsafe extern "C" fn greet(ctx: *const standfit_invocation, name: *const c_char, times: i64) -> i32 {
                    let name = string(name).unwrap_or_else(|| String::from("world"));
                    guarded(
                        || {
                            let greeting = vec![format!("Hello, {name}!"); times.max(0) as usize].join(" ");
                            unsafe { set_message(ctx, &greeting) };
                            STANDFIT_STATUS_HANDLED
                        },
                        |panic| unsafe { set_message(ctx, &format!("Greet failed: {panic}")) },
                    )
                }

                static GREET_PARAMS: [standfit_param; 2] = [
                    standfit_param { abi: header::<standfit_param>(), name: c_str!("name"), kind: STANDFIT_KIND_STRING, required: false, default_value: c_str!("world"), title: c_str!("Name") },
                    standfit_param { abi: header::<standfit_param>(), name: c_str!("times"), kind: STANDFIT_KIND_INT64, required: false, default_value: c_str!("1"), title: c_str!("Times") },
                ];

                unsafe extern "C" fn init(host: *const standfit_host) -> i32 {
                    let action = standfit_action {
                        abi: header::<standfit_action>(),
                        r#type: c_str!("\(actionType)"),
                        title: c_str!("Greet"),
                        subtitle: std::ptr::null(),
                        icon: c_str!("hand.wave"),
                        params: GREET_PARAMS.as_ptr(),
                        param_count: GREET_PARAMS.len() as u32,
                        handler: handler!(greet as unsafe extern "C" fn(*const standfit_invocation, *const c_char, i64) -> i32),
                    };
                    let (Some(register_action), Some(register_static_item)) = ((*host).register_action, (*host).register_static_item) else {
                        return STANDFIT_ERR_INVALID_ARGUMENT;
                    };
                    check_status!(register_action(host, &action));
                    if let Some(set_range) =
                        host_extension::<standfit_parameter_checks_ext>(host, STANDFIT_EXT_PARAMETER_CHECKS).and_then(|checks| checks.set_parameter_range)
                    {
                        check_status!(set_range(host, c_str!("\(actionType)"), c_str!("times"), 1.0, 10.0));
                    }
                    let item = standfit_item {
                        abi: header::<standfit_item>(),
                        r#type: c_str!("\(actionType)"),
                        title: c_str!("Greet Ada"),
                        subtitle: std::ptr::null(),
                        icon: c_str!("hand.wave"),
                        user_info_json: c_str!("{\\"name\\": \\"Ada\\"}"),
                    };
                    register_static_item(host, &item)
                }

                static ENTRY: standfit_plugin_entry = standfit_plugin_entry {
                    abi: header::<standfit_plugin_entry>(),
                    id: c_str!("\(id)"),
                    name: c_str!("\(typeName)"),
                    version: c_str!("0.1.0"),
                    init: Some(init),
                    get_extension: None,
                };

                /// The one exported function.
                #[no_mangle]
                pub extern "C" fn standfit_plugin_entry_v1() -> *const standfit_plugin_entry {
                    &ENTRY
                }

                """),
            readme,
            File(path: ".gitignore", contents: "target/\nCargo.lock\n"),
        ]
    }
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
