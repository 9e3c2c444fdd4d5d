/* KRunner's D-Bus runner (org.kde.krunner1, API DBus2): Match, Run, Config and Actions go to the
   server; Teardown has nothing to tear down. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "bus_private.h"

static int on_runner_match(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    const char *query = NULL;
    int r = p_sd_bus_message_read_basic(m, 's', &query);
    if (r < 0) return r;
    return bus_deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_RUNNER_MATCH, .name = query });
}

static int on_runner_run(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    const char *match = NULL, *action = NULL;
    int r;
    if ((r = p_sd_bus_message_read_basic(m, 's', &match)) < 0 || (r = p_sd_bus_message_read_basic(m, 's', &action)) < 0) return r;
    const char *values[1] = { action };
    return bus_deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_RUNNER_RUN, .name = match, .values = values, .count = 1 });
}

static int on_runner_config(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return bus_deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_RUNNER_CONFIG });
}

static int on_runner_actions(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    return bus_deliver_call(userdata, m, (standfit_bus_event){ .kind = STANDFIT_BUS_RUNNER_ACTIONS });
}

static int on_runner_teardown(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    return p_sd_bus_reply_method_return(m, "");
}

sd_bus_vtable bus_runner_vtable[7];

void bus_build_runner_vtable(void) {
    const sd_bus_vtable runner[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD("Match", "s", "a(sssida{sv})", on_runner_match, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Run", "ss", "", on_runner_run, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Config", "", "a{sv}", on_runner_config, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Actions", "", "a(sss)", on_runner_actions, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_METHOD("Teardown", "", "", on_runner_teardown, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END
    };
    _Static_assert(sizeof runner == sizeof bus_runner_vtable, "bus_runner_vtable's size");
    memcpy(bus_runner_vtable, runner, sizeof runner);
}

/* Match's body: a(sssida{sv}), each with its subtext and the ids of the runner's actions when
   they apply to it (an empty list: KRunner shows no action buttons). */
static int append_matches(sd_bus_message *reply, request *q, char **action_ids) {
    int r;
    if ((r = p_sd_bus_message_open_container(reply, 'a', "(sssida{sv})")) < 0) return r;
    for (size_t i = 0; i < q->match_count; i++) {
        match_row *row = &q->matches[i];
        if ((r = p_sd_bus_message_open_container(reply, 'r', "sssida{sv}")) < 0) return r;
        if ((r = p_sd_bus_message_append_basic(reply, 's', row->id)) < 0) return r;
        if ((r = p_sd_bus_message_append_basic(reply, 's', row->text)) < 0) return r;
        if ((r = p_sd_bus_message_append_basic(reply, 's', row->icon)) < 0) return r;
        if ((r = p_sd_bus_message_append_basic(reply, 'i', &row->type)) < 0) return r;
        if ((r = p_sd_bus_message_append_basic(reply, 'd', &row->relevance)) < 0) return r;
        if ((r = p_sd_bus_message_open_container(reply, 'a', "{sv}")) < 0) return r;
        if (row->subtext != NULL && row->subtext[0] != 0 && (r = bus_append_entry(reply, "subtext", 's', row->subtext)) < 0) return r;
        if ((r = bus_append_strv_entry(reply, "actions", row->with_actions ? action_ids : (char *[]){ NULL })) < 0) return r;
        if ((r = p_sd_bus_message_close_container(reply)) < 0) return r;
        if ((r = p_sd_bus_message_close_container(reply)) < 0) return r;
    }
    return p_sd_bus_message_close_container(reply);
}

/* Config's body: a{sv} with MinLetterCount and TriggerWords. */
static int append_config(sd_bus_message *reply, request *q) {
    int r;
    if ((r = p_sd_bus_message_open_container(reply, 'a', "{sv}")) < 0) return r;
    if ((r = bus_append_entry(reply, "MinLetterCount", 'i', &q->min_letter_count)) < 0) return r;
    if (q->action_count > 0 && (r = bus_append_strv_entry(reply, "TriggerWords", q->actions)) < 0) return r;
    return p_sd_bus_message_close_container(reply);
}

/* Actions' body: a(sss), each an id, a text and an icon name. */
static int append_actions(sd_bus_message *reply, request *q) {
    int r;
    if ((r = p_sd_bus_message_open_container(reply, 'a', "(sss)")) < 0) return r;
    for (size_t i = 0; i < q->match_count; i++) {
        match_row *row = &q->matches[i];
        if ((r = p_sd_bus_message_open_container(reply, 'r', "sss")) < 0) return r;
        if ((r = p_sd_bus_message_append_basic(reply, 's', row->id)) < 0) return r;
        if ((r = p_sd_bus_message_append_basic(reply, 's', row->text)) < 0) return r;
        if ((r = p_sd_bus_message_append_basic(reply, 's', row->icon)) < 0) return r;
        if ((r = p_sd_bus_message_close_container(reply)) < 0) return r;
    }
    return p_sd_bus_message_close_container(reply);
}

int bus_send_runner_reply(request *q) {
    sd_bus_message *reply = NULL;
    int r = p_sd_bus_message_new_method_return(q->call, &reply);
    if (r < 0) return r;
    switch (q->kind) {
    case REQUEST_REPLY_MATCHES: r = append_matches(reply, q, q->actions != NULL ? q->actions : (char *[]){ NULL }); break;
    case REQUEST_REPLY_CONFIG: r = append_config(reply, q); break;
    default: r = append_actions(reply, q); break;
    }
    if (r >= 0) r = p_sd_bus_send(NULL, reply, NULL);
    p_sd_bus_message_unref(reply);
    return r;
}

void standfit_bus_reply_matches(standfit_bus *bus, void *call, size_t count, const char *const *ids,
                                const char *const *texts, const char *const *icons, const int32_t *types,
                                const double *relevances, const char *const *subtexts, const uint8_t *with_actions,
                                const char *const *action_ids, size_t action_count) {
    request *q = bus_new_request(REQUEST_REPLY_MATCHES, call);
    if (q == NULL) return;
    bus_copy_rows(q, count, ids, texts, icons, subtexts);
    for (size_t i = 0; q->matches != NULL && i < count; i++) {
        q->matches[i].type = types[i];
        q->matches[i].relevance = relevances[i];
        q->matches[i].with_actions = with_actions[i];
    }
    /* The action ids every match with actions lists, NULL-terminated in `actions`. */
    q->actions = bus_copy_strings(action_ids, action_count);
    if (q->actions != NULL) q->action_count = action_count;
    bus_enqueue(bus, q);
}

void standfit_bus_reply_runner_config(standfit_bus *bus, void *call, int32_t min_letter_count,
                                      const char *const *trigger_words, size_t word_count) {
    request *q = bus_new_request(REQUEST_REPLY_CONFIG, call);
    if (q == NULL) return;
    q->min_letter_count = min_letter_count;
    /* The words as a NULL-terminated list in `actions` (action_count is their number). */
    q->actions = bus_copy_strings(trigger_words, word_count);
    if (q->actions != NULL) q->action_count = word_count;
    bus_enqueue(bus, q);
}

void standfit_bus_reply_runner_actions(standfit_bus *bus, void *call, size_t count, const char *const *ids,
                                       const char *const *texts, const char *const *icons) {
    request *q = bus_new_request(REQUEST_REPLY_RUNNER_ACTIONS, call);
    if (q == NULL) return;
    bus_copy_rows(q, count, ids, texts, icons, NULL);
    bus_enqueue(bus, q);
}
