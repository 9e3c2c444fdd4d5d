/*
 * standfit_ext_parameter_traits.h — the "standfit.parameter-traits/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_PARAMETER_TRAITS_H
#define STANDFIT_EXT_PARAMETER_TRAITS_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.parameter-traits/1": what the host should know about one parameter of an action.
   Plugins built before this extension never ask for it; their parameters have no traits. */
#define STANDFIT_EXT_PARAMETER_TRAITS "standfit.parameter-traits/1"

/* The parameter's value is never suggestion material: a run's donation leaves it out, so a
   suggestion never brings it back (StandFit's `at`: a log of yesterday is not to be repeated
   for yesterday). */
#define STANDFIT_PARAM_TRAIT_NOT_SUGGESTIBLE 1u

typedef struct standfit_parameter_traits_ext {
    standfit_abi_header abi;
    /* set_parameter_traits: gives parameter `param` of action `type`, registered earlier in this
       init, the STANDFIT_PARAM_TRAIT_* bits in `traits` (replacing any given before). Returns
       STANDFIT_OK, or STANDFIT_ERR_INVALID_ARGUMENT for an action or parameter this plugin has not
       registered or an unknown bit, with a warning naming the plugin. Memory: strings are copied.
       Thread: [main-thread], inside init. */
    int32_t (*set_parameter_traits)(const standfit_host *host, const char *type, const char *param, uint32_t traits);
} standfit_parameter_traits_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_PARAMETER_TRAITS_H */
