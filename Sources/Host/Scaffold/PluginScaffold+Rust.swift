import Foundation
import HostModel

/// The Rust skeleton of `plugins new`.
extension PluginScaffold {
    var rustFiles: [File] {
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
