/* Mistake: init registers nothing (it forgot to call register_action). */
#include "water.h"

static int32_t init(const standfit_host *host) {
    (void)host;
    (void)water_action;
    return STANDFIT_OK;
}

WATER_ENTRY("com.fixture.water", init)
