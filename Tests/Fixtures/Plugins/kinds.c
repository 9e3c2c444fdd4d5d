/* Test fixture: a C plugin whose handlers echo exactly what they receive, for every parameter
   kind, so tests can check what crosses the boundary; plus namespace and fallback handlers and a
   handler that returns any status it is given. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "standfit_plugin.h"

static int32_t echo(const standfit_invocation *ctx, bool flag, int64_t number, double ratio,
                    const char *text, const char *note) {
    char message[1024];
    snprintf(message, sizeof message,
             "flag=%s number=%" PRId64 " ratio=%.17g text=[%s] note=%s%s%s provided=0x%02x "
             "type=%s locale=%s userInfo=%s",
             flag ? "true" : "false", number, ratio, text ? text : "NULL", note ? "[" : "",
             note ? note : "NULL", note ? "]" : "", (unsigned)ctx->provided, ctx->type, ctx->locale,
             ctx->user_info_json);
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
}

static int32_t status(const standfit_invocation *ctx, int64_t code, const char *message) {
    if (message) ctx->set_message(ctx, message);
    return (int32_t)code;
}

static int32_t open_any(const standfit_invocation *ctx) {
    char message[256];
    snprintf(message, sizeof message, "opened %s", ctx->type);
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
}

static int32_t fallback(const standfit_invocation *ctx, const char *reason) {
    char message[256];
    snprintf(message, sizeof message, "fallback for %s (%s)", ctx->type, reason);
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
}

static int32_t bad_data(const standfit_invocation *ctx) {
    ctx->set_message(ctx, "attaching data");
    ctx->set_data_json(ctx, "{not json");
    return STANDFIT_STATUS_HANDLED;
}

/* standfit.reply/1: says whether the host shows its data, and attaches it either way. */
static const standfit_reply_ext *reply;

static int32_t shown(const standfit_invocation *ctx) {
    int32_t shows = reply ? reply->shows_data(ctx) : -100;
    char text[64];
    snprintf(text, sizeof text, "shows data: %d", (int)shows);
    ctx->set_message(ctx, text);
    snprintf(text, sizeof text, "{\"shown\":%d}", (int)shows);
    ctx->set_data_json(ctx, text);
    return STANDFIT_STATUS_HANDLED;
}

/* Keeps its context past its call (a mistake): the next call uses the old one and says what the
   host answered, and what the old context's type reads now. */
static const standfit_invocation *kept;

static int32_t stale(const standfit_invocation *ctx) {
    char text[128];
    if (kept) {
        int32_t late = kept->set_message(kept, "written late");
        snprintf(text, sizeof text, "late call: %d, type [%s]", (int)late, kept->type);
    } else {
        snprintf(text, sizeof text, "first call");
    }
    kept = ctx;
    ctx->set_message(ctx, text);
    return STANDFIT_STATUS_HANDLED;
}

#define P(name, kind, required, def) \
    { STANDFIT_HEADER(standfit_param), name, kind, required, def, NULL }

static const standfit_param echo_params[] = {
    P("flag", STANDFIT_KIND_BOOL, true, NULL),
    P("number", STANDFIT_KIND_INT64, true, NULL),
    P("ratio", STANDFIT_KIND_DOUBLE, false, "0.5"),
    P("text", STANDFIT_KIND_STRING, false, "plain"),
    P("note", STANDFIT_KIND_STRING, false, NULL),
};
static const standfit_param status_params[] = {
    P("code", STANDFIT_KIND_INT64, true, NULL),
    P("message", STANDFIT_KIND_STRING, false, NULL),
};
static const standfit_param fallback_params[] = {
    P("reason", STANDFIT_KIND_STRING, false, "none"),
};

static const standfit_action actions[] = {
    { STANDFIT_HEADER(standfit_action), "com.fixture.kinds.echo", "Echo", NULL, NULL, echo_params,
      5, STANDFIT_HANDLER(echo) },
    { STANDFIT_HEADER(standfit_action), "com.fixture.kinds.status", "Status", NULL, NULL,
      status_params, 2, STANDFIT_HANDLER(status) },
    { STANDFIT_HEADER(standfit_action), "com.fixture.open.*", "Open Anything", NULL, NULL, NULL, 0,
      STANDFIT_HANDLER(open_any) },
    { STANDFIT_HEADER(standfit_action), "com.fixture.kinds.fallback", "Fallback", NULL, NULL,
      fallback_params, 1, STANDFIT_HANDLER(fallback) },
    { STANDFIT_HEADER(standfit_action), "com.fixture.kinds.baddata", "Bad Data", NULL, NULL, NULL,
      0, STANDFIT_HANDLER(bad_data) },
    { STANDFIT_HEADER(standfit_action), "com.fixture.kinds.shown", "Shown", NULL, NULL, NULL,
      0, STANDFIT_HANDLER(shown) },
    { STANDFIT_HEADER(standfit_action), "com.fixture.kinds.stale", "Stale", NULL, NULL, NULL,
      0, STANDFIT_HANDLER(stale) },
};

#ifndef FIXTURE_VERSION
#define FIXTURE_VERSION "0.1.0"
#endif

/* The dynamic provider: one item whose subtitle is the language it was asked in. */
static int32_t provide(const standfit_item_sink *sink) {
    standfit_item item = {
        STANDFIT_HEADER(standfit_item), "com.fixture.kinds.echo", "Echo Dynamic", sink->locale, NULL,
        "{\"number\":42}",
    };
    return sink->add(sink, &item);
}

static int32_t init(const standfit_host *host) {
    reply = host->get_extension(host, STANDFIT_EXT_REPLY);
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++) {
        host->register_action(host, &actions[i]);
    }
    static const standfit_item item = {
        STANDFIT_HEADER(standfit_item), "com.fixture.kinds.echo", "Echo Seven", NULL, NULL,
        "{\"flag\":true,\"number\":7,\"note\":\"from userInfo\"}",
    };
    host->register_static_item(host, &item);
    static const standfit_dynamic_provider provider = { STANDFIT_HEADER(standfit_dynamic_provider), provide };
    host->register_dynamic_provider(host, &provider);
    return STANDFIT_OK;
}

static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.fixture.kinds", "Kinds fixture", FIXTURE_VERSION, init,
    NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) { return &entry; }
