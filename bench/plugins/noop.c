/*
 * A no-op plugin for the benchmarks: one action, `bench.noop.<N>`, whose handler does nothing
 * and answers handled. bench/run compiles it once per N (-DNOOP_INDEX=N) to install 1, 10 or
 * 100 plugins under distinct types.
 */
#include "standfit_plugin.h"

#ifndef NOOP_INDEX
#define NOOP_INDEX 0
#endif
#define NOOP_STR2(x) #x
#define NOOP_STR(x) NOOP_STR2(x)

/* The handler the in-process benchmark also calls directly, to compare with libffi. */
STANDFIT_EXPORT int32_t bench_noop_handler(const standfit_invocation *ctx) {
    (void)ctx;
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_action action = {
    STANDFIT_HEADER(standfit_action), "bench.noop." NOOP_STR(NOOP_INDEX),
    "No-op " NOOP_STR(NOOP_INDEX), NULL, NULL, NULL, 0, STANDFIT_HANDLER(bench_noop_handler),
};

static int32_t init(const standfit_host *host) {
    return host->register_action(host, &action);
}

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "bench.noop" NOOP_STR(NOOP_INDEX), "No-op " NOOP_STR(NOOP_INDEX),
    "1.0.0", init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
