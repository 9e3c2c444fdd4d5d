/* Mistake: the plugin id is a name, not a reverse-DNS id. */
#include "water.h"

static int32_t init(const standfit_host *host) {
    return host->register_action(host, &water_action);
}

WATER_ENTRY("Water Tracker", init)
