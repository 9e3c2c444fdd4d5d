/* Mistake: a static item whose userInfo is not a JSON object, and init returns the status
   register_static_item gave. */
#include "water.h"

static const standfit_item glass = {
    STANDFIT_HEADER(standfit_item), "com.fixture.water.log", "Log a Glass", NULL, NULL, "ml=250",
};

static int32_t init(const standfit_host *host) {
    int32_t status = host->register_action(host, &water_action);
    if (status != STANDFIT_OK) return status;
    return host->register_static_item(host, &glass);
}

WATER_ENTRY("com.fixture.water", init)
