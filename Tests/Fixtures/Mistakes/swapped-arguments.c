/* Mistake: the handler takes its arguments in another order than its declaration. With
   STANDFIT_DECLARE_HANDLER this does not compile ("conflicting types for 'log_cold'"); without
   it, the host would pass a bool where the handler reads an int64. MistakeTests compiles it and
   expects the compiler's error. */
#include "water.h"

#define LOG_COLD(P) \
    P(INT64, ml, false, "250", "Millilitres") \
    P(BOOL, cold, false, "false", "Cold")
STANDFIT_DECLARE_HANDLER(log_cold, LOG_COLD)

static int32_t log_cold(const standfit_invocation *ctx, bool cold, int64_t ml) {
    return cold ? log_water(ctx, ml) : STANDFIT_STATUS_DECLINED;
}

static const standfit_action action =
    STANDFIT_ACTION(log_cold, "com.fixture.water.cold", "Log Cold Water", NULL, NULL);

static int32_t init(const standfit_host *host) {
    (void)water_action;
    return host->register_action(host, &action);
}

WATER_ENTRY("com.fixture.water", init)
