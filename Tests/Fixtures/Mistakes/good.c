/* No mistake: what every other fixture here changes one thing of. `plugins check` says OK. */
#include "water.h"

static int32_t init(const standfit_host *host) {
    return host->register_action(host, &water_action);
}

WATER_ENTRY("com.fixture.water", init)
