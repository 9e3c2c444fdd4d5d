/*
 * standfit_ext_parameter_checks.h — the "standfit.parameter-checks/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_PARAMETER_CHECKS_H
#define STANDFIT_EXT_PARAMETER_CHECKS_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.parameter-checks/1": what the host checks about a parameter's value before the
   handler runs, and which parameter a handler's refusal is about. Plugins built before this
   extension never ask for it; they check their values themselves, as before. */
#define STANDFIT_EXT_PARAMETER_CHECKS "standfit.parameter-checks/1"

typedef struct standfit_parameter_checks_ext {
    standfit_abi_header abi;
    /* set_parameter_range: the values of STANDFIT_KIND_INT64 or _DOUBLE parameter `param` of
       action `type`, registered earlier in this init, lie from `minimum` to `maximum` (both
       included). The host refuses any other value before the handler runs, as invalid input that
       names the parameter ("minutes: expected a number from 1 to 180, got 500."), and says the
       range when it asks for the value. Returns STANDFIT_OK, or STANDFIT_ERR_INVALID_ARGUMENT for
       an unknown action or parameter, a parameter of another kind, bounds that are not finite or
       not in order, or a default outside them. Memory: strings are copied.
       Thread: [main-thread], inside init. */
    int32_t (*set_parameter_range)(const standfit_host *host, const char *type, const char *param,
                                   double minimum, double maximum);
    /* set_invalid_parameter: the STANDFIT_STATUS_INVALID_INPUT this handler is about to return is
       about parameter `param` of the action: `--json` gives it as "parameter", as for the values
       the host refuses itself. Returns STANDFIT_OK, or STANDFIT_ERR_INVALID_ARGUMENT for a name
       that is not one of the action's parameters. Memory: copied. Thread: [main-thread], only
       during the handler call, with the context the handler was given. */
    int32_t (*set_invalid_parameter)(const standfit_invocation *ctx, const char *param);
} standfit_parameter_checks_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_PARAMETER_CHECKS_H */
