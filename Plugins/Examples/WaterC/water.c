/*
 * WaterC — a water tracker in C: the whole ABI a C plugin uses, beyond HelloC's handlers.
 *
 *   - actions declared once with STANDFIT_DECLARE_HANDLER, so the compiler checks each handler
 *     against its parameter table;
 *   - a range the host checks (standfit.parameter-checks/1), and an invalid input that names its
 *     parameter;
 *   - the data directory (a log file, written in handlers, never in init);
 *   - the host's clock (standfit.clock/1), so STANDFIT_NOW fixes "today" for tests;
 *   - an entity with its three queries, a prompt and phrases (standfit.intents/1);
 *   - a dynamic provider, whose item holds until midnight (standfit.item-lifetime/1).
 *
 * Build it with any C compiler (SwiftPM builds it as libWaterCExample.so):
 *
 *     cc -shared -fPIC -fvisibility=hidden -I Sources/CStandFitABI/include \
 *        -o libWaterCExample.so Plugins/Examples/WaterC/water.c
 *
 * and run
 *
 *     standfit-host run com.example.water.log ml=330 drink=tea
 *     standfit-host say "drink 250 ml of coffee"
 *     standfit-host run com.example.water.today
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "standfit_plugin.h"

static const standfit_host *host;

/* ---- The host's extensions, looked up once in init ---------------------------------------- */

static const standfit_intents_ext *intents;
static const standfit_parameter_checks_ext *checks;
static const standfit_clock_ext *clock_ext;
static const standfit_item_lifetime_ext *lifetime;

/* An extension table this plugin can read: the host offers it, for ABI 1, at least as large as
   this header declares it. NULL otherwise, and the plugin does without. */
static const void *extension(const char *id, size_t size) {
    const standfit_abi_header *header = host->get_extension(host, id);
    if (!header || header->abi_major != STANDFIT_ABI_MAJOR || header->struct_size < size) return NULL;
    return header;
}

/* Now, as the host sees this run: STANDFIT_NOW when the user fixed it, else the system clock. */
static time_t now(void) {
    if (clock_ext) return (time_t)clock_ext->now(host);
    return time(NULL);
}

/* ---- The drinks: an entity whose values the plugin knows ---------------------------------- */

static const char *const drinks[][3] = {
    /* id, title, synonyms */
    { "water", "Water", "tap water|still water" },
    { "tea", "Tea", "green tea|black tea" },
    { "coffee", "Coffee", "espresso|latte" },
};
#define DRINK_COUNT (sizeof drinks / sizeof drinks[0])

static int32_t add_drink(const standfit_entity_sink *sink, size_t index) {
    standfit_entity_value value = {
        STANDFIT_HEADER(standfit_entity_value), drinks[index][0], drinks[index][1], drinks[index][2], NULL,
    };
    return sink->add(sink, &value);
}

static int32_t lookup_drink(const standfit_entity_sink *sink, const char *id) {
    for (size_t i = 0; i < DRINK_COUNT; i++) {
        if (strcmp(drinks[i][0], id) == 0) return add_drink(sink, i);
    }
    return STANDFIT_OK;
}

/* Whether `text` names drink `index`: its title or a synonym, ignoring case. (The host folds
   spaces and punctuation itself for choices; an entity matches as it sees fit.) */
static int names_drink(const char *text, size_t index) {
    if (strcasecmp(text, drinks[index][1]) == 0 || strcasecmp(text, drinks[index][0]) == 0) return 1;
    const char *synonyms = drinks[index][2];
    size_t length = strlen(text);
    for (const char *start = synonyms; *start;) {
        const char *end = strchr(start, '|');
        size_t size = end ? (size_t)(end - start) : strlen(start);
        if (size == length && strncasecmp(start, text, size) == 0) return 1;
        if (!end) break;
        start = end + 1;
    }
    return 0;
}

static int32_t match_drink(const standfit_entity_sink *sink, const char *text) {
    for (size_t i = 0; i < DRINK_COUNT; i++) {
        if (names_drink(text, i)) {
            int32_t status = add_drink(sink, i);
            if (status != STANDFIT_OK) return status;
        }
    }
    return STANDFIT_OK;
}

static int32_t suggest_drinks(const standfit_entity_sink *sink) {
    for (size_t i = 0; i < DRINK_COUNT; i++) {
        int32_t status = add_drink(sink, i);
        if (status != STANDFIT_OK) return status;
    }
    return STANDFIT_OK;
}

/* ---- The log: one line per glass in the data directory ------------------------------------ */

/* Opens the log in the plugin's data directory; NULL (with the reason in `why`) when it cannot. */
static FILE *open_log(const char *mode, char *why, size_t size) {
    const char *directory = host->data_directory(host);
    if (!directory) {
        snprintf(why, size, "the host gave no data directory (its log says why)");
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/water.log", directory);
    FILE *file = fopen(path, mode);
    if (!file) snprintf(why, size, "%s: %s", path, strerror(errno));
    return file;
}

/* The start of the local day `moment` is in. */
static time_t day_start(time_t moment) {
    struct tm local;
    localtime_r(&moment, &local);
    local.tm_hour = 0;
    local.tm_min = 0;
    local.tm_sec = 0;
    local.tm_isdst = -1;
    return mktime(&local);
}

/* The millilitres logged today, and the last glass (ml and drink; 0 and "" when none). */
static int64_t today_total(int64_t *last_ml, char *last_drink, size_t size) {
    char why[256];
    FILE *file = open_log("r", why, sizeof why);
    int64_t total = 0;
    if (last_ml) *last_ml = 0;
    if (last_drink && size) last_drink[0] = '\0';
    if (!file) return 0;
    time_t start = day_start(now());
    long long when, ml;
    char drink[64];
    while (fscanf(file, "%lld %lld %63s", &when, &ml, drink) == 3) {
        if ((time_t)when >= start) total += ml;
        if (last_ml) *last_ml = ml;
        if (last_drink) snprintf(last_drink, size, "%s", drink);
    }
    fclose(file);
    return total;
}

/* ---- Actions ------------------------------------------------------------------------------ */

/* log(ml: int = 250, range 50–2000; drink: string = "water", a drink; at: string?, "HH:MM" today) */
#define LOG_WATER(P)                                     \
    P(INT64, ml, false, "250", "Millilitres")            \
    P(STRING, drink, false, "water", "Drink")            \
    P(STRING, at, false, NULL, "At (HH:MM, today)")
STANDFIT_DECLARE_HANDLER(log_water, LOG_WATER)

static int32_t invalid(const standfit_invocation *ctx, const char *parameter, const char *message) {
    if (checks) checks->set_invalid_parameter(ctx, parameter);
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_INVALID_INPUT;
}

static int32_t log_water(const standfit_invocation *ctx, int64_t ml, const char *drink, const char *at) {
    /* The host resolved the drink through the entity; a host without standfit.intents/1 passes
       what was typed. */
    int known = 0;
    for (size_t i = 0; i < DRINK_COUNT; i++) known |= strcmp(drink, drinks[i][0]) == 0;
    if (!known) return invalid(ctx, "drink", "drink: expected water, tea or coffee.");
    time_t when = now();
    if (at) {
        int hour, minute;
        char end;
        if (sscanf(at, "%d:%d%c", &hour, &minute, &end) != 2 || hour < 0 || hour > 23 || minute < 0 || minute > 59) {
            char message[160];
            snprintf(message, sizeof message, "at: expected a time of day such as 14:30, got \"%s\".", at);
            return invalid(ctx, "at", message);
        }
        when = day_start(when) + hour * 3600 + minute * 60;
        if (when > now()) return invalid(ctx, "at", "at: that time is still to come today; log what you drank.");
    }
    char why[256];
    FILE *file = open_log("a", why, sizeof why);
    if (!file) {
        char message[400];
        snprintf(message, sizeof message, "Cannot write the water log (%s).", why);
        ctx->set_message(ctx, message);
        return STANDFIT_STATUS_FAILED;
    }
    fprintf(file, "%lld %lld %s\n", (long long)when, (long long)ml, drink);
    if (fclose(file) != 0) {
        ctx->set_message(ctx, "Cannot write the water log: the disk refused the write.");
        return STANDFIT_STATUS_FAILED;
    }
    char message[160], data[160];
    int64_t total = today_total(NULL, NULL, 0);
    snprintf(message, sizeof message, "Logged %lld ml of %s · %lld ml today", (long long)ml, drink, (long long)total);
    snprintf(data, sizeof data, "{\"ml\":%lld,\"drink\":\"%s\",\"today\":%lld}", (long long)ml, drink, (long long)total);
    ctx->set_message(ctx, message);
    ctx->set_data_json(ctx, data);
    return STANDFIT_STATUS_HANDLED;
}

/* today() */
STANDFIT_DECLARE_HANDLER(water_today, STANDFIT_NO_PARAMS)

static int32_t water_today(const standfit_invocation *ctx) {
    char message[96], data[64];
    int64_t total = today_total(NULL, NULL, 0);
    snprintf(message, sizeof message, "%lld ml today", (long long)total);
    snprintf(data, sizeof data, "{\"today\":%lld}", (long long)total);
    ctx->set_message(ctx, message);
    ctx->set_data_json(ctx, data);
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_action actions[] = {
    STANDFIT_ACTION(log_water, "com.example.water.log", "Log Water", "A glass, a cup, a bottle", "drop.fill"),
    STANDFIT_ACTION(water_today, "com.example.water.today", "Water Today", NULL, "chart.bar"),
};

/* ---- The dynamic provider: "Log 330 ml of tea" once something is logged -------------------- */

static int32_t provide(const standfit_item_sink *sink) {
    int64_t last_ml;
    char last_drink[64], title[96], subtitle[64], user_info[160];
    int64_t total = today_total(&last_ml, last_drink, sizeof last_drink);
    if (last_ml == 0) return STANDFIT_OK;
    snprintf(title, sizeof title, "Log %lld ml of %s", (long long)last_ml, last_drink);
    snprintf(subtitle, sizeof subtitle, "%lld ml today", (long long)total);
    snprintf(user_info, sizeof user_info, "{\"ml\":%lld,\"drink\":\"%s\"}", (long long)last_ml, last_drink);
    standfit_item item = {
        STANDFIT_HEADER(standfit_item), "com.example.water.log", title, subtitle, "drop.fill", user_info,
    };
    /* The subtitle is true until midnight; a host without the extension keeps it until the
       plugin runs again. */
    if (lifetime) return lifetime->add_until(sink, &item, (int64_t)day_start(now()) + 86400);
    return sink->add(sink, &item);
}

static const standfit_dynamic_provider provider = { STANDFIT_HEADER(standfit_dynamic_provider), provide };

/* ---- init and the entry ------------------------------------------------------------------- */

/* Stops init at the first call the host refused: the host then says which and why. */
#define TRY(call)                              \
    do {                                       \
        int32_t status_ = (call);              \
        if (status_ != STANDFIT_OK) return status_; \
    } while (0)

static int32_t init(const standfit_host *h) {
    host = h;
    intents = extension(STANDFIT_EXT_INTENTS, sizeof *intents);
    checks = extension(STANDFIT_EXT_PARAMETER_CHECKS, sizeof *checks);
    clock_ext = extension(STANDFIT_EXT_CLOCK, sizeof *clock_ext);
    lifetime = extension(STANDFIT_EXT_ITEM_LIFETIME, sizeof *lifetime);
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++) TRY(host->register_action(host, &actions[i]));
    if (checks) TRY(checks->set_parameter_range(host, "com.example.water.log", "ml", 50, 2000));
    if (intents) {
        static const standfit_entity drink = {
            STANDFIT_HEADER(standfit_entity), "com.example.water.drink", "Drink", NULL,
            lookup_drink, match_drink, suggest_drinks,
        };
        TRY(intents->register_entity(host, &drink));
        TRY(intents->set_parameter_entity(host, "com.example.water.log", "drink", "com.example.water.drink"));
        TRY(intents->set_parameter_prompt(host, "com.example.water.log", "ml", "How much, in ml?"));
        TRY(intents->register_phrase(host, "com.example.water.log", "en", "drink {ml} ml of {drink}"));
        TRY(intents->register_phrase(host, "com.example.water.log", "en", "log {ml} ml"));
        TRY(intents->register_phrase(host, "com.example.water.today", "en", "how much water today"));
    }
    static const standfit_item glass = {
        STANDFIT_HEADER(standfit_item), "com.example.water.log", "Log a Glass", "250 ml of water", "drop.fill",
        "{\"ml\":250,\"drink\":\"water\"}",
    };
    TRY(host->register_static_item(host, &glass));
    return host->register_dynamic_provider(host, &provider);
}

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.example.water", "Water (C example)", "1.0.0", init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
