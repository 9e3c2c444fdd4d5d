/* Mistake: the entry table itself is exported under the entry function's name. */
#include "water.h"

static int32_t init(const standfit_host *host) {
    return host->register_action(host, &water_action);
}

STANDFIT_EXPORT const standfit_plugin_entry standfit_plugin_entry_v1 = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.fixture.water", "Water", "1.0.0", init, NULL,
};
