/* Mistake: init asks for the data directory. An untrusted plugin is scanned in a sandbox that
   grants none yet, so it gets NULL there; ask for it in handlers and providers. */
#include "water.h"

static const char *directory;

static int32_t init(const standfit_host *host) {
    directory = host->data_directory(host);
    return host->register_action(host, &water_action);
}

WATER_ENTRY("com.fixture.water", init)
