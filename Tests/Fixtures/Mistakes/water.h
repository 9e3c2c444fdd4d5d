/* The good parts every fixture in this directory shares: a water tracker with one action,
 * declared as docs/PLUGIN_GUIDE.md shows. Each fixture makes one mistake a plugin author makes
 * (the comment at its top says which); MistakeTests runs `plugins check` on each and expects the
 * sentence docs/PLUGIN_GUIDE.md quotes in "Mistakes the validator catches". */
#ifndef WATER_FIXTURE_H
#define WATER_FIXTURE_H

#include <stdio.h>
#include "standfit_plugin.h"

#define LOG_WATER(P) P(INT64, ml, false, "250", "Millilitres")
STANDFIT_DECLARE_HANDLER(log_water, LOG_WATER)

static int32_t log_water(const standfit_invocation *ctx, int64_t ml) {
    char message[64];
    snprintf(message, sizeof message, "Logged %lld ml", (long long)ml);
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_action water_action =
    STANDFIT_ACTION(log_water, "com.fixture.water.log", "Log Water", NULL, "drop.fill");

/* The entry table and the one exported function, for a plugin whose init is `init`. */
#define WATER_ENTRY(id, init)                                                                      \
    static const standfit_plugin_entry water_entry = {                                             \
        STANDFIT_HEADER(standfit_plugin_entry), id, "Water", "1.0.0", init, NULL,                   \
    };                                                                                             \
    STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &water_entry; }

#endif
