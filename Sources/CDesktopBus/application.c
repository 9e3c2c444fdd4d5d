/* org.freedesktop.Application, served at the application's object path: ActivateAction (an
   action and its parameters as a dictionary of basic values, refused whole with a sentence when
   it is anything else), Activate (its platform data may name one app) and Open. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus_private.h"

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
sd_bus_vtable bus_application_vtable[5];

void bus_build_application_vtable(void) {
    const sd_bus_vtable table[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("Activate", "a{sv}", "", on_activate, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Open", "asa{sv}", "", on_open, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("ActivateAction", "sava{sv}", "", on_activate_action, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END
    };
    _Static_assert(sizeof table == sizeof bus_application_vtable, "bus_application_vtable's size");
    memcpy(bus_application_vtable, table, sizeof table);
}
