/* Mistake: the entry function is not exported. Built with -fvisibility=hidden, as the guide says,
   but without STANDFIT_EXPORT, so no symbol standfit_plugin_entry_v1 is visible to the host. */
#include "water.h"

static int32_t init(const standfit_host *host) {
    return host->register_action(host, &water_action);
}

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.fixture.water", "Water", "1.0.0", init, NULL,
};

const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
