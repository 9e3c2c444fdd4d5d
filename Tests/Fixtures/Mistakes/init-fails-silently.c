/* Mistake: init returns an error without saying why, neither in a log line nor through a
   refused registration. */
#include "water.h"

static int32_t init(const standfit_host *host) {
    (void)host;
    (void)water_action;
    return -1;
}

WATER_ENTRY("com.fixture.water", init)
