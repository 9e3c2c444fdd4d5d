/* Mistake: an icon name no catalog knows ("drop.fil", a typo of the SF Symbol drop.fill). */
#include "water.h"

static const standfit_action action =
    STANDFIT_ACTION(log_water, "com.fixture.water.log", "Log Water", NULL, "drop.fil");

static int32_t init(const standfit_host *host) {
    (void)water_action;
    return host->register_action(host, &action);
}

WATER_ENTRY("com.fixture.water", init)
