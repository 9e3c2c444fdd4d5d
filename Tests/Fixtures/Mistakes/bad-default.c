/* Mistake: an int64 parameter whose default is "250ml", and init returns the status
   register_action gave. */
#include "water.h"

#define LOG_GLASS(P) P(INT64, ml, false, "250ml", "Millilitres")
STANDFIT_DECLARE_HANDLER(log_glass, LOG_GLASS)

static int32_t log_glass(const standfit_invocation *ctx, int64_t ml) {
    return log_water(ctx, ml);
}

static const standfit_action action =
    STANDFIT_ACTION(log_glass, "com.fixture.water.glass", "Log a Glass", NULL, NULL);

static int32_t init(const standfit_host *host) {
    (void)water_action;
    return host->register_action(host, &action);
}

WATER_ENTRY("com.fixture.water", init)
