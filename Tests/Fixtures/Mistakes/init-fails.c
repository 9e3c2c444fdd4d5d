/* Mistake (of a kind): init refuses to load and says why only in its log. The host puts its last
   warning or error in the refusal, so the reason is not lost. */
#include "water.h"

static int32_t init(const standfit_host *host) {
    (void)water_action;
    host->log(host, STANDFIT_LOG_ERROR, "no daily goal is set; write one to goal.txt in the data directory");
    return STANDFIT_ERR_INVALID_ARGUMENT;
}

WATER_ENTRY("com.fixture.water", init)
