/* Mistake: built without -fvisibility=hidden, so every function that is not static is exported
   beside the entry, where it can clash with another library's. */
#include "water.h"

int water_total_ml = 0;

const char *water_unit(void) { return "ml"; }

int water_add(int ml) {
    water_total_ml += ml;
    return water_total_ml;
}

static int32_t init(const standfit_host *host) {
    return host->register_action(host, &water_action);
}

WATER_ENTRY("com.fixture.water", init)
