/* Test fixture for shell completion: defaults holding the characters bash splits words at
   (COMP_WORDBREAKS has ':' and '@' as well as '='), so the completion tests can check that a
   value completes whole after 'name=' in every shell. */
#include <stdio.h>

#include "standfit_plugin.h"

static int32_t meet(const standfit_invocation *ctx, const char *at, const char *with, bool remind) {
    char message[512];
    snprintf(message, sizeof message, "meet %s at %s%s", with, at, remind ? " (reminder set)" : "");
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_param meet_params[] = {
    { STANDFIT_HEADER(standfit_param), "at", STANDFIT_KIND_STRING, false, "12:30", "At" },
    { STANDFIT_HEADER(standfit_param), "with", STANDFIT_KIND_STRING, false, "ada@example.org", "With" },
    { STANDFIT_HEADER(standfit_param), "remind", STANDFIT_KIND_BOOL, false, NULL, "Remind" },
};

static const standfit_action meet_action = {
    STANDFIT_HEADER(standfit_action), "com.fixture.values.meet", "Meet", NULL, NULL, meet_params, 3,
    STANDFIT_HANDLER(meet),
};

static int32_t init(const standfit_host *host) { return host->register_action(host, &meet_action); }

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.fixture.values", "Values fixture", "0.1.0", init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
