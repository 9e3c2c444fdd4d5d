/* shellbait.c — a plugin whose declared values are shell code: a default, fixed choices and an
 * entity's suggested values holding $(…), backticks, $VAR, quotes, spaces and a newline. Each
 * command, if a shell ever ran it, would create a file named after where it came from in $HOME.
 * Completing `run com.fixture.shellbait.bait NAME=<TAB>` must offer these values as data, in
 * bash, zsh and fish, and run none of them. */
#include <stdio.h>
#include <string.h>

#include "standfit_plugin.h"

/* Answers with the values exactly as they arrived: what the shell passed, if it passed data. */
static int32_t bait(const standfit_invocation *ctx, const char *text, const char *choice, const char *thing) {
    char message[512];
    snprintf(message, sizeof message, "bait: text=%s choice=%s thing=%s", text ? text : "-", choice ? choice : "-",
             thing ? thing : "-");
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
}

static const standfit_param params[] = {
    {STANDFIT_HEADER(standfit_param), "text", STANDFIT_KIND_STRING, false, "$(touch \"$HOME/pwned-default\")", "Text"},
    {STANDFIT_HEADER(standfit_param), "choice", STANDFIT_KIND_STRING, false, NULL, "Choice"},
    {STANDFIT_HEADER(standfit_param), "thing", STANDFIT_KIND_STRING, false, NULL, "Thing"},
};

static int entity_tag;

static const char *const things[] = {"$(touch \"$HOME/pwned-entity\")", "plain"};

static int32_t add_thing(const standfit_entity_sink *sink, const char *id) {
    standfit_entity_value value = {STANDFIT_HEADER(standfit_entity_value), id, id, NULL, NULL};
    return sink->add(sink, &value);
}

static int32_t lookup(const standfit_entity_sink *sink, const char *id) {
    for (size_t i = 0; i < 2; i++)
        if (!strcmp(things[i], id)) return add_thing(sink, things[i]);
    return STANDFIT_OK;
}

static int32_t match(const standfit_entity_sink *sink, const char *text) { return lookup(sink, text); }

static int32_t suggest(const standfit_entity_sink *sink) {
    for (size_t i = 0; i < 2; i++) add_thing(sink, things[i]);
    return STANDFIT_OK;
}

static int32_t init(const standfit_host *host) {
    static const standfit_action action = {
        STANDFIT_HEADER(standfit_action), "com.fixture.shellbait.bait", "Bait", NULL, NULL, params, 3,
        STANDFIT_HANDLER(bait),
    };
    int32_t status = host->register_action(host, &action);
    if (status != STANDFIT_OK) return status;
    const standfit_intents_ext *intents = host->get_extension(host, STANDFIT_EXT_INTENTS);
    if (!intents) return STANDFIT_OK;
    standfit_entity_value choices[] = {
        {STANDFIT_HEADER(standfit_entity_value), "`touch ~/pwned-backtick`", "Backtick", NULL, NULL},
        {STANDFIT_HEADER(standfit_entity_value), "$HOME", "Home", NULL, NULL},
        {STANDFIT_HEADER(standfit_entity_value), "it's \"quoted\" & {a,b}", "Quoted", NULL, NULL},
        {STANDFIT_HEADER(standfit_entity_value), "two\nlines", "Newline", NULL, NULL},
    };
    intents->set_parameter_choices(host, "com.fixture.shellbait.bait", "choice", choices, 4);
    standfit_entity entity = {STANDFIT_HEADER(standfit_entity), "com.fixture.shellbait.thing", "Thing", &entity_tag,
                              lookup, match, suggest};
    intents->register_entity(host, &entity);
    intents->set_parameter_entity(host, "com.fixture.shellbait.bait", "thing", "com.fixture.shellbait.thing");
    return STANDFIT_OK;
}

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.fixture.shellbait", "Shell bait", "1.0.0", init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
