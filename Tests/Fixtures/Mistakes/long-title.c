/* Mistake: a title longer than a menu shows. */
#include "water.h"

static const standfit_action action = STANDFIT_ACTION(
    log_water, "com.fixture.water.log", "Log a Glass of Water to Today's Total", NULL, "drop.fill");

static int32_t init(const standfit_host *host) {
    (void)water_action;
    return host->register_action(host, &action);
}

WATER_ENTRY("com.fixture.water", init)
