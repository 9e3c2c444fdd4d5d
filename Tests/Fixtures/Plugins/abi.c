/* Test fixture: a plugin whose entry table is built for another ABI. Compiled several times:
   -DFIXTURE_MAJOR=N, -DFIXTURE_MINOR=N and -DFIXTURE_SIZE=N change its header;
   -DFIXTURE_NO_ENTRY exports the entry under another name. */
#include "standfit_plugin.h"

#ifndef FIXTURE_MAJOR
#define FIXTURE_MAJOR STANDFIT_ABI_MAJOR
#endif
#ifndef FIXTURE_MINOR
#define FIXTURE_MINOR STANDFIT_ABI_MINOR
#endif
#ifndef FIXTURE_SIZE
#define FIXTURE_SIZE sizeof(standfit_plugin_entry)
#endif

static int32_t init(const standfit_host *host) {
    (void)host;
    return STANDFIT_OK;
}

static const standfit_plugin_entry entry = {
    { FIXTURE_MAJOR, FIXTURE_MINOR, (uint32_t)FIXTURE_SIZE }, "com.fixture.abi", "ABI fixture",
    "0.1.0", init, NULL,
};

#ifdef FIXTURE_NO_ENTRY
STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v0(void) { return &entry; }
#else
STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
#endif
