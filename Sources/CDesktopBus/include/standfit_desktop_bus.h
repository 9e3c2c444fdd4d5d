/*
 * standfit_desktop_bus.h — the warm server's door to the desktop: one connection to the user's
 * session bus through sd-bus (libsystemd), owning the application id and serving
 * org.freedesktop.Application on its object path, and calling org.freedesktop.Notifications.
 *
 * It also serves KRunner's runner (org.kde.krunner1) and GNOME Shell's search provider
 * (org.gnome.Shell.SearchProvider2) on the same connection.
 *
 * sd-bus declares its objects with C macros (SD_BUS_VTABLE_START, SD_BUS_METHOD) that Swift
 * cannot import, and a connection must be used from one thread: this target owns that thread
 * (the bus thread) and turns everything into events handed to one callback, and everything the
 * server asks of the bus into requests queued for that thread.
 *
 * libsystemd is opened with dlopen when the server starts its bus, not linked: a cold command
 * never pays for loading it, and a system without it simply has no desktop front door.
 * Host-internal: plugins never see this header.
 */
#ifndef STANDFIT_DESKTOP_BUS_H
#define STANDFIT_DESKTOP_BUS_H

#include <stddef.h>
#include <stdint.h>

typedef struct standfit_bus standfit_bus;

/* What happened on the bus. */
typedef enum standfit_bus_event_kind {
    /* org.freedesktop.Application.ActivateAction: `name` is the action, `keys`/`values` the
       parameter values the `av` parameter carried as an a{sv} (each value as text). `call` must
       be answered with standfit_bus_reply exactly once. */
    STANDFIT_BUS_ACTIVATE_ACTION = 1,
    /* org.freedesktop.Application.Activate: `name` is the app its platform data names
       ("standfit-app", a string), or NULL for every app. `call` must be answered exactly once. */
    STANDFIT_BUS_ACTIVATE = 2,
    /* org.freedesktop.Application.Open: `count` URIs in `values`. `call` must be answered once. */
    STANDFIT_BUS_OPEN = 3,
    /* A Notify call made with standfit_bus_notify answered: `token` is the caller's, `id` the
       notification's id (0 and `error` < 0, `name` the error's message, when it failed). */
    STANDFIT_BUS_NOTIFIED = 4,
    /* org.freedesktop.Notifications.ActionInvoked for notification `id`: `name` is the action key. */
    STANDFIT_BUS_ACTION_INVOKED = 5,
    /* org.freedesktop.Notifications.NotificationClosed for notification `id`; `count` is the
       reason: 1 expired, 2 dismissed by the user, 3 closed by a CloseNotification call, 4 other. */
    STANDFIT_BUS_NOTIFICATION_CLOSED = 6,
    /* GetCapabilities answered for `token`: `count` capabilities in `values` (none, `error` < 0,
       when there is no notification server). */
    STANDFIT_BUS_CAPABILITIES = 7,
    /* The connection ended (the bus went away): `error` is the negative errno. The bus thread
       has stopped; standfit_bus_stop still frees the connection. */
    STANDFIT_BUS_LOST = 8,
    /* ActivateAction's parameter was not an a{sv} of basic values: `name` says what it was.
       Answered by the bus thread already (org.freedesktop.DBus.Error.InvalidArgs). */
    STANDFIT_BUS_REFUSED = 9,
    /* A call made with standfit_bus_activate answered: `token` is the caller's; `error` < 0 and
       `name` the error's message when it failed. */
    STANDFIT_BUS_CALLED = 10,
    /* org.kde.krunner1.Match: `name` is the query. Answer `call` with standfit_bus_reply_matches. */
    STANDFIT_BUS_RUNNER_MATCH = 11,
    /* org.kde.krunner1.Run: `name` is the match id, `values[0]` the action id ("" for the
       default). Answer `call` with standfit_bus_reply. */
    STANDFIT_BUS_RUNNER_RUN = 12,
    /* org.kde.krunner1.Config. Answer `call` with standfit_bus_reply_runner_config. */
    STANDFIT_BUS_RUNNER_CONFIG = 13,
    /* org.kde.krunner1.Actions. Answer `call` with standfit_bus_reply_runner_actions. */
    STANDFIT_BUS_RUNNER_ACTIONS = 14,
    /* org.gnome.Shell.SearchProvider2.GetInitialResultSet or GetSubsearchResultSet: `count`
       search terms in `values`. Answer `call` with standfit_bus_reply_results. */
    STANDFIT_BUS_SEARCH = 15,
    /* GetResultMetas: `count` result ids in `values`. Answer `call` with standfit_bus_reply_metas. */
    STANDFIT_BUS_SEARCH_METAS = 16,
    /* ActivateResult: `name` is the result id, `values` the terms. Answer `call` with standfit_bus_reply. */
    STANDFIT_BUS_SEARCH_ACTIVATE = 17,
    /* LaunchSearch: `values` are the terms. Answer `call` with standfit_bus_reply. */
    STANDFIT_BUS_SEARCH_LAUNCH = 18,
    /* org.freedesktop.Notifications.NotificationReplied (KDE's inline reply) for notification
       `id`: `name` is the text typed. */
    STANDFIT_BUS_NOTIFICATION_REPLIED = 19,
} standfit_bus_event_kind;

/* One event. Every pointer is valid only during the callback; copy what you keep. */
typedef struct standfit_bus_event {
    standfit_bus_event_kind kind;
    /* The connection the event came on: what `call` is answered on. Set before the
       connection's starter has it back from standfit_bus_start. */
    standfit_bus *bus;
    /* A method call to answer with standfit_bus_reply (exactly once, from any thread), or NULL. */
    void *call;
    /* The unique bus name of the caller, or NULL. */
    const char *sender;
    const char *name;
    const char *const *keys;
    const char *const *values;
    size_t count;
    uint32_t id;
    uint64_t token;
    int error;
} standfit_bus_event;

/* Called on the bus thread for every event; must return quickly (hand long work to another
   thread and answer later). */
typedef void (*standfit_bus_handler)(void *context, const standfit_bus_event *event);

/* Connects to the bus at `address` (a D-Bus address such as "unix:path=/run/user/1000/bus": the
   caller picks the session bus, so that a request reaches its own), serves org.freedesktop.Application at
   `object_path`, asks for `application_id` (replacing an earlier owner that allows it, and
   allowing a later one to replace it). Nothing is delivered until standfit_bus_run starts the
   bus thread, which calls `handler` with `context`. With `runner_path` not NULL it also serves
   org.kde.krunner1 there (Teardown is answered here: nothing to tear down), and with
   `search_path` not NULL org.gnome.Shell.SearchProvider2. With `application_id` NULL it
   serves and owns nothing: a client's connection, for notifications and calls. Returns the connection, or NULL with `*error` a negative errno and `why` (of
   `why_size` bytes) a short sentence fragment: no libsystemd, no session bus, the name refused. */
standfit_bus *standfit_bus_start(const char *address, const char *application_id, const char *object_path, const char *runner_path,
                                 const char *search_path, standfit_bus_handler handler, void *context,
                                 int *error, char *why, size_t why_size);

/* Starts delivering events (the bus thread): call it once the connection standfit_bus_start gave
   is stored where the handler finds it. Calls that arrived meanwhile wait in the socket. */
void standfit_bus_run(standfit_bus *bus);

/* Answers method call `call` (from an event), from any thread: success when `error_name` is
   NULL, else that D-Bus error with `message`. Each call is answered exactly once. */
void standfit_bus_reply(standfit_bus *bus, void *call, const char *error_name, const char *message);

/* Answers a STANDFIT_BUS_RUNNER_MATCH call with `count` matches (krunner1's a(sssida{sv})): each
   an id, a text, an icon name, a type (KRunner's: 100 exact, 30 possible, …), a relevance from 0
   to 1, a subtext ("" for none) and whether the runner's actions (`action_count` ids) apply to
   it. From any thread, once. */
void standfit_bus_reply_matches(standfit_bus *bus, void *call, size_t count, const char *const *ids,
                                const char *const *texts, const char *const *icons, const int32_t *types,
                                const double *relevances, const char *const *subtexts, const uint8_t *with_actions,
                                const char *const *action_ids, size_t action_count);

/* Answers a STANDFIT_BUS_RUNNER_ACTIONS call with `count` actions (a(sss)): an id, a text, an icon name. */
void standfit_bus_reply_runner_actions(standfit_bus *bus, void *call, size_t count, const char *const *ids,
                                       const char *const *texts, const char *const *icons);

/* Answers a STANDFIT_BUS_SEARCH call with `count` result ids (as). */
void standfit_bus_reply_results(standfit_bus *bus, void *call, const char *const *ids, size_t count);

/* Answers a STANDFIT_BUS_SEARCH_METAS call with `count` metas (aa{sv}): each result's id, name,
   description ("" for none) and icon name ("" for none). */
void standfit_bus_reply_metas(standfit_bus *bus, void *call, size_t count, const char *const *ids,
                              const char *const *names, const char *const *descriptions, const char *const *icons);

/* Answers a STANDFIT_BUS_RUNNER_CONFIG call: MinLetterCount and `word_count` TriggerWords. */
void standfit_bus_reply_runner_config(standfit_bus *bus, void *call, int32_t min_letter_count,
                                      const char *const *trigger_words, size_t word_count);

/* Asks org.freedesktop.Notifications.Notify, from any thread; the answer comes as a
   STANDFIT_BUS_NOTIFIED event with `token`. `actions` holds `action_count` pairs (key, label),
   flattened; `urgency` 0 low, 1 normal, 2 critical; `timeout_ms` -1 for the server's default, 0
   never to expire; `resident` not 0 sends the hint resident (kept after an action, until the
   sender closes it); `reply_placeholder` not NULL asks for KDE's inline reply (its hint
   x-kde-reply-placeholder-text; the "inline-reply" action among `actions`), answered as
   STANDFIT_BUS_NOTIFICATION_REPLIED. `replaces_id` not 0 shows it again in that one's place. */
void standfit_bus_notify(standfit_bus *bus, uint64_t token, const char *app_name, uint32_t replaces_id,
                         const char *icon, const char *summary, const char *body,
                         const char *const *actions, size_t action_count, uint8_t urgency,
                         const char *desktop_entry, int32_t timeout_ms, int resident, const char *reply_placeholder);

/* Asks org.freedesktop.Notifications.CloseNotification for notification `id`, from any thread,
   without waiting for the answer (queued before a stop, it is handed to the bus before the
   connection closes; a bus that stopped reading may never get it). */
void standfit_bus_close_notification(standfit_bus *bus, uint32_t id);

/* Asks org.freedesktop.Notifications.GetCapabilities, from any thread; the answer comes as a
   STANDFIT_BUS_CAPABILITIES event with `token`. */
void standfit_bus_capabilities(standfit_bus *bus, uint64_t token);

/* Calls org.freedesktop.Application.Activate on `application_id` at `object_path`, from any
   thread, letting the bus start it; with `app` not NULL its platform data names that one app
   ("standfit-app"). The answer comes as a STANDFIT_BUS_CALLED event with `token`. */
void standfit_bus_activate(standfit_bus *bus, uint64_t token, const char *application_id, const char *object_path,
                           const char *app);

/* Calls `method` of `interface` on `destination` at `path` with one string `argument`, from any
   thread, letting the bus start the destination (Klipper's setClipboardContents). The answer
   comes as a STANDFIT_BUS_CALLED event with `token`. */
void standfit_bus_call_with_string(standfit_bus *bus, uint64_t token, const char *destination, const char *path,
                                   const char *interface, const char *method, const char *argument);

/* Asks the user's service manager (org.freedesktop.systemd1, not started for it) for its
   environment, the session's activation environment, from any thread: the answer comes as a
   STANDFIT_BUS_CALLED event with `token`, its `values` the NAME=VALUE strings (at most 512), or
   `error` < 0 when there is none. */
void standfit_bus_session_environment(standfit_bus *bus, uint64_t token);

/* Stops the bus thread (answers already queued are sent first; calls answered later are
   released, their callers getting the bus's NoReply), releases the name and closes the
   connection. No event is delivered after it returns. From any thread but the bus
   thread. */
void standfit_bus_stop(standfit_bus *bus);

#endif
