/* Mistake: param_count says 3, but the params array holds 1. Reading past it crashes: this
   fixture puts the array at the very end of its memory, as an unlucky build does. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "water.h"

static int32_t init(const standfit_host *host) {
    long page = sysconf(_SC_PAGESIZE);
    char *pages = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) return STANDFIT_ERR_INVALID_ARGUMENT;
    mprotect(pages + page, (size_t)page, PROT_NONE);
    standfit_param *params = (standfit_param *)(pages + page) - 1;
    memcpy(params, &log_water_params[0], sizeof *params);
    standfit_action action = water_action;
    action.params = params;
    action.param_count = 3;
    return host->register_action(host, &action);
}

WATER_ENTRY("com.fixture.water", init)
