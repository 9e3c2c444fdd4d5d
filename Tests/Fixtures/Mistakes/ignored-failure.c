/* Mistake: init ignores what register_action returns, so the refused action is silently
   missing: the plugin loads with one type instead of two. */
#include "water.h"

#define LOG_GLASS(P) P(INT64, ml, false, "250ml", "Millilitres")
STANDFIT_DECLARE_HANDLER(log_glass, LOG_GLASS)

static int32_t log_glass(const standfit_invocation *ctx, int64_t ml) {
    return log_water(ctx, ml);
}

static const standfit_action glass =
    STANDFIT_ACTION(log_glass, "com.fixture.water.glass", "Log a Glass", NULL, NULL);

static int32_t init(const standfit_host *host) {
    host->register_action(host, &water_action);
    host->register_action(host, &glass);
    return STANDFIT_OK;
}

WATER_ENTRY("com.fixture.water", init)
