/*
 * standfit_ext_item_lifetime.h — the "standfit.item-lifetime/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_ITEM_LIFETIME_H
#define STANDFIT_EXT_ITEM_LIFETIME_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.item-lifetime/1": items that are true only until a given time ("View Streak — 5 days"
   holds until local midnight). The host never shows an expired item: before a menu, list, rofi,
   KRunner or desktop export it asks the provider again, and drops the item if that fails.
   Items added with sink->add hold until the provider's plugin handles an action or `refresh` runs,
   as before. Plugins built before this extension never ask for it and keep working. */
#define STANDFIT_EXT_ITEM_LIFETIME "standfit.item-lifetime/1"

typedef struct standfit_item_lifetime_ext {
    standfit_abi_header abi;
    /* add_until: as sink->add, for an item that holds until `valid_until`, in seconds since the
       Unix epoch (UTC); from that second on it has expired. An item that has expired already is
       accepted and never shown. Returns what sink->add returns. Memory: copied before returning.
       Thread: [main-thread], only during provide, with the sink provide was given. */
    int32_t (*add_until)(const standfit_item_sink *sink, const standfit_item *item, int64_t valid_until);
} standfit_item_lifetime_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_ITEM_LIFETIME_H */
