/* Test fixture: the hostile plugin zoo, plugins that misbehave in every way the host must survive.
   Compiled once per variant, each with its own -DZOO_ID="\"name\"" so ids and types differ
   ("com.zoo.<name>", one action "com.zoo.<name>.run" that says "zoo <name> ran"). Then:
   -DZOO_INIT_FAULT=F / -DZOO_HANDLER_FAULT=F  dies in init / in the handler, F one of ZOO_CRASH
                        (SIGSEGV), ZOO_ABORT (SIGABRT), ZOO_TRAP (SIGILL on x86_64), ZOO_EXIT
                        (exit status 3) or ZOO_HANG (never returns);
   -DZOO_NULL_ENTRY     the entry returns NULL;
   -DZOO_DATA_ENTRY     standfit_plugin_entry_v1 is exported as the table itself, not a function;
   -DZOO_LATE_REGISTER  the handler calls register_action after init and reports the result;
   -DZOO_BAD_STATUS     the handler returns 42, which is no STANDFIT_STATUS_*;
   -DZOO_BAD_UTF8       the handler's message is not UTF-8;
   -DZOO_STDOUT         init and the handler print to stdout, which the host uses for its output;
   -DZOO_SLOPPY         loads and works, but init is slow (150 ms) and the action's title is long
                        and its icon unknown: what 'plugins check' warns about. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "standfit_plugin.h"

#ifndef ZOO_ID
#error "compile with -DZOO_ID='\"name\"'"
#endif

#define ZOO_CRASH 1
#define ZOO_ABORT 2
#define ZOO_TRAP 3
#define ZOO_EXIT 4
#define ZOO_HANG 5

#if defined(ZOO_INIT_FAULT) || defined(ZOO_HANDLER_FAULT)
static void fault(int kind) {
    switch (kind) {
    case ZOO_CRASH: {
        /* volatile, so the optimizer can neither see the NULL nor drop the store. */
        int *volatile nowhere = NULL;
        *nowhere = 1;
        break;
    }
    case ZOO_ABORT:
        abort();
    case ZOO_TRAP:
        __builtin_trap();
    case ZOO_EXIT:
        exit(3);
    case ZOO_HANG:
        for (;;) pause();
    }
}
#endif

#ifdef ZOO_LATE_REGISTER
/* The host table is valid for the life of the process, so keeping it is allowed; using it to
   register from a handler is not. */
static const standfit_host *kept_host;
#endif

static int32_t run(const standfit_invocation *ctx) {
#ifdef ZOO_HANDLER_FAULT
    fault(ZOO_HANDLER_FAULT);
#endif
#if defined(ZOO_LATE_REGISTER)
    static const standfit_action late = { STANDFIT_HEADER(standfit_action), "com.zoo." ZOO_ID ".late",
                                          "Late " ZOO_ID, NULL, NULL, NULL, 0, STANDFIT_HANDLER(run) };
    char message[128];
    snprintf(message, sizeof message, "register_action after init returned %d",
             (int)kept_host->register_action(kept_host, &late));
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
#elif defined(ZOO_BAD_STATUS)
    (void)ctx;
    return 42;
#elif defined(ZOO_BAD_UTF8)
    ctx->set_message(ctx, "\xff\xfe not UTF-8");
    return STANDFIT_STATUS_HANDLED;
#else
#ifdef ZOO_STDOUT
    printf("zoo noise on stdout in the handler\n");
    fflush(stdout);
#endif
    ctx->set_message(ctx, "zoo " ZOO_ID " ran");
    return STANDFIT_STATUS_HANDLED;
#endif
}

#ifdef ZOO_SLOPPY
static const standfit_action action = { STANDFIT_HEADER(standfit_action), "com.zoo." ZOO_ID ".run",
                                        "Run the sloppy zoo plugin's only action", NULL, "no.such.icon",
                                        NULL, 0, STANDFIT_HANDLER(run) };
#else
static const standfit_action action = { STANDFIT_HEADER(standfit_action), "com.zoo." ZOO_ID ".run",
                                        "Run " ZOO_ID, NULL, NULL, NULL, 0, STANDFIT_HANDLER(run) };
#endif

static int32_t init(const standfit_host *host) {
#ifdef ZOO_INIT_FAULT
    fault(ZOO_INIT_FAULT);
#endif
#ifdef ZOO_LATE_REGISTER
    kept_host = host;
#endif
#ifdef ZOO_SLOPPY
    usleep(150 * 1000);
#endif
#ifdef ZOO_STDOUT
    printf("zoo noise on stdout during init\n");
    fflush(stdout);
#endif
    host->register_action(host, &action);
    return STANDFIT_OK;
}

#ifdef ZOO_DATA_ENTRY
/* The mistake of exporting the table instead of a function returning it: dlsym finds the symbol,
   and calling it jumps into read-only data. */
STANDFIT_EXPORT const standfit_plugin_entry standfit_plugin_entry_v1 = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.zoo." ZOO_ID, "Zoo " ZOO_ID, "0.1.0", init, NULL,
};
#else
static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), "com.zoo." ZOO_ID, "Zoo " ZOO_ID, "0.1.0", init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) {
#ifdef ZOO_NULL_ENTRY
    (void)entry; /* a complete table exists; the entry refuses to hand it over anyway */
    return NULL;
#else
    return &entry;
#endif
}
#endif
