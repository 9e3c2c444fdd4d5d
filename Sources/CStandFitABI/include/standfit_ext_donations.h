/*
 * standfit_ext_donations.h — the "standfit.donations/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_DONATIONS_H
#define STANDFIT_EXT_DONATIONS_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.donations/1": a run's donation (the record `suggest` learns from) named by what the
   run did, so that a later run that undoes it can take it back, as INInteraction's identifier and
   delete(with:) do on iOS: logging 20 squats names its donation "log/<its log's id>/42"; undoing
   entry 42 withdraws that name, and that run no longer counts toward suggestions. Identifiers belong to the
   plugin: one plugin never withdraws another's. Plugins built before this extension never ask for
   it; their donations keep counting (less as they grow old; the oldest go past 5,000) until
   `donations clear`. */
#define STANDFIT_EXT_DONATIONS "standfit.donations/1"

/* The most bytes of UTF-8 a donation identifier may have. */
#define STANDFIT_DONATION_ID_MAX 200

typedef struct standfit_donations_ext {
    standfit_abi_header abi;
    /* set_donation_id: names this run's donation `id` (1 to STANDFIT_DONATION_ID_MAX bytes of
       UTF-8, no control characters), replacing any name set before in this call. It takes effect
       only when the run is handled and donated (an action marked STANDFIT_TRAIT_NOT_SUGGESTIBLE
       donates nothing). Returns STANDFIT_OK, or STANDFIT_ERR_INVALID_ARGUMENT for a NULL or
       malformed id. Memory: copied before returning. Thread: [main-thread], only during the
       handler call, with the context the handler was given. */
    int32_t (*set_donation_id)(const standfit_invocation *ctx, const char *id);
    /* withdraw_donations: the effect of this plugin's runs donated as `id` was undone; once this
       run is handled the host forgets those donations (none is an answer too). Returns
       STANDFIT_OK (also for an id withdrawn before in this call), or
       STANDFIT_ERR_INVALID_ARGUMENT for a NULL or malformed id and for a 65th distinct id in one
       call. Memory: as set_donation_id. Thread: as set_donation_id. */
    int32_t (*withdraw_donations)(const standfit_invocation *ctx, const char *id);
} standfit_donations_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_DONATIONS_H */
