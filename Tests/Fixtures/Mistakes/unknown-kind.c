/* Mistake: a parameter of a kind the ABI does not have (5, meant as "float"), and init returns
   the status register_action gave. */
#include "water.h"

static const standfit_param params[] = {
    { STANDFIT_HEADER(standfit_param), "litres", 5, true, NULL, "Litres" },
};

static const standfit_action action = {
    STANDFIT_HEADER(standfit_action), "com.fixture.water.litres", "Log Litres", NULL, NULL,
    params, 1, STANDFIT_HANDLER(log_water),
};

static int32_t init(const standfit_host *host) {
    (void)water_action;
    return host->register_action(host, &action);
}

WATER_ENTRY("com.fixture.water", init)
