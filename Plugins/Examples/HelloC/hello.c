/*
 * HelloC — a standfit-host plugin in plain C, and the shortest complete example of the ABI.
 *
 * Build it with any C compiler; all it needs is the one header:
 *
 *     cc -shared -fPIC -fvisibility=hidden -I Sources/CStandFitABI/include \
 *        -o libHelloCExample.so Plugins/Examples/HelloC/hello.c
 *
 * then put the .so on the plugin path and run
 *
 *     standfit-host run com.example.hello.greet name=Ada times=2 shout=true
 *     standfit-host run pace km=5 minutes=27.5
 */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

#include "standfit_plugin.h"

/* Each action is declared once: its parameters as rows P(KIND, name, required, default, title).
   STANDFIT_DECLARE_HANDLER makes the parameter table and the handler's prototype from them, so a
   handler whose arguments differ in order or type does not compile. */
#define GREET(P)                                 \
    P(STRING, name, true, NULL, "Name")          \
    P(INT64, times, false, "1", "Times")         \
    P(BOOL, shout, false, "false", "Shout")      \
    P(STRING, suffix, false, NULL, "Suffix")
STANDFIT_DECLARE_HANDLER(greet, GREET)

#define PACE(P)                                          \
    P(DOUBLE, km, true, NULL, "Distance (km)")           \
    P(DOUBLE, minutes, true, NULL, "Minutes")
STANDFIT_DECLARE_HANDLER(pace, PACE)

/* greet(name: string, times: int64 = 1, shout: bool = false, suffix: string?) */
static int32_t greet(const standfit_invocation *ctx, const char *name, int64_t times, bool shout,
                     const char *suffix) {
    if (times < 1 || times > 5) {
        ctx->set_message(ctx, "times: expected a number from 1 to 5");
        return STANDFIT_STATUS_INVALID_INPUT;
    }
    char message[512];
    size_t used = 0;
    for (int64_t i = 0; i < times && used < sizeof message; i++) {
        int n = snprintf(message + used, sizeof message - used, "%sHello, %s%s", i ? " " : "",
                         name, suffix ? suffix : "!");
        if (n < 0) return STANDFIT_STATUS_FAILED;
        used += (size_t)n;
    }
    if (shout) {
        for (char *c = message; *c; c++) *c = (char)toupper((unsigned char)*c);
    }
    ctx->set_message(ctx, message); /* the host copies it; our stack buffer may go away */
    return STANDFIT_STATUS_HANDLED;
}

/* pace(km: double, minutes: double) — running pace, to show doubles and structured data. */
static int32_t pace(const standfit_invocation *ctx, double km, double minutes) {
    if (km <= 0) {
        ctx->set_message(ctx, "km: expected a distance above 0");
        return STANDFIT_STATUS_INVALID_INPUT;
    }
    double per_km = minutes / km;
    int whole = (int)per_km;
    int seconds = (int)((per_km - whole) * 60.0 + 0.5);
    if (seconds == 60) { whole += 1; seconds = 0; }
    char message[128], data[128];
    snprintf(message, sizeof message, "%.2f km in %.2f min is %d:%02d min/km", km, minutes, whole,
             seconds);
    snprintf(data, sizeof data, "{\"minutesPerKm\":%.4f}", per_km);
    ctx->set_message(ctx, message);
    ctx->set_data_json(ctx, data);
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_action actions[] = {
    STANDFIT_ACTION(greet, "com.example.hello.greet", "Say Hello", "Greets by name", "hand.wave"),
    STANDFIT_ACTION(pace, "com.example.hello.pace", "Running Pace", NULL, "figure.run"),
};

static int32_t init(const standfit_host *host) {
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++) {
        int32_t status = host->register_action(host, &actions[i]);
        if (status != STANDFIT_OK) return status;
    }
    static const standfit_item hello_item = {
        STANDFIT_HEADER(standfit_item), "com.example.hello.greet", "Say Hello", "to the world",
        "hand.wave", "{\"name\":\"world\"}",
    };
    return host->register_static_item(host, &hello_item);
}

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.example.hello", "Hello (C example)", "1.0.0",
    init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
