/* Test fixture: a plugin that registers a crowd, for the host's costs. CROWD_ACTIONS actions
   ("com.fixture.crowd.a0" ...; 6000 unless compiled with -DCROWD_ACTIONS=N), each saying its
   type, and one action "com.fixture.crowd.note" with eight string parameters side by side in the
   phrase "note {p1} {p2} {p3} {p4} {p5} {p6} {p7} {p8} now", which a long sentence could fit in
   millions of ways if the matcher tried every way to cut it. */
#include <stdio.h>
#include <stdlib.h>

#include "standfit_plugin.h"

#ifndef CROWD_ACTIONS
#define CROWD_ACTIONS 6000
#endif

static int32_t say_type(const standfit_invocation *ctx) {
    ctx->set_message(ctx, "crowd ran");
    return STANDFIT_STATUS_HANDLED;
}

static int32_t note(const standfit_invocation *ctx, const char *p1, const char *p2, const char *p3, const char *p4,
                    const char *p5, const char *p6, const char *p7, const char *p8) {
    char message[1024];
    snprintf(message, sizeof message, "%s|%s|%s|%s|%s|%s|%s|%s", p1, p2, p3, p4, p5, p6, p7, p8);
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
}

#define P(name) {STANDFIT_HEADER(standfit_param), name, STANDFIT_KIND_STRING, true, NULL, NULL}
static const standfit_param note_params[] = { P("p1"), P("p2"), P("p3"), P("p4"), P("p5"), P("p6"), P("p7"), P("p8") };

static int32_t init(const standfit_host *host) {
    for (int i = 0; i < CROWD_ACTIONS; i++) {
        char *type = malloc(48), *title = malloc(32);
        snprintf(type, 48, "com.fixture.crowd.a%d", i);
        snprintf(title, 32, "Crowd %d", i);
        standfit_action action = { STANDFIT_HEADER(standfit_action), type, title, NULL, NULL, NULL, 0,
                                   STANDFIT_HANDLER(say_type) };
        host->register_action(host, &action);
    }
    standfit_action noted = { STANDFIT_HEADER(standfit_action), "com.fixture.crowd.note", "Note", NULL, NULL,
                              note_params, 8, STANDFIT_HANDLER(note) };
    host->register_action(host, &noted);
    const standfit_intents_ext *intents = host->get_extension(host, STANDFIT_EXT_INTENTS);
    if (intents != NULL)
        intents->register_phrase(host, "com.fixture.crowd.note", NULL, "note {p1} {p2} {p3} {p4} {p5} {p6} {p7} {p8} now");
    return STANDFIT_OK;
}

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.fixture.crowd", "Crowd", "1.0.0", init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) {
    return &entry;
}
