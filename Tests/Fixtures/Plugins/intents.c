/* intents.c — a C plugin that uses standfit.intents/1: an entity answered by C queries (lookup,
 * match, suggest), a fixed choice list, prompts and phrases; and two actions whose phrases
 * overlap, so a sentence can be ambiguous. */
#include "standfit_plugin.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *id, *title, *synonyms, *defaults;
} colour;

static const colour colours[] = {
    {"red", "Red", "scarlet|crimson", "{\"coats\": 2}"},
    {"green", "Green", NULL, NULL},
    {"blue", "Blue", "navy blue|sky-blue", "{\"coats\": 3}"},
};
#define COLOUR_COUNT (sizeof colours / sizeof colours[0])

static int entity_tag; /* its address is the entity's plugin_data */

/* Lowercased letters and digits of `text`, as people type names. */
static void key(const char *text, char *out, size_t size) {
    size_t n = 0;
    for (; *text && n + 1 < size; text++) {
        if (isalnum((unsigned char)*text)) out[n++] = (char)tolower((unsigned char)*text);
    }
    out[n] = 0;
}

static int32_t add(const standfit_entity_sink *sink, const colour *c) {
    standfit_entity_value value = {STANDFIT_HEADER(standfit_entity_value), c->id, c->title, c->synonyms, c->defaults};
    return sink->add(sink, &value);
}

static int names(const colour *c, const char *wanted) {
    char a[64], b[64];
    key(wanted, a, sizeof a);
    if (!a[0]) return 0;
    key(c->id, b, sizeof b);
    if (!strcmp(a, b)) return 1;
    key(c->title, b, sizeof b);
    if (!strcmp(a, b)) return 1;
    if (c->synonyms) {
        char copy[128];
        snprintf(copy, sizeof copy, "%s", c->synonyms);
        for (char *part = strtok(copy, "|"); part; part = strtok(NULL, "|")) {
            key(part, b, sizeof b);
            if (!strcmp(a, b)) return 1;
        }
    }
    return 0;
}

static int32_t lookup(const standfit_entity_sink *sink, const char *id) {
    if (sink->entity_data != &entity_tag) return 3;
    for (size_t i = 0; i < COLOUR_COUNT; i++)
        if (!strcmp(colours[i].id, id)) return add(sink, &colours[i]);
    return STANDFIT_OK;
}

static int32_t match(const standfit_entity_sink *sink, const char *text) {
    for (size_t i = 0; i < COLOUR_COUNT; i++)
        if (names(&colours[i], text)) add(sink, &colours[i]);
    return STANDFIT_OK;
}

static int32_t suggest(const standfit_entity_sink *sink) {
    /* Blue first: the "recent" one. */
    add(sink, &colours[2]);
    add(sink, &colours[0]);
    add(sink, &colours[1]);
    return STANDFIT_OK;
}

/* standfit.donations/1, found in init: a painted colour names its donation, scraping withdraws it. */
static const standfit_donations_ext *donations;

/* What a painting of `colour_id` names its donation. */
static void paint_donation(char *id, size_t size, const char *colour_id) {
    snprintf(id, size, "paint/%s", colour_id);
}

static int32_t paint(const standfit_invocation *ctx, const char *colour_id, int64_t coats, const char *finish) {
    char message[160];
    snprintf(message, sizeof message, "Painted %lld coat%s of %s (%s)", (long long)coats, coats == 1 ? "" : "s",
             colour_id, finish ? finish : "no finish");
    ctx->set_message(ctx, message);
    if (donations) {
        char id[80];
        paint_donation(id, sizeof id, colour_id);
        donations->set_donation_id(ctx, id);
    }
    return STANDFIT_STATUS_HANDLED;
}

static int32_t scrape(const standfit_invocation *ctx, const char *colour_id) {
    char message[120];
    snprintf(message, sizeof message, "Scraped the %s off", colour_id);
    ctx->set_message(ctx, message);
    if (donations) {
        char id[80];
        paint_donation(id, sizeof id, colour_id);
        donations->withdraw_donations(ctx, id);
        /* Two mistakes the host refuses with a warning: no id, and an id with a newline. */
        donations->withdraw_donations(ctx, NULL);
        donations->set_donation_id(ctx, "scrape\nall");
    }
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_parameter_checks_ext *checks;

static int32_t greet(const standfit_invocation *ctx, const char *name) {
    char message[120];
    if (strcmp(name, "nobody") == 0) {
        /* A value the handler refuses itself: on a terminal the host asks for it again. */
        ctx->set_message(ctx, "name: 'nobody' is no one to greet; give a person's name.");
        if (checks) checks->set_invalid_parameter(ctx, "name");
        return STANDFIT_STATUS_INVALID_INPUT;
    }
    snprintf(message, sizeof message, "Greeted %s", name);
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
}

static int32_t wave(const standfit_invocation *ctx, const char *who) {
    char message[120];
    snprintf(message, sizeof message, "Waved at %s", who);
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_param paint_params[] = {
    {STANDFIT_HEADER(standfit_param), "colour", STANDFIT_KIND_STRING, true, NULL, "Colour"},
    {STANDFIT_HEADER(standfit_param), "coats", STANDFIT_KIND_INT64, false, "1", "Coats"},
    {STANDFIT_HEADER(standfit_param), "finish", STANDFIT_KIND_STRING, false, NULL, "Finish"},
};
static const standfit_param greet_params[] = {
    {STANDFIT_HEADER(standfit_param), "name", STANDFIT_KIND_STRING, true, NULL, "Name"},
};
static const standfit_param wave_params[] = {
    {STANDFIT_HEADER(standfit_param), "who", STANDFIT_KIND_STRING, true, NULL, "Who"},
};
static const standfit_param scrape_params[] = {
    {STANDFIT_HEADER(standfit_param), "colour", STANDFIT_KIND_STRING, true, NULL, "Colour"},
};

static int32_t init(const standfit_host *host) {
    standfit_action actions[] = {
        {STANDFIT_HEADER(standfit_action), "com.fixture.intents.paint", "Paint", NULL, NULL, paint_params, 3,
         STANDFIT_HANDLER(paint)},
        {STANDFIT_HEADER(standfit_action), "com.fixture.intents.greet", "Greet", NULL, NULL, greet_params, 1,
         STANDFIT_HANDLER(greet)},
        {STANDFIT_HEADER(standfit_action), "com.fixture.intents.wave", "Wave", NULL, NULL, wave_params, 1,
         STANDFIT_HANDLER(wave)},
        {STANDFIT_HEADER(standfit_action), "com.fixture.intents.scrape", "Scrape", NULL, NULL, scrape_params, 1,
         STANDFIT_HANDLER(scrape)},
    };
    for (size_t i = 0; i < 4; i++) host->register_action(host, &actions[i]);
    donations = host->get_extension(host, STANDFIT_EXT_DONATIONS);
    checks = host->get_extension(host, STANDFIT_EXT_PARAMETER_CHECKS);

    const standfit_intents_ext *intents = host->get_extension(host, STANDFIT_EXT_INTENTS);
    if (!intents) return STANDFIT_OK; /* an older host: plain parameters */
    standfit_entity entity = {STANDFIT_HEADER(standfit_entity), "com.fixture.colour", "Colour", &entity_tag,
                              lookup, match, suggest};
    intents->register_entity(host, &entity);
    intents->set_parameter_entity(host, "com.fixture.intents.paint", "colour", "com.fixture.colour");
    standfit_entity_value finishes[] = {
        {STANDFIT_HEADER(standfit_entity_value), "matte", "Matte", "flat", NULL},
        {STANDFIT_HEADER(standfit_entity_value), "gloss", "Gloss", "shiny|glossy", NULL},
    };
    intents->set_parameter_choices(host, "com.fixture.intents.paint", "finish", finishes, 2);
    intents->set_parameter_prompt(host, "com.fixture.intents.paint", "colour", "Which colour?");
    intents->set_parameter_prompt(host, "com.fixture.intents.paint", "coats", "How many coats?");
    intents->register_phrase(host, "com.fixture.intents.paint", "en", "paint it {colour}");
    intents->register_phrase(host, "com.fixture.intents.paint", "en", "paint {coats} coats of {colour}");
    intents->register_phrase(host, "com.fixture.intents.paint", "en", "paint the wall");
    intents->register_phrase(host, "com.fixture.intents.paint", "nl", "verf het {colour}");
    intents->register_phrase(host, "com.fixture.intents.greet", NULL, "hello {name}");
    intents->register_phrase(host, "com.fixture.intents.wave", NULL, "hello {who}");
    /* Refused, each with a warning: an unknown placeholder, and choices on a number. */
    intents->register_phrase(host, "com.fixture.intents.wave", "en", "wave at {nobody}");
    intents->set_parameter_choices(host, "com.fixture.intents.paint", "coats", finishes, 2);
    /* Waving is not worth suggesting; two mistakes: an unknown bit, a type never registered. */
    const standfit_action_traits_ext *traits = host->get_extension(host, STANDFIT_EXT_ACTION_TRAITS);
    if (traits) {
        traits->set_action_traits(host, "com.fixture.intents.wave", STANDFIT_TRAIT_NOT_SUGGESTIBLE);
        traits->set_action_traits(host, "com.fixture.intents.paint", 6u);
        traits->set_action_traits(host, "com.fixture.intents.dance", STANDFIT_TRAIT_NOT_SUGGESTIBLE);
    }
    /* Scraping a wall cannot be taken back: a terminal confirms it first (revision 2's bit). */
    const standfit_action_traits_ext *traits2 = host->get_extension(host, STANDFIT_EXT_ACTION_TRAITS_2);
    if (traits2) traits2->set_action_traits(host, "com.fixture.intents.scrape", STANDFIT_TRAIT_CONFIRM);
    /* A finish is chosen for one wall, no habit; one mistake: an unknown bit. */
    const standfit_parameter_traits_ext *parameter_traits = host->get_extension(host, STANDFIT_EXT_PARAMETER_TRAITS);
    if (parameter_traits) {
        parameter_traits->set_parameter_traits(host, "com.fixture.intents.paint", "finish", STANDFIT_PARAM_TRAIT_NOT_SUGGESTIBLE);
        parameter_traits->set_parameter_traits(host, "com.fixture.intents.paint", "coats", 4u);
    }
    return STANDFIT_OK;
}

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.fixture.intents", "Intents", "1.0.0", init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
