#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>

#include "standfit_desktop_bus.h"

/* The sd-bus functions used here, reached through dlopen("libsystemd.so.0") (see the header). */
#define SD_FUNCTIONS(X) \
    X(sd_bus_open_user) X(sd_bus_new) X(sd_bus_set_address) X(sd_bus_set_bus_client) X(sd_bus_start) \
    X(sd_bus_flush_close_unref) X(sd_bus_add_object_vtable) X(sd_bus_request_name) X(sd_bus_process) \
    X(sd_bus_get_fd) X(sd_bus_get_events) X(sd_bus_get_timeout) \
    X(sd_bus_match_signal) X(sd_bus_call_async) X(sd_bus_error_set) \
    X(sd_bus_message_read_basic) X(sd_bus_message_enter_container) X(sd_bus_message_exit_container) \
    X(sd_bus_message_peek_type) X(sd_bus_message_skip) X(sd_bus_message_ref) X(sd_bus_message_unref) \
    X(sd_bus_message_get_sender) X(sd_bus_message_is_method_error) X(sd_bus_message_get_error) \
    X(sd_bus_reply_method_return) X(sd_bus_reply_method_error) X(sd_bus_message_new_method_call) \
    X(sd_bus_message_append_basic) X(sd_bus_message_open_container) X(sd_bus_message_close_container) \
    X(sd_bus_message_new_method_return) X(sd_bus_send) X(sd_bus_message_append_strv)

#define DECLARE(name) static __typeof__(name) *p_##name;
SD_FUNCTIONS(DECLARE)
#undef DECLARE

/* The vtable format marker libsystemd exports as data; SD_BUS_VTABLE_START takes its address. */
static const unsigned *p_vtable_format;
#define sd_bus_object_vtable_format (*p_vtable_format)

static pthread_once_t loaded_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static void build_vtable(void);

static void load_libsystemd(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define RESOLVE(name) p_##name = (__typeof__(name) *)dlsym(library, #name); if (p_##name == NULL) return;
    SD_FUNCTIONS(RESOLVE)
#undef RESOLVE
    p_vtable_format = dlsym(library, "sd_bus_object_vtable_format");
    if (p_vtable_format == NULL) return;
    build_vtable();
    loaded = 1;
}

/* What the server asked of the bus, waiting for the bus thread. */
typedef enum {
    REQUEST_REPLY, REQUEST_NOTIFY, REQUEST_CAPABILITIES, REQUEST_ACTIVATE, REQUEST_REPLY_MATCHES, REQUEST_REPLY_CONFIG,
    REQUEST_CLOSE
} request_kind;

/* One KRunner match, copied for the bus thread. */
typedef struct match_row {
    char *id, *text, *icon, *subtext;
    int32_t type;
    double relevance;
} match_row;

typedef struct request {
    request_kind kind;
    struct request *next;
    sd_bus_message *call;
    char *error_name, *message;
    uint64_t token;
    char *app_name, *icon, *summary, *body, *desktop_entry, *destination, *path;
    char **actions;
    size_t action_count;
    uint32_t replaces_id;
    uint8_t urgency;
    int32_t timeout_ms;
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

/* A pending asynchronous call's answer goes to this. */
typedef struct pending {
    standfit_bus *owner;
    uint64_t token;
} pending;

static char *copy(const char *text) { return text == NULL ? NULL : strdup(text); }

static void deliver(standfit_bus *bus, standfit_bus_event *event) {
    event->bus = bus;
    bus->handler(bus->context, event);
}

/* One basic value as text, whole and newly allocated (the caller frees it); NULL for a type that
   is not basic. */
static char *read_basic_as_text(sd_bus_message *m, char type) {
    union { const char *s; int b; uint8_t y; int16_t n; uint16_t q; int32_t i; uint32_t u; int64_t x; uint64_t t; double d; } v;
    if (p_sd_bus_message_read_basic(m, type, &v) < 0) return NULL;
    char out[64];
    switch (type) {
    case 's': case 'o': case 'g': return strdup(v.s);
    case 'b': snprintf(out, sizeof out, "%s", v.b ? "true" : "false"); break;
    case 'y': snprintf(out, sizeof out, "%u", (unsigned)v.y); break;
    case 'n': snprintf(out, sizeof out, "%d", (int)v.n); break;
    case 'q': snprintf(out, sizeof out, "%u", (unsigned)v.q); break;
    case 'i': snprintf(out, sizeof out, "%" PRId32, v.i); break;
    case 'u': snprintf(out, sizeof out, "%" PRIu32, v.u); break;
    case 'x': snprintf(out, sizeof out, "%" PRId64, v.x); break;
    case 't': snprintf(out, sizeof out, "%" PRIu64, v.t); break;
    case 'd': snprintf(out, sizeof out, "%.17g", v.d); break;
    default: return NULL;
    }
    return strdup(out);
}

/* What a caller on the bus may send: an action name (a desktop action key or a type) and a
   parameter name are short; a value is at most as long as one a command line carries whole.
   Longer ones are refused with a sentence, never cut. */
enum { MAX_PARAMETERS = 64, NAME_LIMIT = 256, VALUE_LIMIT = 16384 };

/* Hands method call `m` to the server as `event` (its call and sender filled in here), keeping
   a reference until the server answers it; sd-bus sends no reply meanwhile. */
static int deliver_call(standfit_bus *bus, sd_bus_message *m, standfit_bus_event event) {
    p_sd_bus_message_ref(m);
    event.call = m;
    event.sender = p_sd_bus_message_get_sender(m);
    deliver(bus, &event);
    return 1;
}

static int on_activate_action(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    standfit_bus *bus = userdata;
    const char *name = NULL;
    char *keys[MAX_PARAMETERS], *values[MAX_PARAMETERS];
    size_t count = 0;
    char refusal[256] = "";
    int r = p_sd_bus_message_read_basic(m, 's', &name);
    if (r < 0) return r;
    size_t name_size = strlen(name);
    if (name_size > NAME_LIMIT) {
        char sentence[256];
        snprintf(sentence, sizeof sentence,
                 "ActivateAction got an action name of %zu bytes; a desktop action key or a type is at most %d bytes, "
                 "such as 'logexercise'.", name_size, NAME_LIMIT);
        standfit_bus_event event = { .kind = STANDFIT_BUS_REFUSED, .name = sentence,
                                     .sender = p_sd_bus_message_get_sender(m) };
        deliver(bus, &event);
        return p_sd_bus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", sentence);
    }
    if ((r = p_sd_bus_message_enter_container(m, 'a', "v")) < 0) return r;
    char type;
    const char *contents;
    while (refusal[0] == 0 && (r = p_sd_bus_message_peek_type(m, &type, &contents)) > 0) {
        if ((r = p_sd_bus_message_enter_container(m, 'v', contents)) < 0) break;
        if (strcmp(contents, "a{sv}") != 0) {
            snprintf(refusal, sizeof refusal, "a value of type '%s'", contents);
            break;
        }
        if ((r = p_sd_bus_message_enter_container(m, 'a', "{sv}")) < 0) break;
        while ((r = p_sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
            const char *key = NULL, *inner = NULL;
            char inner_type;
            if ((r = p_sd_bus_message_read_basic(m, 's', &key)) < 0) break;
            if (strlen(key) > NAME_LIMIT) {
                snprintf(refusal, sizeof refusal, "a parameter name of %zu bytes", strlen(key));
                break;
            }
            if ((r = p_sd_bus_message_peek_type(m, &inner_type, &inner)) < 0) break;
            if ((r = p_sd_bus_message_enter_container(m, 'v', inner)) < 0) break;
            char *value = strlen(inner) == 1 ? read_basic_as_text(m, inner[0]) : NULL;
            if (value == NULL) {
                snprintf(refusal, sizeof refusal, "'%s' of type '%s'", key, inner);
                break;
            }
            if (strlen(value) > VALUE_LIMIT) {
                snprintf(refusal, sizeof refusal, "a value of %zu bytes for '%s'", strlen(value), key);
                free(value);
                break;
            }
            if (count == MAX_PARAMETERS) {
                snprintf(refusal, sizeof refusal, "more than %d values", MAX_PARAMETERS);
                free(value);
                break;
            }
            keys[count] = strdup(key);
            values[count] = value;
            count++;
            if ((r = p_sd_bus_message_exit_container(m)) < 0) break;
            if ((r = p_sd_bus_message_exit_container(m)) < 0) break;
        }
        if (refusal[0] != 0 || r < 0) break;
        if ((r = p_sd_bus_message_exit_container(m)) < 0) break;
        if ((r = p_sd_bus_message_exit_container(m)) < 0) break;
    }
    if (refusal[0] != 0) {
        char sentence[1024];
        snprintf(sentence, sizeof sentence,
                 "ActivateAction '%s' got %s as its parameter; pass parameter values as one dictionary of basic "
                 "values (names of at most %d bytes, values of at most %d), such as \"{'exercise': <'squats'>, 'count': <20>}\".",
                 name, refusal, NAME_LIMIT, VALUE_LIMIT);
        standfit_bus_event event = { .kind = STANDFIT_BUS_REFUSED, .name = sentence,
                                     .sender = p_sd_bus_message_get_sender(m) };
        deliver(bus, &event);
        for (size_t i = 0; i < count; i++) { free(keys[i]); free(values[i]); }
        return p_sd_bus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", sentence);
    }
    if (r < 0) {
        for (size_t i = 0; i < count; i++) { free(keys[i]); free(values[i]); }
        return r;
    }
    deliver_call(bus, m, (standfit_bus_event){ .kind = STANDFIT_BUS_ACTIVATE_ACTION, .name = name,
                                               .keys = (const char *const *)keys, .values = (const char *const *)values,
                                               .count = count });
    for (size_t i = 0; i < count; i++) { free(keys[i]); free(values[i]); }
    return 1;
}

/* The platform-data key that names the one app whose picker Activate shows (menu --notify --app). */
#define APP_KEY "standfit-app"

static int on_activate(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    /* Platform data: only "standfit-app" (a string) is read; every other entry is skipped. */
    char *app = NULL;
    int r = p_sd_bus_message_enter_container(m, 'a', "{sv}");
    if (r < 0) return r;
    while ((r = p_sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
        const char *key = NULL, *contents = NULL;
        char type;
        if ((r = p_sd_bus_message_read_basic(m, 's', &key)) < 0) break;
        if ((r = p_sd_bus_message_peek_type(m, &type, &contents)) < 0) break;
        if (app == NULL && strcmp(key, APP_KEY) == 0 && contents != NULL && strcmp(contents, "s") == 0) {
            const char *value = NULL;
            if ((r = p_sd_bus_message_enter_container(m, 'v', "s")) < 0) break;
            if ((r = p_sd_bus_message_read_basic(m, 's', &value)) < 0) break;
            if (value != NULL && strlen(value) <= NAME_LIMIT) app = strdup(value);
            if ((r = p_sd_bus_message_exit_container(m)) < 0) break;
        } else if ((r = p_sd_bus_message_skip(m, "v")) < 0) {
            break;
        }
        if ((r = p_sd_bus_message_exit_container(m)) < 0) break;
    }
    if (r >= 0) r = p_sd_bus_message_exit_container(m);
    if (r < 0) {
        free(app);
        return r;
    }
    deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_ACTIVATE, .name = app });
    free(app);
    return 1;
}

static int on_open(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    standfit_bus *bus = userdata;
    char *uris[MAX_PARAMETERS];
    size_t count = 0;
    int r = p_sd_bus_message_enter_container(m, 'a', "s");
    if (r < 0) return r;
    const char *uri;
    while (count < MAX_PARAMETERS && (r = p_sd_bus_message_read_basic(m, 's', &uri)) > 0) uris[count++] = strdup(uri);
    deliver_call(bus, m, (standfit_bus_event){ .kind = STANDFIT_BUS_OPEN, .values = (const char *const *)uris, .count = count });
    for (size_t i = 0; i < count; i++) free(uris[i]);
    return 1;
}

static int on_runner_match(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    const char *query = NULL;
    int r = p_sd_bus_message_read_basic(m, 's', &query);
    if (r < 0) return r;
    return deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_RUNNER_MATCH, .name = query });
}

static int on_runner_run(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    const char *match = NULL, *action = NULL;
    int r;
    if ((r = p_sd_bus_message_read_basic(m, 's', &match)) < 0 || (r = p_sd_bus_message_read_basic(m, 's', &action)) < 0) return r;
    const char *values[1] = { action };
    return deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_RUNNER_RUN, .name = match, .values = values, .count = 1 });
}

static int on_runner_config(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_RUNNER_CONFIG });
}

/* Actions: none (every match runs by its default action). */
static int on_runner_actions(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    sd_bus_message *reply = NULL;
    int r = p_sd_bus_message_new_method_return(m, &reply);
    if (r < 0) return r;
    if ((r = p_sd_bus_message_open_container(reply, 'a', "(sss)")) >= 0 && (r = p_sd_bus_message_close_container(reply)) >= 0) {
        r = p_sd_bus_send(NULL, reply, NULL);
    }
    p_sd_bus_message_unref(reply);
    return r;
}

static int on_runner_teardown(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    return p_sd_bus_reply_method_return(m, "");
}

static sd_bus_vtable runner_vtable[7];

/* org.freedesktop.Application. Built once libsystemd is loaded (its first element points at
   libsystemd's format marker); sd-bus keeps the pointer, so it lives for the process. */
static sd_bus_vtable application_vtable[5];

static void build_vtable(void) {
    const sd_bus_vtable table[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("Activate", "a{sv}", "", on_activate, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Open", "asa{sv}", "", on_open, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("ActivateAction", "sava{sv}", "", on_activate_action, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END
    };
    _Static_assert(sizeof table == sizeof application_vtable, "application_vtable's size");
    memcpy(application_vtable, table, sizeof table);
    const sd_bus_vtable runner[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("Match", "s", "a(sssida{sv})", on_runner_match, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Run", "ss", "", on_runner_run, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Config", "", "a{sv}", on_runner_config, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Actions", "", "a(sss)", on_runner_actions, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Teardown", "", "", on_runner_teardown, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END
    };
    _Static_assert(sizeof runner == sizeof runner_vtable, "runner_vtable's size");
    memcpy(runner_vtable, runner, sizeof runner);
}

static int on_notification_signal(sd_bus_message *m, void *userdata, sd_bus_error *error, int invoked) {
    (void)error;
    standfit_bus *bus = userdata;
    uint32_t id = 0;
    if (p_sd_bus_message_read_basic(m, 'u', &id) < 0) return 0;
    standfit_bus_event event = { .kind = invoked ? STANDFIT_BUS_ACTION_INVOKED : STANDFIT_BUS_NOTIFICATION_CLOSED,
                                 .id = id, .sender = p_sd_bus_message_get_sender(m) };
    const char *key = NULL;
    if (invoked) {
        if (p_sd_bus_message_read_basic(m, 's', &key) < 0) return 0;
        event.name = key;
    }
    deliver(bus, &event);
    return 0;
}

static int on_action_invoked(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    return on_notification_signal(m, userdata, error, 1);
}

static int on_notification_closed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    return on_notification_signal(m, userdata, error, 0);
}

/* The text of a method error reply, or NULL. */
static const char *error_text(sd_bus_message *m) {
    if (!p_sd_bus_message_is_method_error(m, NULL)) return NULL;
    const sd_bus_error *e = p_sd_bus_message_get_error(m);
    return e != NULL && e->message != NULL ? e->message : (e != NULL && e->name != NULL ? e->name : "the call failed");
}

static int on_notified(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    pending *p = userdata;
    standfit_bus_event event = { .kind = STANDFIT_BUS_NOTIFIED, .token = p->token };
    const char *failure = error_text(m);
    if (failure != NULL) {
        event.error = -EIO;
        event.name = failure;
    } else if (p_sd_bus_message_read_basic(m, 'u', &event.id) < 0) {
        event.error = -EBADMSG;
        event.name = "the notification server answered Notify without an id";
    }
    deliver(p->owner, &event);
    free(p);
    return 0;
}

static int on_capabilities(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    pending *p = userdata;
    standfit_bus_event event = { .kind = STANDFIT_BUS_CAPABILITIES, .token = p->token };
    char *names[MAX_PARAMETERS];
    size_t count = 0;
    const char *failure = error_text(m);
    if (failure != NULL) {
        event.error = -EIO;
        event.name = failure;
    } else if (p_sd_bus_message_enter_container(m, 'a', "s") >= 0) {
        const char *name;
        while (count < MAX_PARAMETERS && p_sd_bus_message_read_basic(m, 's', &name) > 0) names[count++] = strdup(name);
    }
    event.values = (const char *const *)names;
    event.count = count;
    deliver(p->owner, &event);
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(p);
    return 0;
}

static void free_request(request *q) {
    free(q->error_name); free(q->message); free(q->app_name); free(q->icon); free(q->summary); free(q->body);
    free(q->desktop_entry); free(q->destination); free(q->path);
    for (size_t i = 0; i < q->match_count; i++) {
        free(q->matches[i].id); free(q->matches[i].text); free(q->matches[i].icon); free(q->matches[i].subtext);
    }
    free(q->matches);
    for (char **entry = q->actions; entry != NULL && *entry != NULL; entry++) free(*entry);
    free(q->actions);
    free(q);
}

/* Appends one a{sv} entry: `key` and a variant of basic type `type` holding `value` (a pointer to
   it, or the string itself for 's'). */
static int append_entry(sd_bus_message *m, const char *key, char type, const void *value) {
    const char contents[2] = { type, 0 };
    int r;
    if ((r = p_sd_bus_message_open_container(m, 'e', "sv")) < 0) return r;
    if ((r = p_sd_bus_message_append_basic(m, 's', key)) < 0) return r;
    if ((r = p_sd_bus_message_open_container(m, 'v', contents)) < 0) return r;
    if ((r = p_sd_bus_message_append_basic(m, type, value)) < 0) return r;
    if ((r = p_sd_bus_message_close_container(m)) < 0) return r;
    return p_sd_bus_message_close_container(m);
}

/* Appends one a{sv} entry whose value is a string list (NULL-terminated `strings`). */
static int append_strv_entry(sd_bus_message *m, const char *key, char **strings) {
    int r;
    if ((r = p_sd_bus_message_open_container(m, 'e', "sv")) < 0) return r;
    if ((r = p_sd_bus_message_append_basic(m, 's', key)) < 0) return r;
    if ((r = p_sd_bus_message_open_container(m, 'v', "as")) < 0) return r;
    if ((r = p_sd_bus_message_append_strv(m, strings)) < 0) return r;
    if ((r = p_sd_bus_message_close_container(m)) < 0) return r;
    return p_sd_bus_message_close_container(m);
}

/* Sends method call `m` (released here) and has its answer go to `callback`, which gets a
   `pending` naming `token` and frees it. Returns 0, or a negative errno. */
static int call_async(standfit_bus *bus, sd_bus_message *m, sd_bus_message_handler_t callback, uint64_t token) {
    int r = -ENOMEM;
    pending *p = malloc(sizeof *p);
    if (p != NULL) {
        p->owner = bus;
        p->token = token;
        r = p_sd_bus_call_async(bus->bus, NULL, m, callback, p, 0);
        if (r < 0) free(p);
    }
    p_sd_bus_message_unref(m);
    return r;
}

/* Tells the server that asynchronous request `q` (a Notify, GetCapabilities or Activate)
   failed with `error`: its answer event, carrying `why`. Other requests have no answer event. */
static void fail_request(standfit_bus *bus, const request *q, int error, const char *why) {
    standfit_bus_event event = { .token = q->token, .error = error, .name = why };
    switch (q->kind) {
    case REQUEST_NOTIFY: event.kind = STANDFIT_BUS_NOTIFIED; break;
    case REQUEST_CAPABILITIES: event.kind = STANDFIT_BUS_CAPABILITIES; break;
    case REQUEST_ACTIVATE: event.kind = STANDFIT_BUS_CALLED; break;
    default: return;
    }
    deliver(bus, &event);
}

/* Sends one Notify call; its answer comes to on_notified. */
static int send_notify(standfit_bus *bus, request *q) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus->bus, &m, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                             "org.freedesktop.Notifications", "Notify");
    if (r < 0) return r;
    const char *empty = "";
    if ((r = p_sd_bus_message_append_basic(m, 's', q->app_name ? q->app_name : empty)) < 0) goto done;
    if ((r = p_sd_bus_message_append_basic(m, 'u', &q->replaces_id)) < 0) goto done;
    if ((r = p_sd_bus_message_append_basic(m, 's', q->icon ? q->icon : empty)) < 0) goto done;
    if ((r = p_sd_bus_message_append_basic(m, 's', q->summary ? q->summary : empty)) < 0) goto done;
    if ((r = p_sd_bus_message_append_basic(m, 's', q->body ? q->body : empty)) < 0) goto done;
    if ((r = p_sd_bus_message_open_container(m, 'a', "s")) < 0) goto done;
    for (size_t i = 0; i < q->action_count * 2; i++) {
        if ((r = p_sd_bus_message_append_basic(m, 's', q->actions[i])) < 0) goto done;
    }
    if ((r = p_sd_bus_message_close_container(m)) < 0) goto done;
    if ((r = p_sd_bus_message_open_container(m, 'a', "{sv}")) < 0) goto done;
    if ((r = append_entry(m, "urgency", 'y', &q->urgency)) < 0) goto done;
    if (q->desktop_entry != NULL && (r = append_entry(m, "desktop-entry", 's', q->desktop_entry)) < 0) goto done;
    if ((r = p_sd_bus_message_close_container(m)) < 0) goto done;
    if ((r = p_sd_bus_message_append_basic(m, 'i', &q->timeout_ms)) < 0) goto done;
    return call_async(bus, m, on_notified, q->token);
done:
    p_sd_bus_message_unref(m);
    return r;
}

static int send_capabilities(standfit_bus *bus, request *q) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus->bus, &m, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                             "org.freedesktop.Notifications", "GetCapabilities");
    if (r < 0) return r;
    return call_async(bus, m, on_capabilities, q->token);
}

static int on_called(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    pending *p = userdata;
    standfit_bus_event event = { .kind = STANDFIT_BUS_CALLED, .token = p->token };
    const char *failure = error_text(m);
    if (failure != NULL) {
        event.error = -EIO;
        event.name = failure;
    }
    deliver(p->owner, &event);
    free(p);
    return 0;
}

static int send_activate(standfit_bus *bus, request *q) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus->bus, &m, q->destination, q->path, "org.freedesktop.Application", "Activate");
    if (r < 0) return r;
    if ((r = p_sd_bus_message_open_container(m, 'a', "{sv}")) < 0
        || (q->app_name != NULL && (r = append_entry(m, APP_KEY, 's', q->app_name)) < 0)
        || (r = p_sd_bus_message_close_container(m)) < 0) {
        p_sd_bus_message_unref(m);
        return r;
    }
    return call_async(bus, m, on_called, q->token);
}

/* Sends the reply to Match: a(sssida{sv}), each with its subtext and no actions. */
static int send_matches(request *q) {
    sd_bus_message *reply = NULL;
    int r = p_sd_bus_message_new_method_return(q->call, &reply);
    if (r < 0) return r;
    if ((r = p_sd_bus_message_open_container(reply, 'a', "(sssida{sv})")) < 0) goto done;
    for (size_t i = 0; i < q->match_count; i++) {
        match_row *row = &q->matches[i];
        if ((r = p_sd_bus_message_open_container(reply, 'r', "sssida{sv}")) < 0) goto done;
        if ((r = p_sd_bus_message_append_basic(reply, 's', row->id)) < 0) goto done;
        if ((r = p_sd_bus_message_append_basic(reply, 's', row->text)) < 0) goto done;
        if ((r = p_sd_bus_message_append_basic(reply, 's', row->icon)) < 0) goto done;
        if ((r = p_sd_bus_message_append_basic(reply, 'i', &row->type)) < 0) goto done;
        if ((r = p_sd_bus_message_append_basic(reply, 'd', &row->relevance)) < 0) goto done;
        if ((r = p_sd_bus_message_open_container(reply, 'a', "{sv}")) < 0) goto done;
        if (row->subtext != NULL && (r = append_entry(reply, "subtext", 's', row->subtext)) < 0) goto done;
        /* An empty list: KRunner shows no action buttons for the match. */
        if ((r = append_strv_entry(reply, "actions", (char *[]){ NULL })) < 0) goto done;
        if ((r = p_sd_bus_message_close_container(reply)) < 0) goto done;
        if ((r = p_sd_bus_message_close_container(reply)) < 0) goto done;
    }
    if ((r = p_sd_bus_message_close_container(reply)) < 0) goto done;
    r = p_sd_bus_send(NULL, reply, NULL);
done:
    p_sd_bus_message_unref(reply);
    return r;
}

/* Sends the reply to Config: a{sv} with MinLetterCount and TriggerWords. */
static int send_config(request *q) {
    sd_bus_message *reply = NULL;
    int r = p_sd_bus_message_new_method_return(q->call, &reply);
    if (r < 0) return r;
    if ((r = p_sd_bus_message_open_container(reply, 'a', "{sv}")) < 0) goto done;
    if ((r = append_entry(reply, "MinLetterCount", 'i', &q->min_letter_count)) < 0) goto done;
    if (q->action_count > 0 && (r = append_strv_entry(reply, "TriggerWords", q->actions)) < 0) goto done;
    if ((r = p_sd_bus_message_close_container(reply)) < 0) goto done;
    r = p_sd_bus_send(NULL, reply, NULL);
done:
    p_sd_bus_message_unref(reply);
    return r;
}

/* Carries out what the server queued, on the bus thread. */
static void drain(standfit_bus *bus) {
    pthread_mutex_lock(&bus->lock);
    request *q = bus->first;
    bus->first = bus->last = NULL;
    pthread_mutex_unlock(&bus->lock);
    while (q != NULL) {
        request *next = q->next;
        int r = 0;
        switch (q->kind) {
        case REQUEST_REPLY:
            if (q->error_name == NULL) {
                p_sd_bus_reply_method_return(q->call, "");
            } else {
                sd_bus_error e = SD_BUS_ERROR_MAKE_CONST(q->error_name, q->message);
                p_sd_bus_reply_method_error(q->call, &e);
            }
            p_sd_bus_message_unref(q->call);
            break;
        case REQUEST_NOTIFY:
            r = send_notify(bus, q);
            break;
        case REQUEST_REPLY_MATCHES:
        case REQUEST_REPLY_CONFIG:
            r = q->kind == REQUEST_REPLY_MATCHES ? send_matches(q) : send_config(q);
            if (r < 0) {
                sd_bus_error e = SD_BUS_ERROR_MAKE_CONST("org.freedesktop.DBus.Error.Failed", strerror(-r));
                p_sd_bus_reply_method_error(q->call, &e);
            }
            p_sd_bus_message_unref(q->call);
            break;
        case REQUEST_CLOSE: {
            sd_bus_message *m = NULL;
            if (p_sd_bus_message_new_method_call(bus->bus, &m, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                                 "org.freedesktop.Notifications", "CloseNotification") >= 0 &&
                p_sd_bus_message_append_basic(m, 'u', &q->replaces_id) >= 0) {
                p_sd_bus_send(bus->bus, m, NULL);
            }
            p_sd_bus_message_unref(m);
            break;
        }
        case REQUEST_ACTIVATE:
            r = send_activate(bus, q);
            break;
        case REQUEST_CAPABILITIES:
            r = send_capabilities(bus, q);
            break;
        }
        if (r < 0) fail_request(bus, q, r, strerror(-r));
        free_request(q);
        q = next;
    }
}

static void *bus_thread(void *argument) {
    standfit_bus *bus = argument;
    int lost = 0;
    for (;;) {
        drain(bus);
        int r;
        while ((r = p_sd_bus_process(bus->bus, NULL)) > 0) {}
        if (r < 0) { lost = r; break; }
        pthread_mutex_lock(&bus->lock);
        int stopping = bus->stopping;
        int queued = bus->first != NULL;
        pthread_mutex_unlock(&bus->lock);
        if (stopping) {
            /* Answers queued before the stop still go out (stop flushes them). */
            drain(bus);
            break;
        }
        if (queued) continue;
        struct pollfd fds[2] = {
            { .fd = p_sd_bus_get_fd(bus->bus), .events = (short)p_sd_bus_get_events(bus->bus) },
            { .fd = bus->wake, .events = POLLIN },
        };
        uint64_t until = UINT64_MAX;
        int timeout = -1;
        if (p_sd_bus_get_timeout(bus->bus, &until) > 0 && until != UINT64_MAX) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            uint64_t now_usec = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
            timeout = until <= now_usec ? 0 : (int)((until - now_usec + 999) / 1000);
        }
        if (poll(fds, 2, timeout) < 0 && errno != EINTR) { lost = -errno; break; }
        if (fds[1].revents != 0) {
            uint64_t count;
            ssize_t ignored = read(bus->wake, &count, sizeof count);
            (void)ignored;
        }
    }
    pthread_mutex_lock(&bus->lock);
    bus->ended = 1;
    pthread_mutex_unlock(&bus->lock);
    if (lost < 0) {
        standfit_bus_event event = { .kind = STANDFIT_BUS_LOST, .error = lost, .name = strerror(-lost) };
        deliver(bus, &event);
    }
    return NULL;
}

static int open_session_bus(sd_bus **out) {
    /* Started by D-Bus activation on the session bus: that bus, whatever DBUS_SESSION_BUS_ADDRESS says. */
    const char *starter = getenv("DBUS_STARTER_ADDRESS");
    const char *starter_type = getenv("DBUS_STARTER_BUS_TYPE");
    if (starter != NULL && starter_type != NULL && strcmp(starter_type, "session") == 0) {
        sd_bus *bus = NULL;
        int r = p_sd_bus_new(&bus);
        if (r < 0) return r;
        if ((r = p_sd_bus_set_address(bus, starter)) < 0 || (r = p_sd_bus_set_bus_client(bus, 1)) < 0 ||
            (r = p_sd_bus_start(bus)) < 0) {
            p_sd_bus_flush_close_unref(bus);
            return r;
        }
        *out = bus;
        return 0;
    }
    return p_sd_bus_open_user(out);
}

standfit_bus *standfit_bus_start(const char *application_id, const char *object_path, const char *runner_path,
                                 standfit_bus_handler handler, void *context,
                                 int *error, char *why, size_t why_size) {
    pthread_once(&loaded_once, load_libsystemd);
    if (!loaded) {
        *error = -ENOENT;
        const char *reason = dlerror();
        snprintf(why, why_size, "libsystemd.so.0 (sd-bus) cannot be loaded: %s", reason ? reason : "not found");
        return NULL;
    }
    sd_bus *connection = NULL;
    int r = open_session_bus(&connection);
    if (r < 0) {
        *error = r;
        snprintf(why, why_size, "no session bus (%s)", strerror(-r));
        return NULL;
    }
    standfit_bus *bus = calloc(1, sizeof *bus);
    if (bus == NULL) {
        p_sd_bus_flush_close_unref(connection);
        *error = -ENOMEM;
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    bus->bus = connection;
    bus->handler = handler;
    bus->context = context;
    pthread_mutex_init(&bus->lock, NULL);
    bus->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (bus->wake < 0) {
        r = -errno;
        snprintf(why, why_size, "cannot make an eventfd (%s)", strerror(-r));
        goto fail;
    }
    if (application_id != NULL &&
        (r = p_sd_bus_add_object_vtable(connection, NULL, object_path, "org.freedesktop.Application",
                                        application_vtable, bus)) < 0) {
        snprintf(why, why_size, "cannot serve %s (%s)", object_path, strerror(-r));
        goto fail;
    }
    if (application_id != NULL && runner_path != NULL &&
        (r = p_sd_bus_add_object_vtable(connection, NULL, runner_path, "org.kde.krunner1", runner_vtable, bus)) < 0) {
        snprintf(why, why_size, "cannot serve %s (%s)", runner_path, strerror(-r));
        goto fail;
    }
    if ((r = p_sd_bus_match_signal(connection, NULL, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                   "org.freedesktop.Notifications", "ActionInvoked", on_action_invoked, bus)) < 0 ||
        (r = p_sd_bus_match_signal(connection, NULL, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                   "org.freedesktop.Notifications", "NotificationClosed", on_notification_closed, bus)) < 0) {
        snprintf(why, why_size, "cannot listen for notification signals (%s)", strerror(-r));
        goto fail;
    }
    r = application_id == NULL ? 0
        : p_sd_bus_request_name(connection, application_id, SD_BUS_NAME_REPLACE_EXISTING | SD_BUS_NAME_ALLOW_REPLACEMENT);
    if (r < 0 && r != -EALREADY) {
        snprintf(why, why_size, r == -EEXIST ? "another process owns %s and does not let it go"
                                             : "the bus refused the name %s (%s)", application_id, strerror(-r));
        goto fail;
    }
    return bus;
fail:
    *error = r;
    p_sd_bus_flush_close_unref(connection);
    if (bus->wake >= 0) close(bus->wake);
    pthread_mutex_destroy(&bus->lock);
    free(bus);
    return NULL;
}

void standfit_bus_run(standfit_bus *bus) {
    if (pthread_create(&bus->thread, NULL, bus_thread, bus) != 0) {
        /* No thread: the connection is as good as lost. */
        pthread_mutex_lock(&bus->lock);
        bus->ended = 1;
        pthread_mutex_unlock(&bus->lock);
        return;
    }
    pthread_mutex_lock(&bus->lock);
    bus->running = 1;
    pthread_mutex_unlock(&bus->lock);
}

static void enqueue(standfit_bus *bus, request *q) {
    pthread_mutex_lock(&bus->lock);
    if (bus->ended) {
        /* No bus thread to carry it out: a call is released (its caller gets NoReply from the bus),
           and an asynchronous request fails at once. The connection itself is freed by stop. */
        if (q->call != NULL) p_sd_bus_message_unref(q->call);
        pthread_mutex_unlock(&bus->lock);
        fail_request(bus, q, -ENOTCONN, "the connection to the session bus has ended");
        free_request(q);
        return;
    }
    if (bus->last != NULL) bus->last->next = q; else bus->first = q;
    bus->last = q;
    pthread_mutex_unlock(&bus->lock);
    uint64_t one = 1;
    ssize_t ignored = write(bus->wake, &one, sizeof one);
    (void)ignored;
}

void standfit_bus_reply(standfit_bus *bus, void *call, const char *error_name, const char *message) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return;
    q->kind = REQUEST_REPLY;
    q->call = call;
    q->error_name = copy(error_name);
    q->message = copy(message);
    enqueue(bus, q);
}

void standfit_bus_reply_matches(standfit_bus *bus, void *call, size_t count, const char *const *ids,
                                const char *const *texts, const char *const *icons, const int32_t *types,
                                const double *relevances, const char *const *subtexts) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return;
    q->kind = REQUEST_REPLY_MATCHES;
    q->call = call;
    q->matches = calloc(count + 1, sizeof *q->matches);
    if (q->matches != NULL) {
        q->match_count = count;
        for (size_t i = 0; i < count; i++) {
            q->matches[i] = (match_row){ copy(ids[i]), copy(texts[i]), copy(icons[i] ? icons[i] : ""),
                                         copy(subtexts[i]), types[i], relevances[i] };
        }
    }
    enqueue(bus, q);
}

void standfit_bus_reply_runner_config(standfit_bus *bus, void *call, int32_t min_letter_count,
                                      const char *const *trigger_words, size_t word_count) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return;
    q->kind = REQUEST_REPLY_CONFIG;
    q->call = call;
    q->min_letter_count = min_letter_count;
    /* The words as a NULL-terminated list in `actions` (action_count is their number). */
    q->actions = calloc(word_count + 1, sizeof(char *));
    if (q->actions != NULL) {
        q->action_count = word_count;
        for (size_t i = 0; i < word_count; i++) q->actions[i] = copy(trigger_words[i]);
    }
    enqueue(bus, q);
}

void standfit_bus_notify(standfit_bus *bus, uint64_t token, const char *app_name, uint32_t replaces_id,
                         const char *icon, const char *summary, const char *body,
                         const char *const *actions, size_t action_count, uint8_t urgency,
                         const char *desktop_entry, int32_t timeout_ms) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return;
    q->kind = REQUEST_NOTIFY;
    q->token = token;
    q->app_name = copy(app_name);
    q->replaces_id = replaces_id;
    q->icon = copy(icon);
    q->summary = copy(summary);
    q->body = copy(body);
    q->desktop_entry = copy(desktop_entry);
    q->urgency = urgency;
    q->timeout_ms = timeout_ms;
    q->actions = calloc(action_count * 2 + 1, sizeof(char *));
    if (q->actions != NULL) {
        q->action_count = action_count;
        for (size_t i = 0; i < action_count * 2; i++) q->actions[i] = copy(actions[i] ? actions[i] : "");
    }
    enqueue(bus, q);
}

void standfit_bus_activate(standfit_bus *bus, uint64_t token, const char *application_id, const char *object_path,
                           const char *app) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return;
    q->kind = REQUEST_ACTIVATE;
    q->token = token;
    q->app_name = copy(app);
    q->destination = copy(application_id);
    q->path = copy(object_path);
    enqueue(bus, q);
}

void standfit_bus_close_notification(standfit_bus *bus, uint32_t id) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return;
    q->kind = REQUEST_CLOSE;
    q->replaces_id = id;
    enqueue(bus, q);
}

void standfit_bus_capabilities(standfit_bus *bus, uint64_t token) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return;
    q->kind = REQUEST_CAPABILITIES;
    q->token = token;
    enqueue(bus, q);
}

void standfit_bus_stop(standfit_bus *bus) {
    pthread_mutex_lock(&bus->lock);
    bus->stopping = 1;
    pthread_mutex_unlock(&bus->lock);
    uint64_t one = 1;
    ssize_t ignored = write(bus->wake, &one, sizeof one);
    (void)ignored;
    pthread_mutex_lock(&bus->lock);
    int running = bus->running;
    pthread_mutex_unlock(&bus->lock);
    if (running) pthread_join(bus->thread, NULL);
    pthread_mutex_lock(&bus->lock);
    bus->ended = 1;
    request *q = bus->first;
    bus->first = bus->last = NULL;
    /* Every message holds a reference on the connection that is not atomic: releases happen
       under the lock, as enqueue's do. */
    while (q != NULL) {
        request *next = q->next;
        if (q->call != NULL) p_sd_bus_message_unref(q->call);
        free_request(q);
        q = next;
    }
    /* Closing the connection releases the name; calls still held by the server are released
       when it answers them (enqueue), after which the connection's memory goes. The struct
       itself is kept: an answer may still arrive from another thread. */
    p_sd_bus_flush_close_unref(bus->bus);
    pthread_mutex_unlock(&bus->lock);
}
