//! The standfit-host plugin ABI, version 1, for Rust: every table of `standfit_plugin.h` as a
//! `#[repr(C)]` struct with the same fields in the same order, the constants, and two helpers
//! every plugin needs (`header` and `guarded`). Nothing else: no crates, std only, so a plugin
//! builds offline.
//!
//! docs/ABI.md publishes each table's size and field offsets; the tests below hold these
//! structs to them. Build a plugin as `crate-type = ["cdylib"]`, export only
//! `standfit_plugin_entry_v1`, and never let a panic cross into the host (see `guarded`).
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_void};

pub const STANDFIT_ABI_MAJOR: u32 = 1;
pub const STANDFIT_ABI_MINOR: u32 = 0;

pub const STANDFIT_STATUS_HANDLED: i32 = 0;
pub const STANDFIT_STATUS_DECLINED: i32 = 1;
pub const STANDFIT_STATUS_INVALID_INPUT: i32 = 2;
pub const STANDFIT_STATUS_FAILED: i32 = 3;

pub const STANDFIT_OK: i32 = 0;
pub const STANDFIT_ERR_INVALID_ARGUMENT: i32 = -1;
pub const STANDFIT_ERR_DUPLICATE: i32 = -2;
pub const STANDFIT_ERR_NOT_IN_INIT: i32 = -3;
pub const STANDFIT_ERR_UNSUPPORTED: i32 = -4;

pub const STANDFIT_LOG_DEBUG: i32 = 0;
pub const STANDFIT_LOG_INFO: i32 = 1;
pub const STANDFIT_LOG_WARNING: i32 = 2;
pub const STANDFIT_LOG_ERROR: i32 = 3;

/// `bool`, passed as a Rust `bool`.
pub const STANDFIT_KIND_BOOL: i32 = 1;
/// `int64_t`, passed as `i64`.
pub const STANDFIT_KIND_INT64: i32 = 2;
/// `double`, passed as `f64`.
pub const STANDFIT_KIND_DOUBLE: i32 = 3;
/// `const char *`, passed as `*const c_char` (NULL when an optional is absent).
pub const STANDFIT_KIND_STRING: i32 = 4;
pub const STANDFIT_MAX_PARAMS: u32 = 32;

pub const STANDFIT_TRAIT_NOT_SUGGESTIBLE: u32 = 1;
pub const STANDFIT_DONATION_ID_MAX: usize = 200;

/// Extension ids, NUL-terminated for `get_extension`.
pub const STANDFIT_EXT_LOCALE: &[u8] = b"standfit.locale/1\0";
pub const STANDFIT_EXT_PLUGIN_FILE: &[u8] = b"standfit.plugin-file/1\0";
pub const STANDFIT_EXT_INTENTS: &[u8] = b"standfit.intents/1\0";
pub const STANDFIT_EXT_ITEM_LIFETIME: &[u8] = b"standfit.item-lifetime/1\0";
pub const STANDFIT_EXT_ACTION_TRAITS: &[u8] = b"standfit.action-traits/1\0";
pub const STANDFIT_EXT_DONATIONS: &[u8] = b"standfit.donations/1\0";
pub const STANDFIT_EXT_PARAMETER_CHECKS: &[u8] = b"standfit.parameter-checks/1\0";
pub const STANDFIT_EXT_CLOCK: &[u8] = b"standfit.clock/1\0";
pub const STANDFIT_EXT_PROGRAMS: &[u8] = b"standfit.programs/1\0";
pub const STANDFIT_MAX_PROGRAMS: usize = 16;
pub const STANDFIT_EXT_REPLY: &[u8] = b"standfit.reply/1\0";
pub const STANDFIT_EXT_PARAMETER_TRAITS: &[u8] = b"standfit.parameter-traits/1\0";
pub const STANDFIT_PARAM_TRAIT_NOT_SUGGESTIBLE: u32 = 1;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct standfit_abi_header {
    pub abi_major: u32,
    pub abi_minor: u32,
    pub struct_size: u32,
}

/// The header of a table of type `T` as this crate lays it out: `abi: header::<standfit_action>()`.
pub const fn header<T>() -> standfit_abi_header {
    standfit_abi_header { abi_major: STANDFIT_ABI_MAJOR, abi_minor: STANDFIT_ABI_MINOR, struct_size: std::mem::size_of::<T>() as u32 }
}

#[repr(C)]
pub struct standfit_param {
    pub abi: standfit_abi_header,
    pub name: *const c_char,
    pub kind: i32,
    pub required: bool,
    pub default_value: *const c_char,
    pub title: *const c_char,
}

#[repr(C)]
pub struct standfit_invocation {
    pub abi: standfit_abi_header,
    pub r#type: *const c_char,
    pub user_info_json: *const c_char,
    pub provided: u32,
    pub locale: *const c_char,
    pub host_data: *mut c_void,
    pub set_message: Option<unsafe extern "C" fn(ctx: *const standfit_invocation, utf8: *const c_char) -> i32>,
    pub set_data_json: Option<unsafe extern "C" fn(ctx: *const standfit_invocation, json: *const c_char) -> i32>,
}

/// A handler, type-erased as the ABI stores it; `handler!(my_handler)` makes one from your
/// `extern "C" fn(*const standfit_invocation, <parameters>) -> i32`, whose parameters must be the
/// Rust types of the kinds its parameter table declares, in order.
pub type standfit_handler_fn = Option<unsafe extern "C" fn()>;

/// `handler!(f)`: the function `f` as a `standfit_handler_fn`, as C's `STANDFIT_HANDLER(f)`.
#[macro_export]
macro_rules! handler {
    ($function:expr) => {
        Some(unsafe { std::mem::transmute::<*const (), unsafe extern "C" fn()>($function as *const ()) })
    };
}

#[repr(C)]
pub struct standfit_action {
    pub abi: standfit_abi_header,
    pub r#type: *const c_char,
    pub title: *const c_char,
    pub subtitle: *const c_char,
    pub icon: *const c_char,
    pub params: *const standfit_param,
    pub param_count: u32,
    pub handler: standfit_handler_fn,
}

#[repr(C)]
pub struct standfit_item {
    pub abi: standfit_abi_header,
    pub r#type: *const c_char,
    pub title: *const c_char,
    pub subtitle: *const c_char,
    pub icon: *const c_char,
    pub user_info_json: *const c_char,
}

#[repr(C)]
pub struct standfit_item_sink {
    pub abi: standfit_abi_header,
    pub locale: *const c_char,
    pub host_data: *mut c_void,
    pub add: Option<unsafe extern "C" fn(sink: *const standfit_item_sink, item: *const standfit_item) -> i32>,
}

#[repr(C)]
pub struct standfit_dynamic_provider {
    pub abi: standfit_abi_header,
    pub provide: Option<unsafe extern "C" fn(sink: *const standfit_item_sink) -> i32>,
}

#[repr(C)]
pub struct standfit_host {
    pub abi: standfit_abi_header,
    pub host_version: *const c_char,
    pub host_data: *mut c_void,
    pub log: Option<unsafe extern "C" fn(host: *const standfit_host, level: i32, message: *const c_char)>,
    pub register_action: Option<unsafe extern "C" fn(host: *const standfit_host, action: *const standfit_action) -> i32>,
    pub register_static_item: Option<unsafe extern "C" fn(host: *const standfit_host, item: *const standfit_item) -> i32>,
    pub register_dynamic_provider:
        Option<unsafe extern "C" fn(host: *const standfit_host, provider: *const standfit_dynamic_provider) -> i32>,
    pub data_directory: Option<unsafe extern "C" fn(host: *const standfit_host) -> *const c_char>,
    pub get_extension: Option<unsafe extern "C" fn(host: *const standfit_host, id: *const c_char) -> *const c_void>,
}

#[repr(C)]
pub struct standfit_plugin_entry {
    pub abi: standfit_abi_header,
    pub id: *const c_char,
    pub name: *const c_char,
    pub version: *const c_char,
    pub init: Option<unsafe extern "C" fn(host: *const standfit_host) -> i32>,
    pub get_extension: Option<unsafe extern "C" fn(id: *const c_char) -> *const c_void>,
}

// The entry table and descriptors are immutable data that live for the process; the ABI calls a
// plugin only on the host's main thread.
unsafe impl Sync for standfit_plugin_entry {}
unsafe impl Sync for standfit_action {}
unsafe impl Sync for standfit_param {}
unsafe impl Sync for standfit_item {}
unsafe impl Sync for standfit_dynamic_provider {}

#[repr(C)]
pub struct standfit_locale_ext {
    pub abi: standfit_abi_header,
    pub language: *const c_char,
}

#[repr(C)]
pub struct standfit_plugin_file_ext {
    pub abi: standfit_abi_header,
    pub path: *const c_char,
}

#[repr(C)]
pub struct standfit_entity_value {
    pub abi: standfit_abi_header,
    pub id: *const c_char,
    pub title: *const c_char,
    pub synonyms: *const c_char,
    pub defaults_json: *const c_char,
}

#[repr(C)]
pub struct standfit_entity_sink {
    pub abi: standfit_abi_header,
    pub locale: *const c_char,
    pub host_data: *mut c_void,
    pub entity_data: *mut c_void,
    pub add: Option<unsafe extern "C" fn(sink: *const standfit_entity_sink, value: *const standfit_entity_value) -> i32>,
}

#[repr(C)]
pub struct standfit_entity {
    pub abi: standfit_abi_header,
    pub id: *const c_char,
    pub title: *const c_char,
    pub plugin_data: *mut c_void,
    pub lookup: Option<unsafe extern "C" fn(sink: *const standfit_entity_sink, id: *const c_char) -> i32>,
    pub r#match: Option<unsafe extern "C" fn(sink: *const standfit_entity_sink, text: *const c_char) -> i32>,
    pub suggest: Option<unsafe extern "C" fn(sink: *const standfit_entity_sink) -> i32>,
}

#[repr(C)]
pub struct standfit_intents_ext {
    pub abi: standfit_abi_header,
    pub register_entity: Option<unsafe extern "C" fn(host: *const standfit_host, entity: *const standfit_entity) -> i32>,
    pub set_parameter_entity: Option<
        unsafe extern "C" fn(host: *const standfit_host, r#type: *const c_char, param: *const c_char, entity_id: *const c_char) -> i32,
    >,
    pub set_parameter_choices: Option<
        unsafe extern "C" fn(
            host: *const standfit_host,
            r#type: *const c_char,
            param: *const c_char,
            values: *const standfit_entity_value,
            count: u32,
        ) -> i32,
    >,
    pub set_parameter_prompt: Option<
        unsafe extern "C" fn(host: *const standfit_host, r#type: *const c_char, param: *const c_char, prompt: *const c_char) -> i32,
    >,
    pub register_phrase: Option<
        unsafe extern "C" fn(host: *const standfit_host, r#type: *const c_char, language: *const c_char, phrase: *const c_char) -> i32,
    >,
}

#[repr(C)]
pub struct standfit_item_lifetime_ext {
    pub abi: standfit_abi_header,
    pub add_until:
        Option<unsafe extern "C" fn(sink: *const standfit_item_sink, item: *const standfit_item, valid_until: i64) -> i32>,
}

#[repr(C)]
pub struct standfit_action_traits_ext {
    pub abi: standfit_abi_header,
    pub set_action_traits: Option<unsafe extern "C" fn(host: *const standfit_host, r#type: *const c_char, traits: u32) -> i32>,
}

#[repr(C)]
pub struct standfit_donations_ext {
    pub abi: standfit_abi_header,
    pub set_donation_id: Option<unsafe extern "C" fn(ctx: *const standfit_invocation, id: *const c_char) -> i32>,
    pub withdraw_donations: Option<unsafe extern "C" fn(ctx: *const standfit_invocation, id: *const c_char) -> i32>,
}

#[repr(C)]
pub struct standfit_parameter_checks_ext {
    pub abi: standfit_abi_header,
    pub set_parameter_range: Option<
        unsafe extern "C" fn(host: *const standfit_host, r#type: *const c_char, param: *const c_char, minimum: f64, maximum: f64) -> i32,
    >,
    pub set_invalid_parameter: Option<unsafe extern "C" fn(ctx: *const standfit_invocation, param: *const c_char) -> i32>,
}

#[repr(C)]
pub struct standfit_clock_ext {
    pub abi: standfit_abi_header,
    pub now: Option<unsafe extern "C" fn(host: *const standfit_host) -> f64>,
}

#[repr(C)]
pub struct standfit_programs_ext {
    pub abi: standfit_abi_header,
    pub declare_program: Option<unsafe extern "C" fn(host: *const standfit_host, path: *const c_char) -> i32>,
}

#[repr(C)]
pub struct standfit_parameter_traits_ext {
    pub abi: standfit_abi_header,
    pub set_parameter_traits: Option<
        unsafe extern "C" fn(host: *const standfit_host, r#type: *const c_char, param: *const c_char, traits: u32) -> i32,
    >,
}

#[repr(C)]
pub struct standfit_reply_ext {
    pub abi: standfit_abi_header,
    pub shows_data: Option<unsafe extern "C" fn(ctx: *const standfit_invocation) -> i32>,
}

/// The host extension `id` (one of the `STANDFIT_EXT_*` constants) as a table of type `T`, when
/// the host offers it for ABI 1 at least as large as `T`; `None` otherwise, and the plugin does
/// without it.
///
/// # Safety
/// `host` is the table `init` was given, and `T` is the table the extension id names.
pub unsafe fn host_extension<T>(host: *const standfit_host, id: &[u8]) -> Option<&'static T> {
    let lookup = (*host).get_extension?;
    let table = lookup(host, id.as_ptr() as *const c_char) as *const standfit_abi_header;
    if table.is_null() || (*table).abi_major != STANDFIT_ABI_MAJOR || ((*table).struct_size as usize) < std::mem::size_of::<T>() {
        return None;
    }
    Some(&*(table as *const T))
}

/// A string literal as a NUL-terminated C string: `c_str!("com.example.timer")`.
#[macro_export]
macro_rules! c_str {
    ($text:literal) => {
        concat!($text, "\0").as_ptr() as *const std::os::raw::c_char
    };
}

/// In `init`: returns the status of a host call that failed, so that the host refuses the plugin
/// saying which registration and why, instead of loading it without that registration.
#[macro_export]
macro_rules! check_status {
    ($call:expr) => {
        let status = $call;
        if status != $crate::STANDFIT_OK {
            return status;
        }
    };
}

/// Sets the run's one-sentence message (the host copies it; a NUL in it becomes a space).
///
/// # Safety
/// `ctx` is the context the handler was given, during the handler call.
pub unsafe fn set_message(ctx: *const standfit_invocation, message: &str) {
    let text = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
    if let Some(set_message) = (*ctx).set_message {
        set_message(ctx, text.as_ptr());
    }
}

/// Attaches JSON `--json` shows under "data" (the host copies it and refuses text that is not JSON).
///
/// # Safety
/// As `set_message`.
pub unsafe fn set_data_json(ctx: *const standfit_invocation, json: &str) {
    let text = std::ffi::CString::new(json.replace('\0', " ")).unwrap_or_default();
    if let Some(set_data_json) = (*ctx).set_data_json {
        set_data_json(ctx, text.as_ptr());
    }
}

/// A string the host passed, as an owned `String`; `None` for NULL (an absent optional).
///
/// # Safety
/// `pointer` is NULL or a NUL-terminated string the host passed for this call.
pub unsafe fn string(pointer: *const c_char) -> Option<String> {
    if pointer.is_null() {
        None
    } else {
        Some(std::ffi::CStr::from_ptr(pointer).to_string_lossy().into_owned())
    }
}

/// Runs `body`, a handler's, provider's or query's work, so that a panic never crosses into the
/// host: a panic becomes `STANDFIT_STATUS_FAILED`, and `on_panic` gets the panic's message to
/// report (set it as the run's message). A panic unwinding out of an `extern "C"` function
/// aborts the whole process instead.
pub fn guarded(body: impl FnOnce() -> i32 + std::panic::UnwindSafe, on_panic: impl FnOnce(&str)) -> i32 {
    match std::panic::catch_unwind(body) {
        Ok(status) => status,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("a panic without a message");
            on_panic(message);
            STANDFIT_STATUS_FAILED
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{align_of, size_of};

    /// The sizes docs/ABI.md publishes for 64-bit Linux.
    #[test]
    fn sizes_match_the_published_layouts() {
        assert_eq!(size_of::<standfit_abi_header>(), 12);
        assert_eq!(size_of::<standfit_param>(), 48);
        assert_eq!(size_of::<standfit_invocation>(), 72);
        assert_eq!(size_of::<standfit_action>(), 72);
        assert_eq!(size_of::<standfit_item>(), 56);
        assert_eq!(size_of::<standfit_plugin_entry>(), 56);
        assert_eq!(size_of::<standfit_entity>(), 64);
        assert_eq!(align_of::<standfit_param>(), 8);
    }
}
