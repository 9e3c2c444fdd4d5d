/*
 * standfit_ext_locale.h — the "standfit.locale/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_LOCALE_H
#define STANDFIT_EXT_LOCALE_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.locale/1": the language of this run, for plugins that localize what they register
   in init (action titles, static items). Handlers and providers get the same language in
   standfit_invocation.locale and standfit_item_sink.locale. */
#define STANDFIT_EXT_LOCALE "standfit.locale/1"

typedef struct standfit_locale_ext {
    standfit_abi_header abi;
    /* language: the run's language ("nl", "en_US"): the first of the user's (--locale, LANGUAGE,
       LC_ALL, LC_MESSAGES, LANG) that the host speaks, so that the host's words, the plugins'
       and dates agree; English when it speaks none of them. Memory: host-owned, lives for the
       process. */
    const char *language;
} standfit_locale_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_LOCALE_H */
