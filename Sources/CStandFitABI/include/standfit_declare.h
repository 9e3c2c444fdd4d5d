/*
 * standfit_declare.h — declaring an action once, for the standfit-host plugin ABI, version 1:
 * a handler's parameter table and prototype from one list of rows, and its standfit_action.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_DECLARE_H
#define STANDFIT_DECLARE_H

#include "standfit_plugin.h"

/* A handler's parameter table and its prototype, written once, so that the compiler checks the
   handler against what the host will pass it. List the parameters as a macro of rows
   P(KIND, name, required, default, title) — KIND one of BOOL, INT64, DOUBLE, STRING:
 *
 *     #define LOG_WATER(P) \
 *         P(INT64, ml, false, "250", "Millilitres") \
 *         P(BOOL, cold, false, "false", "Cold")
 *     STANDFIT_DECLARE_HANDLER(log_water, LOG_WATER)
 *
 *     static int32_t log_water(const standfit_invocation *ctx, int64_t ml, bool cold) { ... }
 *
 *     static const standfit_action actions[] = {
 *         STANDFIT_ACTION(log_water, "com.example.water.log", "Log Water", NULL, "drop.fill"),
 *     };
 *
 * STANDFIT_DECLARE_HANDLER declares `static int32_t log_water(const standfit_invocation *, int64_t,
 * bool)` and the table `log_water_params`; a definition whose arguments differ in order or type
 * ("conflicting types for 'log_water'") does not compile. An action without parameters lists
 * STANDFIT_NO_PARAMS. STANDFIT_ACTION fills a standfit_action with the table, its count and the
 * handler. */
#define STANDFIT_CTYPE_BOOL bool
#define STANDFIT_CTYPE_INT64 int64_t
#define STANDFIT_CTYPE_DOUBLE double
#define STANDFIT_CTYPE_STRING const char *
#define STANDFIT_NO_PARAMS(P)
#define STANDFIT_PARAM_ARGUMENT_(KIND, name, ...) , STANDFIT_CTYPE_##KIND name
#define STANDFIT_PARAM_ROW_(KIND, name, required, default_value, title) \
    { STANDFIT_HEADER(standfit_param), #name, STANDFIT_KIND_##KIND, required, default_value, title },
/* The table ends in an all-zero row that is not counted, so that an action without parameters
   still has a table (C has no empty arrays). */
#define STANDFIT_DECLARE_HANDLER(fn, PARAMS) \
    static int32_t fn(const standfit_invocation *ctx PARAMS(STANDFIT_PARAM_ARGUMENT_)); \
    static const standfit_param fn##_params[] = { PARAMS(STANDFIT_PARAM_ROW_) { { 0, 0, 0 }, NULL, 0, false, NULL, NULL } };
#define STANDFIT_PARAM_COUNT(fn) ((uint32_t)(sizeof fn##_params / sizeof fn##_params[0] - 1))
#define STANDFIT_ACTION(fn, type, title, subtitle, icon) \
    { STANDFIT_HEADER(standfit_action), type, title, subtitle, icon, \
      STANDFIT_PARAM_COUNT(fn) ? fn##_params : NULL, STANDFIT_PARAM_COUNT(fn), STANDFIT_HANDLER(fn) }

#endif /* STANDFIT_DECLARE_H */
