/* Mistake: an action descriptor whose header says it is smaller than a standfit_action (written
   by hand, or against another header), and init returns the status register_action gave. */
#include "water.h"

static const standfit_action action = {
    { STANDFIT_ABI_MAJOR, STANDFIT_ABI_MINOR, 40 }, "com.fixture.water.log", "Log Water", NULL, NULL,
    log_water_params, 1, STANDFIT_HANDLER(log_water),
};

static int32_t init(const standfit_host *host) {
    (void)water_action;
    return host->register_action(host, &action);
}

WATER_ENTRY("com.fixture.water", init)
