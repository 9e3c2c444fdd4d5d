/* Mistake: init crashes in the plugin's own code (it reads a setting through a NULL pointer). */
#include <stdlib.h>
#include "water.h"

static int32_t init(const standfit_host *host) {
    const char *volatile setting = getenv("WATER_FIXTURE_UNSET_SETTING");
    if (setting[0] == '1') return STANDFIT_ERR_INVALID_ARGUMENT;
    return host->register_action(host, &water_action);
}

WATER_ENTRY("com.fixture.water", init)
