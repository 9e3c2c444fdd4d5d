/* Mistake: the entry table says it was written for ABI 2 (a header from another host, or a
   hand-written header in another language that got the numbers wrong). */
#include "water.h"

static int32_t init(const standfit_host *host) {
    return host->register_action(host, &water_action);
}

static const standfit_plugin_entry entry = {
    { 2, 0, (uint32_t)sizeof(standfit_plugin_entry) }, "com.fixture.water", "Water", "1.0.0", init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
