/* Calls to org.freedesktop.Notifications (Notify with buttons and KDE's inline reply,
   GetCapabilities, CloseNotification) and its signals (ActionInvoked, NotificationClosed,
   NotificationReplied), handed to the server as events. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bus_private.h"

/* ActionInvoked (u, s), NotificationClosed (u, u) and NotificationReplied (u, s). */
static int on_notification_signal(sd_bus_message *m, void *userdata, standfit_bus_event_kind kind) {
    uint32_t id = 0;
    if (p_sd_bus_message_read_basic(m, 'u', &id) < 0) return 0;
    standfit_bus_event event = { .kind = kind, .id = id, .sender = p_sd_bus_message_get_sender(m) };
    const char *text = NULL;
    if (kind != STANDFIT_BUS_NOTIFICATION_CLOSED) {
        if (p_sd_bus_message_read_basic(m, 's', &text) < 0) return 0;
        event.name = text;
    } else {
        uint32_t reason = 4;
        if (p_sd_bus_message_read_basic(m, 'u', &reason) < 0) reason = 4;
        event.count = reason;
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

static int on_notified(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    pending *p = userdata;
    standfit_bus_event event = { .kind = STANDFIT_BUS_NOTIFIED, .token = p->token };
    const char *failure = bus_error_text(m);
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
    const char *failure = bus_error_text(m);
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

/* Sends one Notify call; its answer comes to on_notified. */
int bus_send_notify(standfit_bus *bus, request *q) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus->bus, &m, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                             "org.freedesktop.Notifications", "Notify");
    if (r < 0) return r;
    const char *empty = "";
    int yes = 1;
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
    if (q->resident && (r = bus_append_entry(m, "resident", 'b', &yes)) < 0) goto done;
    if (q->reply_placeholder != NULL &&
        (r = bus_append_entry(m, "x-kde-reply-placeholder-text", 's', q->reply_placeholder)) < 0) goto done;
    if ((r = p_sd_bus_message_close_container(m)) < 0) goto done;
    if ((r = p_sd_bus_message_append_basic(m, 'i', &q->timeout_ms)) < 0) goto done;
    return bus_call_async(bus, m, on_notified, q->token);
done:
    p_sd_bus_message_unref(m);
    return r;
}

int bus_send_capabilities(standfit_bus *bus, request *q) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus->bus, &m, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                             "org.freedesktop.Notifications", "GetCapabilities");
    if (r < 0) return r;
    return bus_call_async(bus, m, on_capabilities, q->token);
}

int bus_listen_for_notifications(standfit_bus *bus) {
    int r;
    if ((r = p_sd_bus_match_signal(bus->bus, NULL, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                   "org.freedesktop.Notifications", "ActionInvoked", on_action_invoked, bus)) < 0 ||
        (r = p_sd_bus_match_signal(bus->bus, NULL, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                   "org.freedesktop.Notifications", "NotificationClosed", on_notification_closed, bus)) < 0 ||
        (r = p_sd_bus_match_signal(bus->bus, NULL, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                   "org.freedesktop.Notifications", "NotificationReplied", on_notification_replied, bus)) < 0) {
        return r;
    }
    return 0;
}

int bus_send_close(standfit_bus *bus, request *q) {
    sd_bus_message *m = NULL;
    int r = p_sd_bus_message_new_method_call(bus->bus, &m, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                             "org.freedesktop.Notifications", "CloseNotification");
    if (r >= 0 && (r = p_sd_bus_message_append_basic(m, 'u', &q->replaces_id)) >= 0) r = p_sd_bus_send(bus->bus, m, NULL);
    p_sd_bus_message_unref(m);
    return r;
}

void standfit_bus_notify(standfit_bus *bus, uint64_t token, const char *app_name, uint32_t replaces_id,
                         const char *icon, const char *summary, const char *body,
                         const char *const *actions, size_t action_count, uint8_t urgency,
                         const char *desktop_entry, int32_t timeout_ms, int resident, const char *reply_placeholder) {
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
    q->resident = resident;
    q->reply_placeholder = bus_copy(reply_placeholder);
    q->actions = bus_copy_strings(actions, action_count * 2);
    if (q->actions != NULL) q->action_count = action_count;
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
