/*
 * standfit_ext_reply.h — the "standfit.reply/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_REPLY_H
#define STANDFIT_EXT_REPLY_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.reply/1": what the host does with a handler's reply. Data attached with set_data_json
   is shown by `--json` (and a routine's steps under it); a plain run, a launcher or a desktop
   action shows only the message, and the host drops the data. A handler whose data is large (a
   year of history) may ask, and build and encode nothing no one will see. Plugins built before
   this extension never ask; they attach their data as before. */
#define STANDFIT_EXT_REPLY "standfit.reply/1"

typedef struct standfit_reply_ext {
    standfit_abi_header abi;
    /* shows_data: 1 when the host shows the data attached in this call, 0 when it drops it;
       STANDFIT_ERR_INVALID_ARGUMENT for a NULL context, STANDFIT_ERR_UNSUPPORTED for one whose
       call has ended (test for 1, not for non-zero). Data attached either way is still checked
       to be JSON, so a run answers with the same status whether or not it is shown.
       Memory: nothing is handed over. Thread: [main-thread], only during the handler call, with
       the context the handler was given. */
    int32_t (*shows_data)(const standfit_invocation *ctx);
} standfit_reply_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_REPLY_H */
