/*
 * standfit_ext_clock.h — the "standfit.clock/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_CLOCK_H
#define STANDFIT_EXT_CLOCK_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.clock/1": the run's "now". It is the system clock, unless the user fixed it with
   STANDFIT_NOW (an ISO 8601 instant, for tests, demos and screenshots), so that every plugin and
   the host agree on what "today" is. Plugins built before this extension read the clock
   themselves. */
#define STANDFIT_EXT_CLOCK "standfit.clock/1"

typedef struct standfit_clock_ext {
    standfit_abi_header abi;
    /* now: the run's current time in seconds since the Unix epoch (UTC), with fractions.
       The local time zone is the process's (TZ). Memory: nothing is handed over.
       Thread: [main-thread], in init, handlers, providers and entity queries. */
    double (*now)(const standfit_host *host);
} standfit_clock_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_CLOCK_H */
