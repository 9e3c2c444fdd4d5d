// Mistake: a Rust plugin built as crate-type "dylib" (rustc --crate-type dylib, or
// crate-type = ["dylib"] in Cargo.toml) instead of "cdylib". It loads, but it exports Rust's own
// symbols for other Rust crates to link against, beside the entry. Otherwise a whole plugin: the
// ABI's tables written by hand with #[repr(C)], as Plugins/Examples/RustTimer does.
use std::os::raw::{c_char, c_void};

#[repr(C)]
pub struct AbiHeader {
    abi_major: u32,
    abi_minor: u32,
    struct_size: u32,
}

#[repr(C)]
pub struct PluginEntry {
    abi: AbiHeader,
    id: *const c_char,
    name: *const c_char,
    version: *const c_char,
    init: Option<extern "C" fn(*const c_void) -> i32>,
    get_extension: Option<extern "C" fn(*const c_char) -> *const c_void>,
}

// The entry table is immutable data that lives for the process.
unsafe impl Sync for PluginEntry {}

extern "C" fn init(_host: *const c_void) -> i32 {
    0
}

static ENTRY: PluginEntry = PluginEntry {
    abi: AbiHeader { abi_major: 1, abi_minor: 0, struct_size: std::mem::size_of::<PluginEntry>() as u32 },
    id: b"com.fixture.water\0".as_ptr() as *const c_char,
    name: b"Water\0".as_ptr() as *const c_char,
    version: b"1.0.0\0".as_ptr() as *const c_char,
    init: Some(init),
    get_extension: None,
};

#[no_mangle]
pub extern "C" fn standfit_plugin_entry_v1() -> *const PluginEntry {
    &ENTRY
}
