/* Mistake: an action without a handler function, and init returns the status register_action
   gave. */
#include "water.h"

static const standfit_action action = {
    STANDFIT_HEADER(standfit_action), "com.fixture.water.log", "Log Water", NULL, NULL,
    log_water_params, 1, NULL,
};

static int32_t init(const standfit_host *host) {
    (void)water_action;
    return host->register_action(host, &action);
}

WATER_ENTRY("com.fixture.water", init)
