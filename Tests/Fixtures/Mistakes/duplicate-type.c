/* Mistake: the same type registered twice (copied and pasted); the second is refused with
   STANDFIT_ERR_DUPLICATE, which init does not look at. */
#include "water.h"

static const standfit_action glass =
    STANDFIT_ACTION(log_water, "com.fixture.water.log", "Log a Glass", NULL, NULL);

static int32_t init(const standfit_host *host) {
    host->register_action(host, &water_action);
    host->register_action(host, &glass);
    return STANDFIT_OK;
}

WATER_ENTRY("com.fixture.water", init)
