/* Mistake: a parameter named "is-cold" (users write parameters as name=value, so names are
   letters, digits and underscores), and init returns the status register_action gave. */
#include "water.h"

static int32_t log_cold(const standfit_invocation *ctx, bool cold) {
    ctx->set_message(ctx, cold ? "Logged a cold glass" : "Logged a glass");
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_param params[] = {
    { STANDFIT_HEADER(standfit_param), "is-cold", STANDFIT_KIND_BOOL, false, "false", "Cold" },
};

static const standfit_action action = {
    STANDFIT_HEADER(standfit_action), "com.fixture.water.cold", "Log Cold Water", NULL, NULL,
    params, 1, STANDFIT_HANDLER(log_cold),
};

static int32_t init(const standfit_host *host) {
    (void)water_action;
    return host->register_action(host, &action);
}

WATER_ENTRY("com.fixture.water", init)
