/*
 * The benchmarks' source of dynamic items: one action, `bench.items.open`, and a provider that
 * answers BENCH_ITEM_COUNT (1,000) items, each with a title, a subtitle and a userInfo, the
 * shape StandFit's "Log Squats (last)" items have.
 */
#include <stdio.h>

#include "standfit_plugin.h"

#ifndef BENCH_ITEM_COUNT
#define BENCH_ITEM_COUNT 1000
#endif

static int32_t open_item(const standfit_invocation *ctx, int64_t n) {
    (void)ctx;
    (void)n;
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_param params[] = {
    { STANDFIT_HEADER(standfit_param), "n", STANDFIT_KIND_INT64, false, "0", "Number" },
};

static const standfit_action action = {
    STANDFIT_HEADER(standfit_action), "bench.items.open", "Open Item", NULL, NULL, params, 1,
    STANDFIT_HANDLER(open_item),
};

static int32_t provide(const standfit_item_sink *sink) {
    for (int i = 0; i < BENCH_ITEM_COUNT; i++) {
        char title[64], subtitle[64], user_info[64];
        snprintf(title, sizeof title, "Item %d", i);
        snprintf(subtitle, sizeof subtitle, "opened %d times", i % 17);
        snprintf(user_info, sizeof user_info, "{\"n\":%d}", i);
        const standfit_item item = {
            STANDFIT_HEADER(standfit_item), "bench.items.open", title, subtitle, NULL, user_info,
        };
        int32_t status = sink->add(sink, &item);
        if (status != STANDFIT_OK) return status;
    }
    return STANDFIT_OK;
}

static const standfit_dynamic_provider provider = { STANDFIT_HEADER(standfit_dynamic_provider), provide };

static int32_t init(const standfit_host *host) {
    int32_t status = host->register_action(host, &action);
    if (status != STANDFIT_OK) return status;
    return host->register_dynamic_provider(host, &provider);
}

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "bench.items", "Bench items", "1.0.0", init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
