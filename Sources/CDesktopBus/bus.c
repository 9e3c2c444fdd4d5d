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

#include "bus_private.h"

#define DEFINE(name) __typeof__(name) *p_##name;
SD_FUNCTIONS(DEFINE)
#undef DEFINE
const unsigned *p_vtable_format;

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

/* A pending asynchronous call's answer goes to this. */
typedef struct pending {
    standfit_bus *owner;
    uint64_t token;
} pending;

char *bus_copy(const char *text) { return text == NULL ? NULL : strdup(text); }

char **bus_copy_strings(const char *const *strings, size_t count) {
    char **list = calloc(count + 1, sizeof(char *));
    if (list == NULL) return NULL;
    for (size_t i = 0; i < count; i++) list[i] = bus_copy(strings[i] ? strings[i] : "");
    return list;
}

int bus_read_strings(sd_bus_message *m, char **strings, size_t *count) {
    *count = 0;
    int r = p_sd_bus_message_enter_container(m, 'a', "s");
    if (r < 0) return r;
    const char *text;
    while ((r = p_sd_bus_message_read_basic(m, 's', &text)) > 0) {
        if (*count < MAX_PARAMETERS) strings[(*count)++] = strdup(text);
    }
    if (r < 0) {
        for (size_t i = 0; i < *count; i++) free(strings[i]);
        *count = 0;
        return r;
    }
    return p_sd_bus_message_exit_container(m);
}

request *bus_new_request(request_kind kind, void *call) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return NULL;
    q->kind = kind;
    q->call = call;
    return q;
}

void bus_copy_rows(request *q, size_t count, const char *const *ids, const char *const *texts, const char *const *icons,
                   const char *const *subtexts) {
    q->matches = calloc(count + 1, sizeof *q->matches);
    if (q->matches == NULL) return;
    q->match_count = count;
    for (size_t i = 0; i < count; i++) {
        q->matches[i] = (match_row){ .id = bus_copy(ids[i]), .text = bus_copy(texts ? texts[i] : NULL),
                                     .icon = bus_copy(icons && icons[i] ? icons[i] : ""),
                                     .subtext = bus_copy(subtexts ? subtexts[i] : NULL) };
    }
}

void bus_deliver(standfit_bus *bus, standfit_bus_event *event) {
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

int bus_deliver_call(standfit_bus *bus, sd_bus_message *m, standfit_bus_event event) {
    p_sd_bus_message_ref(m);
    event.call = m;
    event.sender = p_sd_bus_message_get_sender(m);
    bus_deliver(bus, &event);
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
        bus_deliver(bus, &event);
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
        bus_deliver(bus, &event);
        for (size_t i = 0; i < count; i++) { free(keys[i]); free(values[i]); }
        return p_sd_bus_error_set(error, "org.freedesktop.DBus.Error.InvalidArgs", sentence);
    }
    if (r < 0) {
        for (size_t i = 0; i < count; i++) { free(keys[i]); free(values[i]); }
        return r;
    }
    bus_deliver_call(bus, m, (standfit_bus_event){ .kind = STANDFIT_BUS_ACTIVATE_ACTION, .name = name,
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
    bus_deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_ACTIVATE, .name = app });
    free(app);
    return 1;
}

static int on_open(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    char *uris[MAX_PARAMETERS];
    size_t count = 0;
    int r = bus_read_strings(m, uris, &count);
    if (r < 0) return r;
    bus_deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_OPEN, .values = (const char *const *)uris, .count = count });
    for (size_t i = 0; i < count; i++) free(uris[i]);
    return 1;
}

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
    bus_build_runner_vtable();
    bus_build_search_vtable();
}

/* ActionInvoked (u, s), NotificationClosed (u, u) and NotificationReplied (u, s). */
static int on_notification_signal(sd_bus_message *m, void *userdata, standfit_bus_event_kind kind) {
    uint32_t id = 0;
    if (p_sd_bus_message_read_basic(m, 'u', &id) < 0) return 0;
    standfit_bus_event event = { .kind = kind, .id = id, .sender = p_sd_bus_message_get_sender(m) };
    const char *text = NULL;
    if (kind != STANDFIT_BUS_NOTIFICATION_CLOSED) {
        if (p_sd_bus_message_read_basic(m, 's', &text) < 0) return 0;
        event.name = text;
    }
    bus_deliver(userdata, &event);
    return 0;
}

static int on_action_invoked(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return on_notification_signal(m, userdata, STANDFIT_BUS_ACTION_INVOKED);
}

static int on_notification_closed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return on_notification_signal(m, userdata, STANDFIT_BUS_NOTIFICATION_CLOSED);
}

static int on_notification_replied(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return on_notification_signal(m, userdata, STANDFIT_BUS_NOTIFICATION_REPLIED);
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
    bus_deliver(p->owner, &event);
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
    bus_deliver(p->owner, &event);
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(p);
    return 0;
}

static void free_request(request *q) {
    free(q->error_name); free(q->message); free(q->app_name); free(q->icon); free(q->summary); free(q->body);
    free(q->desktop_entry); free(q->destination); free(q->path); free(q->reply_placeholder);
    free(q->interface); free(q->member);
    for (size_t i = 0; i < q->match_count; i++) {
        free(q->matches[i].id); free(q->matches[i].text); free(q->matches[i].icon); free(q->matches[i].subtext);
    }
    free(q->matches);
    for (char **entry = q->actions; entry != NULL && *entry != NULL; entry++) free(*entry);
    free(q->actions);
    free(q);
}

int bus_append_entry(sd_bus_message *m, const char *key, char type, const void *value) {
    const char contents[2] = { type, 0 };
    int r;
    if ((r = p_sd_bus_message_open_container(m, 'e', "sv")) < 0) return r;
    if ((r = p_sd_bus_message_append_basic(m, 's', key)) < 0) return r;
    if ((r = p_sd_bus_message_open_container(m, 'v', contents)) < 0) return r;
    if ((r = p_sd_bus_message_append_basic(m, type, value)) < 0) return r;
    if ((r = p_sd_bus_message_close_container(m)) < 0) return r;
    return p_sd_bus_message_close_container(m);
}

int bus_append_strv_entry(sd_bus_message *m, const char *key, char **strings) {
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
    case REQUEST_ACTIVATE: case REQUEST_CALL: case REQUEST_ENVIRONMENT: event.kind = STANDFIT_BUS_CALLED; break;
    default: return;
    }
    bus_deliver(bus, &event);
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
    if ((r = bus_append_entry(m, "urgency", 'y', &q->urgency)) < 0) goto done;
    if (q->desktop_entry != NULL && (r = bus_append_entry(m, "desktop-entry", 's', q->desktop_entry)) < 0) goto done;
    if (q->reply_placeholder != NULL &&
        (r = bus_append_entry(m, "x-kde-reply-placeholder-text", 's', q->reply_placeholder)) < 0) goto done;
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
    bus_deliver(p->owner, &event);
    free(p);
    return 0;
}

/* The answer to Get(Manager, Environment): a variant holding `as`, handed on as the event's values. */
static int on_environment(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    pending *p = userdata;
    standfit_bus_event event = { .kind = STANDFIT_BUS_CALLED, .token = p->token };
    char *variables[MAX_ENVIRONMENT];
    size_t count = 0;
    const char *failure = error_text(m);
    if (failure != NULL) {
        event.error = -EIO;
        event.name = failure;
    } else if (p_sd_bus_message_enter_container(m, 'v', "as") >= 0 && p_sd_bus_message_enter_container(m, 'a', "s") >= 0) {
        const char *variable;
        while (count < MAX_ENVIRONMENT && p_sd_bus_message_read_basic(m, 's', &variable) > 0) variables[count++] = strdup(variable);
    } else {
        event.error = -EBADMSG;
        event.name = "the user's service manager answered Environment with no string list";
    }
    event.values = (const char *const *)variables;
    event.count = count;
    bus_deliver(p->owner, &event);
    for (size_t i = 0; i < count; i++) free(variables[i]);
    free(p);
    return 0;
}

/* Asks the user's service manager (systemd --user, whose environment is the session's activation
   environment: dbus-update-activation-environment --systemd, environment.d) for its Environment
   property, without starting it. */
static int send_environment(standfit_bus *bus, request *q) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus->bus, &m, "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                                             "org.freedesktop.DBus.Properties", "Get");
    if (r < 0) return r;
    if ((r = p_sd_bus_message_set_auto_start(m, 0)) < 0 ||
        (r = p_sd_bus_message_append_basic(m, 's', "org.freedesktop.systemd1.Manager")) < 0 ||
        (r = p_sd_bus_message_append_basic(m, 's', "Environment")) < 0) {
        p_sd_bus_message_unref(m);
        return r;
    }
    return call_async(bus, m, on_environment, q->token);
}

static int send_activate(standfit_bus *bus, request *q) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus->bus, &m, q->destination, q->path, "org.freedesktop.Application", "Activate");
    if (r < 0) return r;
    if ((r = p_sd_bus_message_open_container(m, 'a', "{sv}")) < 0
        || (q->app_name != NULL && (r = bus_append_entry(m, APP_KEY, 's', q->app_name)) < 0)
        || (r = p_sd_bus_message_close_container(m)) < 0) {
        p_sd_bus_message_unref(m);
        return r;
    }
    return call_async(bus, m, on_called, q->token);
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
        case REQUEST_REPLY_RUNNER_ACTIONS:
        case REQUEST_REPLY_RESULTS:
        case REQUEST_REPLY_METAS:
            r = q->kind == REQUEST_REPLY_RESULTS || q->kind == REQUEST_REPLY_METAS ? bus_send_search_reply(q)
                                                                                    : bus_send_runner_reply(q);
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
        case REQUEST_ENVIRONMENT:
            r = send_environment(bus, q);
            break;
        case REQUEST_CALL: {
            sd_bus_message *m = NULL;
            r = p_sd_bus_message_new_method_call(bus->bus, &m, q->destination, q->path, q->interface, q->member);
            if (r >= 0 && (r = p_sd_bus_message_append_basic(m, 's', q->body ? q->body : "")) < 0) p_sd_bus_message_unref(m);
            if (r >= 0) r = call_async(bus, m, on_called, q->token);
            break;
        }
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
        bus_deliver(bus, &event);
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
                                 const char *search_path,
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
        (r = p_sd_bus_add_object_vtable(connection, NULL, runner_path, "org.kde.krunner1", bus_runner_vtable, bus)) < 0) {
        snprintf(why, why_size, "cannot serve %s (%s)", runner_path, strerror(-r));
        goto fail;
    }
    if (application_id != NULL && search_path != NULL &&
        (r = p_sd_bus_add_object_vtable(connection, NULL, search_path, "org.gnome.Shell.SearchProvider2", bus_search_vtable,
                                        bus)) < 0) {
        snprintf(why, why_size, "cannot serve %s (%s)", search_path, strerror(-r));
        goto fail;
    }
    if ((r = p_sd_bus_match_signal(connection, NULL, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                   "org.freedesktop.Notifications", "ActionInvoked", on_action_invoked, bus)) < 0 ||
        (r = p_sd_bus_match_signal(connection, NULL, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                   "org.freedesktop.Notifications", "NotificationClosed", on_notification_closed, bus)) < 0 ||
        (r = p_sd_bus_match_signal(connection, NULL, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                   "org.freedesktop.Notifications", "NotificationReplied", on_notification_replied, bus)) < 0) {
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

void bus_enqueue(standfit_bus *bus, request *q) {
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
    request *q = bus_new_request(REQUEST_REPLY, call);
    if (q == NULL) return;
    q->error_name = bus_copy(error_name);
    q->message = bus_copy(message);
    bus_enqueue(bus, q);
}

void standfit_bus_notify(standfit_bus *bus, uint64_t token, const char *app_name, uint32_t replaces_id,
                         const char *icon, const char *summary, const char *body,
                         const char *const *actions, size_t action_count, uint8_t urgency,
                         const char *desktop_entry, int32_t timeout_ms, const char *reply_placeholder) {
    request *q = bus_new_request(REQUEST_NOTIFY, NULL);
    if (q == NULL) return;
    q->token = token;
    q->app_name = bus_copy(app_name);
    q->replaces_id = replaces_id;
    q->icon = bus_copy(icon);
    q->summary = bus_copy(summary);
    q->body = bus_copy(body);
    q->desktop_entry = bus_copy(desktop_entry);
    q->urgency = urgency;
    q->timeout_ms = timeout_ms;
    q->reply_placeholder = bus_copy(reply_placeholder);
    q->actions = bus_copy_strings(actions, action_count * 2);
    if (q->actions != NULL) q->action_count = action_count;
    bus_enqueue(bus, q);
}

void standfit_bus_activate(standfit_bus *bus, uint64_t token, const char *application_id, const char *object_path,
                           const char *app) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return;
    q->kind = REQUEST_ACTIVATE;
    q->token = token;
    q->app_name = bus_copy(app);
    q->destination = bus_copy(application_id);
    q->path = bus_copy(object_path);
    bus_enqueue(bus, q);
}

void standfit_bus_call_with_string(standfit_bus *bus, uint64_t token, const char *destination, const char *path,
                                   const char *interface, const char *method, const char *argument) {
    request *q = bus_new_request(REQUEST_CALL, NULL);
    if (q == NULL) return;
    q->token = token;
    q->destination = bus_copy(destination);
    q->path = bus_copy(path);
    q->interface = bus_copy(interface);
    q->member = bus_copy(method);
    q->body = bus_copy(argument);
    bus_enqueue(bus, q);
}

void standfit_bus_session_environment(standfit_bus *bus, uint64_t token) {
    request *q = bus_new_request(REQUEST_ENVIRONMENT, NULL);
    if (q == NULL) return;
    q->token = token;
    bus_enqueue(bus, q);
}

void standfit_bus_close_notification(standfit_bus *bus, uint32_t id) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return;
    q->kind = REQUEST_CLOSE;
    q->replaces_id = id;
    bus_enqueue(bus, q);
}

void standfit_bus_capabilities(standfit_bus *bus, uint64_t token) {
    request *q = calloc(1, sizeof *q);
    if (q == NULL) return;
    q->kind = REQUEST_CAPABILITIES;
    q->token = token;
    bus_enqueue(bus, q);
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
