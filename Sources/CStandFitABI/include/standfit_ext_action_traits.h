/*
 * standfit_ext_action_traits.h — the "standfit.action-traits/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_ACTION_TRAITS_H
#define STANDFIT_EXT_ACTION_TRAITS_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.action-traits/1": what the host should know about an action beyond its parameters.
   Plugins built before this extension never ask for it; their actions have no traits. */
#define STANDFIT_EXT_ACTION_TRAITS "standfit.action-traits/1"

/* Runs of the action are never suggestion material: the host does not donate them, and
   `suggest` and the menu never offer them (undo, delete, edit: what corrects a mistake). */
#define STANDFIT_TRAIT_NOT_SUGGESTIBLE 1u

typedef struct standfit_action_traits_ext {
    standfit_abi_header abi;
    /* set_action_traits: gives action `type`, registered earlier in this init, the STANDFIT_TRAIT_*
       bits in `traits` (replacing any given before). Returns STANDFIT_OK, or
       STANDFIT_ERR_INVALID_ARGUMENT for an action this plugin has not registered or an unknown bit.
       Memory: `type` is copied. Thread: [main-thread], inside init. */
    int32_t (*set_action_traits)(const standfit_host *host, const char *type, uint32_t traits);
} standfit_action_traits_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_ACTION_TRAITS_H */
