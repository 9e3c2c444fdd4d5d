//! RustTimer — a standfit-host plugin in Rust, with std only: the ABI's tables from the
//! `standfit-abi` crate, a range the host checks, the data directory, the host's clock, phrases,
//! a static item, and the panic rule (no panic may cross into the host).
//!
//!     cargo build --release --offline
//!     STANDFIT_PLUGIN_PATH=target/release/librust_timer.so standfit-host run start minutes=10 label=Tea
//!     standfit-host run left
use std::ffi::{CStr, CString};
use std::fs;
use std::os::raw::c_char;
use std::path::PathBuf;
use std::sync::atomic::{AtomicPtr, Ordering};

use standfit_abi::*;

/// The host table `init` was given; it lives for the process.
static HOST: AtomicPtr<standfit_host> = AtomicPtr::new(std::ptr::null_mut());

fn host() -> *const standfit_host {
    HOST.load(Ordering::Acquire)
}

/// Sets the run's one-sentence message.
fn say(ctx: *const standfit_invocation, message: &str) {
    unsafe { set_message(ctx, message) }
}

fn attach(ctx: *const standfit_invocation, json: &str) {
    unsafe { set_data_json(ctx, json) }
}

/// Now, as the host sees this run (`STANDFIT_NOW` when the user fixed it), in whole seconds.
fn now() -> i64 {
    let host = host();
    match unsafe { host_extension::<standfit_clock_ext>(host, STANDFIT_EXT_CLOCK) }.and_then(|clock| clock.now) {
        Some(now) => unsafe { now(host) as i64 },
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|elapsed| elapsed.as_secs() as i64)
            .unwrap_or(0),
    }
}

/// The file holding the running timer, in the plugin's data directory.
fn timer_file() -> Result<PathBuf, String> {
    let host = host();
    let directory = unsafe { (*host).data_directory.map(|call| call(host)) }.unwrap_or(std::ptr::null());
    if directory.is_null() {
        return Err("the host gave no data directory (its log says why)".into());
    }
    let directory = unsafe { CStr::from_ptr(directory) }.to_string_lossy().into_owned();
    Ok(PathBuf::from(directory).join("timer"))
}

/// Text as a JSON string literal.
fn json_string(text: &str) -> String {
    let mut quoted = String::from("\"");
    for character in text.chars() {
        match character {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if (c as u32) < 0x20 => quoted.push_str(&format!("\\u{:04x}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// start(minutes: int = 25, from 1 to 180; label: string?)
unsafe extern "C" fn start(ctx: *const standfit_invocation, minutes: i64, label: *const c_char) -> i32 {
    let label = string(label);
    guarded(
        || {
            let ends = now() + minutes * 60;
            let path = match timer_file() {
                Ok(path) => path,
                Err(why) => {
                    say(ctx, &format!("Cannot start the timer: {why}."));
                    return STANDFIT_STATUS_FAILED;
                }
            };
            let label_line = label.clone().unwrap_or_default();
            if let Err(error) = fs::write(&path, format!("{ends}\n{label_line}\n")) {
                say(ctx, &format!("Cannot start the timer: {}: {error}.", path.display()));
                return STANDFIT_STATUS_FAILED;
            }
            let unit = if minutes == 1 { "minute" } else { "minutes" };
            match &label {
                Some(label) => say(ctx, &format!("Timer set for {minutes} {unit}: {label}")),
                None => say(ctx, &format!("Timer set for {minutes} {unit}")),
            }
            let label_json = label.as_deref().map(json_string).unwrap_or_else(|| "null".into());
            attach(ctx, &format!("{{\"minutes\":{minutes},\"endsAt\":{ends},\"label\":{label_json}}}"));
            STANDFIT_STATUS_HANDLED
        },
        |panic| say(ctx, &format!("The timer failed: {panic}")),
    )
}

/// left()
unsafe extern "C" fn left(ctx: *const standfit_invocation) -> i32 {
    guarded(
        || {
            let contents = match timer_file().map(fs::read_to_string) {
                Ok(Ok(contents)) => contents,
                Ok(Err(error)) if error.kind() == std::io::ErrorKind::NotFound => {
                    say(ctx, "No timer is running.");
                    return STANDFIT_STATUS_HANDLED;
                }
                Ok(Err(error)) => {
                    say(ctx, &format!("Cannot read the timer: {error}."));
                    return STANDFIT_STATUS_FAILED;
                }
                Err(why) => {
                    say(ctx, &format!("Cannot read the timer: {why}."));
                    return STANDFIT_STATUS_FAILED;
                }
            };
            let mut lines = contents.lines();
            let Some(ends) = lines.next().and_then(|line| line.parse::<i64>().ok()) else {
                say(ctx, "The timer file is damaged; start a new timer.");
                return STANDFIT_STATUS_FAILED;
            };
            let label = lines.next().filter(|label| !label.is_empty());
            let seconds = ends - now();
            if seconds <= 0 {
                say(ctx, &format!("{} is done.", label.unwrap_or("The timer")));
            } else {
                let minutes = (seconds + 59) / 60;
                let unit = if minutes == 1 { "minute" } else { "minutes" };
                match label {
                    Some(label) => say(ctx, &format!("{minutes} {unit} left: {label}")),
                    None => say(ctx, &format!("{minutes} {unit} left")),
                }
            }
            attach(ctx, &format!("{{\"secondsLeft\":{}}}", seconds.max(0)));
            STANDFIT_STATUS_HANDLED
        },
        |panic| say(ctx, &format!("The timer failed: {panic}")),
    )
}

static START_PARAMS: [standfit_param; 2] = [
    standfit_param {
        abi: header::<standfit_param>(),
        name: c_str!("minutes"),
        kind: STANDFIT_KIND_INT64,
        required: false,
        default_value: c_str!("25"),
        title: c_str!("Minutes"),
    },
    standfit_param {
        abi: header::<standfit_param>(),
        name: c_str!("label"),
        kind: STANDFIT_KIND_STRING,
        required: false,
        default_value: std::ptr::null(),
        title: c_str!("Label"),
    },
];

fn actions() -> [standfit_action; 2] {
    [
        standfit_action {
            abi: header::<standfit_action>(),
            r#type: c_str!("com.example.timer.start"),
            title: c_str!("Start Timer"),
            subtitle: std::ptr::null(),
            icon: c_str!("timer"),
            params: START_PARAMS.as_ptr(),
            param_count: START_PARAMS.len() as u32,
            handler: handler!(start as unsafe extern "C" fn(*const standfit_invocation, i64, *const c_char) -> i32),
        },
        standfit_action {
            abi: header::<standfit_action>(),
            r#type: c_str!("com.example.timer.left"),
            title: c_str!("Time Left"),
            subtitle: std::ptr::null(),
            icon: c_str!("hourglass"),
            params: std::ptr::null(),
            param_count: 0,
            handler: handler!(left as unsafe extern "C" fn(*const standfit_invocation) -> i32),
        },
    ]
}

unsafe extern "C" fn init(host: *const standfit_host) -> i32 {
    HOST.store(host as *mut standfit_host, Ordering::Release);
    guarded(
        || unsafe {
            let Some(register_action) = (*host).register_action else { return STANDFIT_ERR_INVALID_ARGUMENT };
            for action in actions().iter() {
                check_status!(register_action(host, action));
            }
            if let Some(set_range) = host_extension::<standfit_parameter_checks_ext>(host, STANDFIT_EXT_PARAMETER_CHECKS)
                .and_then(|checks| checks.set_parameter_range)
            {
                check_status!(set_range(host, c_str!("com.example.timer.start"), c_str!("minutes"), 1.0, 180.0));
            }
            if let Some(intents) = host_extension::<standfit_intents_ext>(host, STANDFIT_EXT_INTENTS) {
                if let Some(register_phrase) = intents.register_phrase {
                    check_status!(register_phrase(host, c_str!("com.example.timer.start"), c_str!("en"), c_str!("start a {minutes} minute timer")));
                    check_status!(register_phrase(host, c_str!("com.example.timer.left"), c_str!("en"), c_str!("how long is left")));
                }
                if let Some(set_prompt) = intents.set_parameter_prompt {
                    check_status!(set_prompt(host, c_str!("com.example.timer.start"), c_str!("minutes"), c_str!("How many minutes?")));
                }
            }
            let pomodoro = standfit_item {
                abi: header::<standfit_item>(),
                r#type: c_str!("com.example.timer.start"),
                title: c_str!("Pomodoro"),
                subtitle: c_str!("25 minutes"),
                icon: c_str!("timer"),
                user_info_json: c_str!("{\"minutes\": 25, \"label\": \"Pomodoro\"}"),
            };
            let Some(register_static_item) = (*host).register_static_item else { return STANDFIT_ERR_INVALID_ARGUMENT };
            register_static_item(host, &pomodoro)
        },
        |panic| unsafe {
            if let (Some(log), Ok(message)) = ((*host).log, CString::new(format!("init failed: {panic}"))) {
                log(host, STANDFIT_LOG_ERROR, message.as_ptr());
            }
        },
    )
}

static ENTRY: standfit_plugin_entry = standfit_plugin_entry {
    abi: header::<standfit_plugin_entry>(),
    id: c_str!("com.example.timer"),
    name: c_str!("Timer (Rust example)"),
    version: c_str!("1.0.0"),
    init: Some(init),
    get_extension: None,
};

/// The one exported function.
#[no_mangle]
pub extern "C" fn standfit_plugin_entry_v1() -> *const standfit_plugin_entry {
    &ENTRY
}
