// Test fixture: a Rust plugin whose handlers panic, one through std::panic::catch_unwind as the
// panic rule says (docs/ABI.md), one not: unwinding out of an extern "C" function aborts the
// process it runs in. Self-contained (no crates), built by rustc as a cdylib.
use std::os::raw::{c_char, c_void};

#[repr(C)]
pub struct Header {
    abi_major: u32,
    abi_minor: u32,
    struct_size: u32,
}

#[repr(C)]
pub struct Invocation {
    abi: Header,
    kind: *const c_char,
    user_info_json: *const c_char,
    provided: u32,
    locale: *const c_char,
    host_data: *mut c_void,
    set_message: Option<unsafe extern "C" fn(*const Invocation, *const c_char) -> i32>,
    set_data_json: Option<unsafe extern "C" fn(*const Invocation, *const c_char) -> i32>,
}

#[repr(C)]
pub struct Action {
    abi: Header,
    kind: *const c_char,
    title: *const c_char,
    subtitle: *const c_char,
    icon: *const c_char,
    params: *const c_void,
    param_count: u32,
    handler: Option<unsafe extern "C" fn()>,
}

#[repr(C)]
pub struct Host {
    abi: Header,
    host_version: *const c_char,
    host_data: *mut c_void,
    log: Option<unsafe extern "C" fn(*const Host, i32, *const c_char)>,
    register_action: Option<unsafe extern "C" fn(*const Host, *const Action) -> i32>,
    register_static_item: Option<unsafe extern "C" fn(*const Host, *const c_void) -> i32>,
    register_dynamic_provider: Option<unsafe extern "C" fn(*const Host, *const c_void) -> i32>,
    data_directory: Option<unsafe extern "C" fn(*const Host) -> *const c_char>,
    get_extension: Option<unsafe extern "C" fn(*const Host, *const c_char) -> *const c_void>,
}

#[repr(C)]
pub struct Entry {
    abi: Header,
    id: *const c_char,
    name: *const c_char,
    version: *const c_char,
    init: Option<unsafe extern "C" fn(*const Host) -> i32>,
    get_extension: Option<unsafe extern "C" fn(*const c_char) -> *const c_void>,
}

unsafe impl Sync for Entry {}

fn header<T>() -> Header {
    Header { abi_major: 1, abi_minor: 0, struct_size: std::mem::size_of::<T>() as u32 }
}

fn boom(what: &str) -> i32 {
    panic!("{what} went wrong")
}

unsafe extern "C" fn caught(ctx: *const Invocation) -> i32 {
    match std::panic::catch_unwind(|| boom("the caught action")) {
        Ok(status) => status,
        Err(payload) => {
            let message = payload.downcast_ref::<String>().cloned().unwrap_or_default();
            let text = std::ffi::CString::new(format!("It failed: {message}.")).unwrap();
            if let Some(set_message) = (*ctx).set_message {
                set_message(ctx, text.as_ptr());
            }
            3
        }
    }
}

unsafe extern "C" fn uncaught(_ctx: *const Invocation) -> i32 {
    boom("the uncaught action")
}

unsafe extern "C" fn init(host: *const Host) -> i32 {
    let register = match (*host).register_action {
        Some(register) => register,
        None => return -1,
    };
    let handlers: [(&[u8], &[u8], unsafe extern "C" fn(*const Invocation) -> i32); 2] = [
        (b"com.fixture.panics.caught\0", b"Caught\0", caught),
        (b"com.fixture.panics.uncaught\0", b"Uncaught\0", uncaught),
    ];
    for (kind, title, handler) in handlers {
        let action = Action {
            abi: header::<Action>(),
            kind: kind.as_ptr() as *const c_char,
            title: title.as_ptr() as *const c_char,
            subtitle: std::ptr::null(),
            icon: std::ptr::null(),
            params: std::ptr::null(),
            param_count: 0,
            handler: Some(std::mem::transmute::<*const (), unsafe extern "C" fn()>(handler as *const ())),
        };
        let status = register(host, &action);
        if status != 0 {
            return status;
        }
    }
    0
}

static ENTRY: Entry = Entry {
    abi: Header { abi_major: 1, abi_minor: 0, struct_size: std::mem::size_of::<Entry>() as u32 },
    id: b"com.fixture.panics\0".as_ptr() as *const c_char,
    name: b"Panics\0".as_ptr() as *const c_char,
    version: b"1.0.0\0".as_ptr() as *const c_char,
    init: Some(init),
    get_extension: None,
};

#[no_mangle]
pub extern "C" fn standfit_plugin_entry_v1() -> *const Entry {
    &ENTRY
}
