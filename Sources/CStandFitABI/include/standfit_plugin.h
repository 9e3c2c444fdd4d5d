/*
 * standfit_plugin.h — the standfit-host plugin ABI, version 1.
 *
 * This header (with the extension headers it includes at its end, standfit_ext_*.h, one per
 * extension) is the whole contract between standfit-host and its plugins. A plugin is a shared
 * object that exports exactly one function, `standfit_plugin_entry_v1`, and links against nothing
 * of the host: everything the host offers arrives as a table of function pointers at `init`.
 *
 * Rules (see docs/ABI.md for the long form):
 *  - Every table that crosses the boundary starts with a `standfit_abi_header`. The host accepts a
 *    table whose `abi_major` equals its own and whose `abi_minor` is not newer than its own, and
 *    refuses one whose `struct_size` is smaller than the size this header declares.
 *  - Tables never grow in place: new capability arrives through `get_extension("name/rev")`.
 *  - Only C types cross: integers, doubles, `bool`, NUL-terminated UTF-8 strings and pointers to
 *    the tables below. No structs by value, no variadic functions, no exceptions or unwinding.
 *  - Memory is freed on the side that allocated it. Strings passed to the host are copied before
 *    the call returns; strings the host passes to a plugin are borrowed for the duration of the
 *    call unless a comment says otherwise.
 *  - Thread annotations: [main-thread] means the host's main thread, the only thread on which the
 *    host calls into a plugin in ABI 1.
 */
#ifndef STANDFIT_PLUGIN_H
#define STANDFIT_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STANDFIT_ABI_MAJOR 1
#define STANDFIT_ABI_MINOR 0

/* The name of the one symbol a plugin exports. */
#define STANDFIT_ENTRY_SYMBOL "standfit_plugin_entry_v1"

/* Marks the entry function as exported when a plugin is built with -fvisibility=hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define STANDFIT_EXPORT __attribute__((visibility("default")))
#else
#define STANDFIT_EXPORT
#endif

/* First member of every table: which ABI the table was written for and how large it is. */
typedef struct standfit_abi_header {
    uint32_t abi_major;   /* STANDFIT_ABI_MAJOR of the header the table was compiled against */
    uint32_t abi_minor;   /* STANDFIT_ABI_MINOR of that header */
    uint32_t struct_size; /* sizeof the table as compiled */
} standfit_abi_header;

/* Fills a header for a table of type T: `.abi = STANDFIT_HEADER(standfit_action)`. */
#define STANDFIT_HEADER(T) { STANDFIT_ABI_MAJOR, STANDFIT_ABI_MINOR, (uint32_t)sizeof(T) }

/* ---- Status codes ------------------------------------------------------------------------ */

/* What a handler returns. Any other value is reported by the host as a plugin failure. */
#define STANDFIT_STATUS_HANDLED 0       /* the action ran */
#define STANDFIT_STATUS_DECLINED 1      /* the plugin chose not to run it (message says why) */
#define STANDFIT_STATUS_INVALID_INPUT 2 /* a parameter value was unusable (message names it); the run
                                           did nothing, so the host may ask again and call again */
#define STANDFIT_STATUS_FAILED 3        /* the action tried and failed (message says why) */

/* What host functions return. */
#define STANDFIT_OK 0
#define STANDFIT_ERR_INVALID_ARGUMENT -1 /* a NULL or malformed field; the host logged which */
#define STANDFIT_ERR_DUPLICATE -2        /* the type is already registered; the first one wins */
#define STANDFIT_ERR_NOT_IN_INIT -3      /* registration outside init is refused */
#define STANDFIT_ERR_UNSUPPORTED -4      /* the host does not offer this in this context */

/* Log levels for standfit_host.log. */
#define STANDFIT_LOG_DEBUG 0
#define STANDFIT_LOG_INFO 1
#define STANDFIT_LOG_WARNING 2
#define STANDFIT_LOG_ERROR 3

/* ---- Parameters -------------------------------------------------------------------------- */

/* The closed set of parameter kinds, and the C type each is passed to a handler as. */
#define STANDFIT_KIND_BOOL 1   /* bool */
#define STANDFIT_KIND_INT64 2  /* int64_t */
#define STANDFIT_KIND_DOUBLE 3 /* double */
#define STANDFIT_KIND_STRING 4 /* const char * (borrowed UTF-8, NULL when an optional is absent) */

/* At most this many parameters per action (one bit each in standfit_invocation.provided). */
#define STANDFIT_MAX_PARAMS 32

/* One declared parameter. Arrays of these are laid out with sizeof(standfit_param) as stride. */
typedef struct standfit_param {
    standfit_abi_header abi;
    const char *name;          /* [A-Za-z_][A-Za-z0-9_]*, unique in the action; host copies it */
    int32_t kind;              /* STANDFIT_KIND_* */
    bool required;             /* true: the run is refused as invalid-input when no value binds */
    const char *default_value; /* text coerced to `kind` at registration, or NULL for none */
    const char *title;         /* human label ("How many"), or NULL; host copies it */
} standfit_param;

/* ---- Invocation -------------------------------------------------------------------------- */

typedef struct standfit_invocation standfit_invocation;

/* The context a handler receives as its first argument. Valid only during the handler call: kept
   and used afterwards, its functions return STANDFIT_ERR_UNSUPPORTED and do nothing, and its
   strings are empty (the host never frees a context's memory under a late caller). */
struct standfit_invocation {
    standfit_abi_header abi;
    const char *type;           /* the type the user asked for (for namespace and fallback handlers
                                   this differs from the registered type); borrowed */
    const char *user_info_json; /* the item's userInfo as a JSON object text ("{}" when none) */
    uint32_t provided;          /* bit i set when parameter i received a value (argument,
                                   userInfo or default); clear bits carry 0, false, 0.0 or NULL */
    const char *locale;         /* preferred language, e.g. "nl" or "en_US"; never NULL */
    void *host_data;            /* opaque to the plugin; pass the context back unchanged */

    /* set_message: sets the one-sentence dialog the user sees for this run, replacing any earlier
       one. Returns STANDFIT_OK, or STANDFIT_ERR_INVALID_ARGUMENT for NULL or non-UTF-8 text.
       Memory: the host copies `utf8` before returning; the plugin keeps ownership.
       Thread: [main-thread], only during the handler call. */
    int32_t (*set_message)(const standfit_invocation *ctx, const char *utf8);

    /* set_data_json: attaches structured output (a JSON value) shown under "data" by --json.
       Returns STANDFIT_OK, or STANDFIT_ERR_INVALID_ARGUMENT when `json` is not valid JSON.
       Memory: the host copies `json` before returning. Thread: [main-thread], during the call. */
    int32_t (*set_data_json)(const standfit_invocation *ctx, const char *json);
};

/* A handler is a plain C function
 *
 *     int32_t handler(const standfit_invocation *ctx, <declared parameters, in order>);
 *
 * where each declared parameter is passed as the C type its kind names above. It returns a
 * STANDFIT_STATUS_* code. The host calls it through libffi from the declared signature, on the
 * main thread. The descriptor stores it type-erased; cast with STANDFIT_HANDLER(fn). */
typedef void (*standfit_handler_fn)(void);
#define STANDFIT_HANDLER(fn) ((standfit_handler_fn)(fn))

/* ---- Actions and items ------------------------------------------------------------------- */

/* One shortcut type a plugin handles. The host copies every field during register_action. */
typedef struct standfit_action {
    standfit_abi_header abi;
    const char *type;               /* reverse-DNS type, "com.example.greet"; or a namespace
                                       "com.example.*" that handles every type under it */
    const char *title;              /* shown in menus, "Greet" */
    const char *subtitle;           /* or NULL */
    const char *icon;               /* an SF Symbol, UIApplicationShortcutIconType or freedesktop
                                       icon name (docs/PLUGIN_GUIDE.md lists them), or NULL */
    const standfit_param *params;   /* `param_count` parameters, in handler-argument order */
    uint32_t param_count;           /* 0 ... STANDFIT_MAX_PARAMS */
    standfit_handler_fn handler;    /* see above; never NULL */
} standfit_action;

/* A quick-action item: what a menu shows. Used for a plugin's default static items and for the
   items a dynamic provider returns. The host copies every field during the call it is passed to. */
typedef struct standfit_item {
    standfit_abi_header abi;
    const char *type;           /* the type run when the item is chosen */
    const char *title;          /* shown in menus */
    const char *subtitle;       /* or NULL */
    const char *icon;           /* or NULL */
    const char *user_info_json; /* a JSON object of string keys, or NULL for none */
} standfit_item;

typedef struct standfit_item_sink standfit_item_sink;

/* Where a dynamic provider puts its items. Valid only during the provide call. */
struct standfit_item_sink {
    standfit_abi_header abi;
    const char *locale; /* preferred language for titles; never NULL */
    void *host_data;    /* opaque to the plugin */

    /* add: appends one item, in rank order (first added ranks first).
       Returns STANDFIT_OK, or STANDFIT_ERR_INVALID_ARGUMENT for a missing type or title or a
       userInfo that is not a JSON object (the host logs which). Memory: copied before returning.
       Thread: [main-thread], only during provide. */
    int32_t (*add)(const standfit_item_sink *sink, const standfit_item *item);
};

/* A plugin's source of items computed from its state ("Log Squats (last)"). */
typedef struct standfit_dynamic_provider {
    standfit_abi_header abi;
    /* provide: adds the plugin's current dynamic items to `sink`.
       Returns STANDFIT_OK, or any other value to report failure (the host keeps no items from a
       failed call). Memory: nothing is handed over. Thread: [main-thread]. */
    int32_t (*provide)(const standfit_item_sink *sink);
} standfit_dynamic_provider;

/* ---- The host table ---------------------------------------------------------------------- */

typedef struct standfit_host standfit_host;

/* What the host offers a plugin. Passed to init; valid, at the same address, for the life of the
   process, so a plugin may keep the pointer. */
struct standfit_host {
    standfit_abi_header abi;
    const char *host_version; /* "1.0.0"; host-owned, lives for the process */
    void *host_data;          /* opaque to the plugin */

    /* log: writes one line to the host's log, tagged with the plugin's id.
       Returns nothing. Memory: `message` is copied. Thread: [main-thread]. */
    void (*log)(const standfit_host *host, int32_t level, const char *message);

    /* register_action: declares a shortcut type this plugin handles.
       Returns STANDFIT_OK; STANDFIT_ERR_DUPLICATE when this plugin registered the type already
       (its first registration is kept); STANDFIT_ERR_INVALID_ARGUMENT for a malformed
       descriptor; STANDFIT_ERR_NOT_IN_INIT outside init. Each plugin is scanned on its own, so a
       type two plugins register is settled when the host puts them together: the plugin that
       loads first keeps it, and the host prints a diagnostic naming both.
       Memory: the host copies the descriptor, its strings and its parameter array; the handler
       pointer must stay valid for the life of the process. Thread: [main-thread], inside init. */
    int32_t (*register_action)(const standfit_host *host, const standfit_action *action);

    /* register_static_item: contributes a default quick action shown after the manifest's own.
       Returns STANDFIT_OK, STANDFIT_ERR_INVALID_ARGUMENT or STANDFIT_ERR_NOT_IN_INIT.
       Memory: copied. Thread: [main-thread], inside init. */
    int32_t (*register_static_item)(const standfit_host *host, const standfit_item *item);

    /* register_dynamic_provider: installs this plugin's one dynamic-items provider; a second call
       replaces the first. Returns STANDFIT_OK, STANDFIT_ERR_INVALID_ARGUMENT or
       STANDFIT_ERR_NOT_IN_INIT. Memory: the host copies the table; `provide` must stay valid for
       the life of the process. Thread: [main-thread], inside init. */
    int32_t (*register_dynamic_provider)(const standfit_host *host,
                                         const standfit_dynamic_provider *provider);

    /* data_directory: the absolute path of a directory private to this plugin
       ($XDG_DATA_HOME/standfit/data/<plugin id>), created on first call.
       Returns the path, or NULL when it cannot be created (the host logs why).
       Memory: host-owned, valid for the life of the process. Thread: [main-thread]. */
    const char *(*data_directory)(const standfit_host *host);

    /* get_extension: looks up an optional host capability by id, "name/rev".
       Returns a pointer to the extension's table (which starts with a standfit_abi_header), or
       NULL when this host does not offer it. Memory: host-owned, lives for the process.
       Thread: [main-thread]. */
    const void *(*get_extension)(const standfit_host *host, const char *id);
};

/* ---- The plugin entry -------------------------------------------------------------------- */

/* What standfit_plugin_entry_v1 returns. Must live for the life of the process. */
typedef struct standfit_plugin_entry {
    standfit_abi_header abi;
    const char *id;      /* reverse-DNS plugin id, "com.example.greeter" */
    const char *name;    /* human name, "Greeter" */
    const char *version; /* the plugin's own version, "1.2.0" */

    /* init: registers the plugin's actions, static items and provider through `host`.
       Fast (no I/O beyond reading its own files) and idempotent: a second call registers the
       same things again. Returns STANDFIT_OK, or any other value to refuse loading (log why
       through host->log first). Memory: `host` is host-owned and may be kept.
       Thread: [main-thread], once per process in practice. */
    int32_t (*init)(const standfit_host *host);

    /* get_extension: looks up an optional plugin capability by id, "name/rev".
       Returns its table, or NULL. May itself be NULL when the plugin offers none.
       Memory: plugin-owned, lives for the process. Thread: [main-thread]. */
    const void *(*get_extension)(const char *id);
} standfit_plugin_entry;

/* The one exported function: returns the plugin's entry table, or NULL to refuse loading.
   Cheap: no I/O and no logging (there is no host table yet); the host calls it right after
   dlopen, before init. Thread: [main-thread]. */
typedef const standfit_plugin_entry *(*standfit_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif

/* ---- Declaring an action once: STANDFIT_DECLARE_HANDLER, STANDFIT_ACTION -------------------- */

#include "standfit_declare.h"

/* ---- Host extensions (through standfit_host.get_extension), a header each ---------------- */

#include "standfit_ext_locale.h"
#include "standfit_ext_plugin_file.h"
#include "standfit_ext_intents.h"
#include "standfit_ext_item_lifetime.h"
#include "standfit_ext_action_traits.h"
#include "standfit_ext_parameter_traits.h"
#include "standfit_ext_donations.h"
#include "standfit_ext_parameter_checks.h"
#include "standfit_ext_clock.h"
#include "standfit_ext_programs.h"
#include "standfit_ext_reply.h"

#endif /* STANDFIT_PLUGIN_H */
