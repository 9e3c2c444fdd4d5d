/*
 * bus_private.h — what the desktop bus's protocol files share, inside this target: the sd-bus
 * functions (opened with dlopen by bus.c), the queue of requests the bus thread carries out, and
 * the helpers every protocol uses to hand a call to the server and build its answer.
 *
 * bus.c owns the connection, its thread and queue; messages.c the helpers every file builds
 * with; calls.c the calls made for the server (Activate on an application, the user's service
 * manager's environment, a string call); application.c serves org.freedesktop.Application; notifications.c calls
 * org.freedesktop.Notifications and hears its signals; runner.c serves KRunner
 * (org.kde.krunner1); search_provider.c serves GNOME Shell's search
 * (org.gnome.Shell.SearchProvider2).
 */
#ifndef STANDFIT_BUS_PRIVATE_H
#define STANDFIT_BUS_PRIVATE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-bus.h>

#include "standfit_desktop_bus.h"

/* The sd-bus functions used, reached through dlopen("libsystemd.so.0") (see the public header). */
#define SD_FUNCTIONS(X) \
    X(sd_bus_new) X(sd_bus_set_address) X(sd_bus_set_bus_client) X(sd_bus_start) \
    X(sd_bus_add_object_vtable) X(sd_bus_request_name) X(sd_bus_process) \
    X(sd_bus_get_fd) X(sd_bus_get_events) X(sd_bus_get_timeout) \
    X(sd_bus_match_signal) X(sd_bus_call_async) X(sd_bus_error_set) \
    X(sd_bus_message_read_basic) X(sd_bus_message_enter_container) X(sd_bus_message_exit_container) \
    X(sd_bus_message_peek_type) X(sd_bus_message_skip) X(sd_bus_message_ref) X(sd_bus_message_unref) \
    X(sd_bus_message_get_sender) X(sd_bus_message_is_method_error) X(sd_bus_message_get_error) \
    X(sd_bus_reply_method_return) X(sd_bus_reply_method_error) X(sd_bus_message_new_method_call) \
    X(sd_bus_message_append_basic) X(sd_bus_message_open_container) X(sd_bus_message_close_container) \
    X(sd_bus_message_new_method_return) X(sd_bus_send) X(sd_bus_message_append_strv) \
    X(sd_bus_message_set_auto_start) X(sd_bus_set_method_call_timeout) X(sd_bus_is_ready) X(sd_bus_wait) \
    X(sd_bus_close_unref)

#define DECLARE(name) extern __typeof__(name) *p_##name;
SD_FUNCTIONS(DECLARE)
#undef DECLARE

/* The vtable format marker libsystemd exports as data; SD_BUS_VTABLE_START takes its address. */
extern const unsigned *p_vtable_format;
#define sd_bus_object_vtable_format (*p_vtable_format)

/* What a caller on the bus may send: an action name (a desktop action key or a type) and a
   parameter name are short; a value is at most as long as one a command line carries whole.
   Longer ones are refused with a sentence, never cut. */
enum { MAX_PARAMETERS = 64, NAME_LIMIT = 256, VALUE_LIMIT = 16384 };
/* The most variables read of the user's service manager's environment. */
enum { MAX_ENVIRONMENT = 512 };

/* What the server asked of the bus, waiting for the bus thread. The REQUEST_REPLY_* kinds answer
   a call with a body (else with an error saying why the body could not be made). */
typedef enum {
    REQUEST_REPLY, REQUEST_NOTIFY, REQUEST_CAPABILITIES, REQUEST_ACTIVATE, REQUEST_CALL, REQUEST_ENVIRONMENT, REQUEST_CLOSE,
    REQUEST_REPLY_MATCHES, REQUEST_REPLY_CONFIG, REQUEST_REPLY_RUNNER_ACTIONS,
    REQUEST_REPLY_RESULTS, REQUEST_REPLY_METAS
} request_kind;

/* One row of an answer, copied for the bus thread: a KRunner match (all fields), a KRunner
   action (id, text, icon) or a search result's meta (id, text as its name, icon, subtext as its
   description). */
typedef struct match_row {
    char *id, *text, *icon, *subtext;
    int32_t type;
    double relevance;
    /* Whether the runner's actions apply to this match. */
    uint8_t with_actions;
} match_row;

typedef struct request {
    request_kind kind;
    struct request *next;
    sd_bus_message *call;
    char *error_name, *message;
    uint64_t token;
    char *app_name, *icon, *summary, *body, *desktop_entry, *destination, *path, *reply_placeholder;
    /* A REQUEST_CALL's interface and method (its destination and path above, its string argument
       in `body`). */
    char *interface, *member;
    /* A NULL-terminated list of `action_count` strings (pairs for a Notify). */
    char **actions;
    size_t action_count;
    uint32_t replaces_id;
    uint8_t urgency;
    int32_t timeout_ms;
    int resident;
    match_row *matches;
    size_t match_count;
    int32_t min_letter_count;
} request;

struct standfit_bus {
    sd_bus *bus;
    standfit_bus_handler handler;
    void *context;
    int wake;
    pthread_t thread;
    pthread_mutex_t lock;
    request *first, *last;
    int stopping;
    /* The bus thread has ended (stopped, or the connection was lost). */
    int ended;
    /* The bus thread was started (standfit_bus_run). */
    int running;
};

/* libsystemd (libsystemd.c): opened once; 1 when it and every sd-bus function were found. */
int bus_load_libsystemd(void);
/* Opens a client connection to the bus at `address`. */
int bus_open(const char *address, sd_bus **out);

/* A copy of `text` (NULL for NULL). */
char *bus_copy(const char *text);
/* A copy of `count` strings as a NULL-terminated list (NULL when out of memory). */
char **bus_copy_strings(const char *const *strings, size_t count);
/* Hands `event` to the server's handler. */
void bus_deliver(standfit_bus *bus, standfit_bus_event *event);
/* Hands method call `m` to the server as `event` (its call and sender filled in here), keeping
   a reference until the server answers it; sd-bus sends no reply meanwhile. Returns 1. */
int bus_deliver_call(standfit_bus *bus, sd_bus_message *m, standfit_bus_event event);
/* Reads an `as` argument of at most MAX_PARAMETERS strings into `strings` (each newly
   allocated; the caller frees them) and sets `*count`. */
int bus_read_strings(sd_bus_message *m, char **strings, size_t *count);
/* A new request of `kind` answering `call` (NULL when out of memory). */
request *bus_new_request(request_kind kind, void *call);
/* Copies `count` rows into `q->matches` (fields NULL or zero where the arrays are NULL). */
void bus_copy_rows(request *q, size_t count, const char *const *ids, const char *const *texts, const char *const *icons,
                   const char *const *subtexts);
/* Queues `q` for the bus thread (or fails it at once when the thread has ended). */
void bus_enqueue(standfit_bus *bus, request *q);
/* Appends one a{sv} entry: `key` and a variant of basic type `type` holding `value` (a pointer to
   it, or the string itself for 's'). */
int bus_append_entry(sd_bus_message *m, const char *key, char type, const void *value);
/* Appends one a{sv} entry whose value is a string list (NULL-terminated `strings`). */
int bus_append_strv_entry(sd_bus_message *m, const char *key, char **strings);

/* A pending asynchronous call's answer goes to this. */
typedef struct pending {
    standfit_bus *owner;
    uint64_t token;
} pending;

/* The text of a method error reply, or NULL. */
const char *bus_error_text(sd_bus_message *m);
/* Sends method call `m` (released here) and has its answer go to `callback`, which gets a
   `pending` naming `token` and frees it. Returns 0, or a negative errno. */
int bus_call_async(standfit_bus *bus, sd_bus_message *m, sd_bus_message_handler_t callback, uint64_t token);
/* The answer to a call made for the server: a STANDFIT_BUS_CALLED event. */
int bus_on_called(sd_bus_message *m, void *userdata, sd_bus_error *error);

/* Frees request `q` and what it holds (not its call). */
void bus_free_request(request *q);

/* The calls made for the server (calls.c), sent by the bus thread. */
int bus_send_activate(standfit_bus *bus, request *q);
int bus_send_environment(standfit_bus *bus, request *q);
int bus_send_call(standfit_bus *bus, request *q);

/* The platform-data key that names the one app whose picker Activate shows (menu --notify --app). */
#define APP_KEY "standfit-app"

/* org.freedesktop.Application (application.c): its vtable, built once libsystemd is loaded. */
extern sd_bus_vtable bus_application_vtable[];
void bus_build_application_vtable(void);

/* org.freedesktop.Notifications (notifications.c): the signals listened for on the connection,
   and the calls the bus thread sends. */
int bus_listen_for_notifications(standfit_bus *bus);
int bus_send_notify(standfit_bus *bus, request *q);
int bus_send_capabilities(standfit_bus *bus, request *q);
int bus_send_close(standfit_bus *bus, request *q);

/* KRunner (runner.c): its vtable (built once libsystemd is loaded) and the bodies of its answers. */
extern sd_bus_vtable bus_runner_vtable[];
void bus_build_runner_vtable(void);
int bus_send_runner_reply(request *q);

/* GNOME Shell's search (search_provider.c): its vtable and the bodies of its answers. */
extern sd_bus_vtable bus_search_vtable[];
void bus_build_search_vtable(void);
int bus_send_search_reply(request *q);

#endif
