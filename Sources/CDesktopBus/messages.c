/* What every protocol file builds its events and answers with: copies, string lists, the rows
   of an answer, a{sv} entries, and the requests the bus thread carries out. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "bus_private.h"

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

int bus_deliver_call(standfit_bus *bus, sd_bus_message *m, standfit_bus_event event) {
    p_sd_bus_message_ref(m);
    event.call = m;
    event.sender = p_sd_bus_message_get_sender(m);
    bus_deliver(bus, &event);
    return 1;
}

/* The text of a method error reply, or NULL. */
const char *bus_error_text(sd_bus_message *m) {
    if (!p_sd_bus_message_is_method_error(m, NULL)) return NULL;
    const sd_bus_error *e = p_sd_bus_message_get_error(m);
    return e != NULL && e->message != NULL ? e->message : (e != NULL && e->name != NULL ? e->name : "the call failed");
}

void bus_free_request(request *q) {
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
