/* GNOME Shell's search (org.gnome.Shell.SearchProvider2): the result sets, the results' metas,
   activating a result and launching a search go to the server. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "bus_private.h"

/* Hands a call whose next argument is an `as` (the terms, or the ids) to the server as `kind`. */
static int deliver_with_strings(sd_bus_message *m, void *userdata, standfit_bus_event_kind kind) {
    char *strings[MAX_PARAMETERS];
    size_t count = 0;
    int r = bus_read_strings(m, strings, &count);
    if (r < 0) return r;
    bus_deliver_call(userdata, m, (standfit_bus_event){ .kind = kind, .values = (const char *const *)strings, .count = count });
    for (size_t i = 0; i < count; i++) free(strings[i]);
    return 1;
}

static int on_initial_result_set(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return deliver_with_strings(m, userdata, STANDFIT_BUS_SEARCH);
}

/* The previous results are not needed: a search is answered afresh from its terms (a phrase
   such as "log 20 squats" matches what "log 20" did not). */
static int on_subsearch_result_set(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    int r = p_sd_bus_message_skip(m, "as");
    if (r < 0) return r;
    return deliver_with_strings(m, userdata, STANDFIT_BUS_SEARCH);
}

static int on_result_metas(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return deliver_with_strings(m, userdata, STANDFIT_BUS_SEARCH_METAS);
}

static int on_activate_result(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    const char *id = NULL;
    int r = p_sd_bus_message_read_basic(m, 's', &id);
    if (r < 0) return r;
    char *terms[MAX_PARAMETERS];
    size_t count = 0;
    if ((r = bus_read_strings(m, terms, &count)) < 0) return r;
    bus_deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_SEARCH_ACTIVATE, .name = id,
                                                        .values = (const char *const *)terms, .count = count });
    for (size_t i = 0; i < count; i++) free(terms[i]);
    return 1;
}

static int on_launch_search(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return deliver_with_strings(m, userdata, STANDFIT_BUS_SEARCH_LAUNCH);
}

sd_bus_vtable bus_search_vtable[7];

void bus_build_search_vtable(void) {
    const sd_bus_vtable search[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("GetInitialResultSet", "as", "as", on_initial_result_set, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("GetSubsearchResultSet", "asas", "as", on_subsearch_result_set, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("GetResultMetas", "as", "aa{sv}", on_result_metas, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("ActivateResult", "sasu", "", on_activate_result, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("LaunchSearch", "asu", "", on_launch_search, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END
    };
    _Static_assert(sizeof search == sizeof bus_search_vtable, "bus_search_vtable's size");
    memcpy(bus_search_vtable, search, sizeof search);
}

/* GetResultMetas' body: aa{sv}, each with id, name, description (when there is one) and gicon
   (an icon name, which GIcon reads as a themed icon). */
static int append_metas(sd_bus_message *reply, request *q) {
    int r;
    if ((r = p_sd_bus_message_open_container(reply, 'a', "a{sv}")) < 0) return r;
    for (size_t i = 0; i < q->match_count; i++) {
        match_row *row = &q->matches[i];
        if ((r = p_sd_bus_message_open_container(reply, 'a', "{sv}")) < 0) return r;
        if ((r = bus_append_entry(reply, "id", 's', row->id)) < 0) return r;
        if ((r = bus_append_entry(reply, "name", 's', row->text ? row->text : "")) < 0) return r;
        if (row->subtext != NULL && row->subtext[0] != 0 && (r = bus_append_entry(reply, "description", 's', row->subtext)) < 0) return r;
        if (row->icon != NULL && row->icon[0] != 0 && (r = bus_append_entry(reply, "gicon", 's', row->icon)) < 0) return r;
        if ((r = p_sd_bus_message_close_container(reply)) < 0) return r;
    }
    return p_sd_bus_message_close_container(reply);
}

int bus_send_search_reply(request *q) {
    sd_bus_message *reply = NULL;
    int r = p_sd_bus_message_new_method_return(q->call, &reply);
    if (r < 0) return r;
    r = q->kind == REQUEST_REPLY_METAS ? append_metas(reply, q)
                                       : p_sd_bus_message_append_strv(reply, q->actions != NULL ? q->actions : (char *[]){ NULL });
    if (r >= 0) r = p_sd_bus_send(NULL, reply, NULL);
    p_sd_bus_message_unref(reply);
    return r;
}

void standfit_bus_reply_results(standfit_bus *bus, void *call, const char *const *ids, size_t count) {
    request *q = bus_new_request(REQUEST_REPLY_RESULTS, call);
    if (q == NULL) return;
    q->actions = bus_copy_strings(ids, count);
    if (q->actions != NULL) q->action_count = count;
    bus_enqueue(bus, q);
}

void standfit_bus_reply_metas(standfit_bus *bus, void *call, size_t count, const char *const *ids,
                              const char *const *names, const char *const *descriptions, const char *const *icons) {
    request *q = bus_new_request(REQUEST_REPLY_METAS, call);
    if (q == NULL) return;
    bus_copy_rows(q, count, ids, names, icons, descriptions);
    bus_enqueue(bus, q);
}
