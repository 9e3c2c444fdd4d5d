/* The calls the server makes on the bus besides notifications: Activate on an application (the
   bus starting it), a method with one string (Klipper's setClipboardContents), and the user's
   service manager's environment; each answered as a STANDFIT_BUS_CALLED event. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bus_private.h"

/* Sends method call `m` (released here) and has its answer go to `callback`, which gets a
   `pending` naming `token` and frees it. Returns 0, or a negative errno. */
int bus_call_async(standfit_bus *bus, sd_bus_message *m, sd_bus_message_handler_t callback, uint64_t token) {
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

int bus_on_called(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    pending *p = userdata;
    standfit_bus_event event = { .kind = STANDFIT_BUS_CALLED, .token = p->token };
    const char *failure = bus_error_text(m);
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
    const char *failure = bus_error_text(m);
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
int bus_send_environment(standfit_bus *bus, request *q) {
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
    return bus_call_async(bus, m, on_environment, q->token);
}

int bus_send_activate(standfit_bus *bus, request *q) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus->bus, &m, q->destination, q->path, "org.freedesktop.Application", "Activate");
    if (r < 0) return r;
    if ((r = p_sd_bus_message_open_container(m, 'a', "{sv}")) < 0
        || (q->app_name != NULL && (r = bus_append_entry(m, APP_KEY, 's', q->app_name)) < 0)
        || (r = p_sd_bus_message_close_container(m)) < 0) {
        p_sd_bus_message_unref(m);
        return r;
    }
    return bus_call_async(bus, m, bus_on_called, q->token);
}

int bus_send_call(standfit_bus *bus, request *q) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus->bus, &m, q->destination, q->path, q->interface, q->member);
    if (r < 0) return r;
    if ((r = p_sd_bus_message_append_basic(m, 's', q->body ? q->body : "")) < 0) {
        p_sd_bus_message_unref(m);
        return r;
    }
    return bus_call_async(bus, m, bus_on_called, q->token);
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
