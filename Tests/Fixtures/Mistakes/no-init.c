/* Mistake: the entry table has no init function. */
#include "water.h"

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.fixture.water", "Water", "1.0.0", NULL, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) {
    (void)water_action;
    return &entry;
}
