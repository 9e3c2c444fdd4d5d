/* Test fixture: registers a type another plugin (kinds.c) owns, and one type twice. */
#include "standfit_plugin.h"

static int32_t ok(const standfit_invocation *ctx) {
    ctx->set_message(ctx, "duplicate fixture ran");
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_action taken = { STANDFIT_HEADER(standfit_action), "com.fixture.kinds.echo",
                                       "Echo Again", NULL, NULL, NULL, 0, STANDFIT_HANDLER(ok) };
static const standfit_action twice = { STANDFIT_HEADER(standfit_action), "com.fixture.dup.twice",
                                       "Twice", NULL, NULL, NULL, 0, STANDFIT_HANDLER(ok) };

static int32_t init(const standfit_host *host) {
    host->register_action(host, &taken);
    host->register_action(host, &twice);
    host->register_action(host, &twice);
    return STANDFIT_OK;
}

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.fixture.duplicate", "Duplicate fixture", "0.1.0",
    init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
