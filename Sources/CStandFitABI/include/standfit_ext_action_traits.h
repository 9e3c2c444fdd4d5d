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

/* "standfit.action-traits/2": the same table, whose set_action_traits also takes
   STANDFIT_TRAIT_CONFIRM. A host with /2 offers /1 too (which takes STANDFIT_TRAIT_NOT_SUGGESTIBLE
   alone); a plugin asks for /2 first and, on a host without it, gives /1 its actions' other bits. */
#define STANDFIT_EXT_ACTION_TRAITS_2 "standfit.action-traits/2"

/* Before running the action on a terminal (where the user can answer), the host asks the user to
   confirm it, naming the action and its values, and runs nothing unless the answer is yes
   (deleting a log: what only an undo brings back). Where nobody can be asked (a script, the
   desktop, `--no-input`) it runs as asked. */
#define STANDFIT_TRAIT_CONFIRM 2u

typedef struct standfit_action_traits_ext {
    standfit_abi_header abi;
    /* set_action_traits: gives action `type`, registered earlier in this init, the STANDFIT_TRAIT_*
       bits in `traits` (replacing any given before). Returns STANDFIT_OK, or
       STANDFIT_ERR_INVALID_ARGUMENT for an action this plugin has not registered or a bit the
       extension's revision does not know (/1: STANDFIT_TRAIT_NOT_SUGGESTIBLE; /2: also
       STANDFIT_TRAIT_CONFIRM).
       Memory: `type` is copied. Thread: [main-thread], inside init. */
    int32_t (*set_action_traits)(const standfit_host *host, const char *type, uint32_t traits);
} standfit_action_traits_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_ACTION_TRAITS_H */
