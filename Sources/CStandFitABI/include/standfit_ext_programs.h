/*
 * standfit_ext_programs.h — the "standfit.programs/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_PROGRAMS_H
#define STANDFIT_EXT_PROGRAMS_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.programs/1": the programs the plugin's code starts. A plugin the host runs
   sandboxed (any plugin the user has not trusted) can execute no program at all, unless it
   declares it here in init: `declare_program(host, "/usr/bin/notify-send")`. The handler
   worker then lets exactly these files (and the dynamic loader each one names) be executed, and
   what they run is inside the same sandbox: the same files, no Unix socket, no signal out.
   `plugins` and `plugins check` show what a plugin declares. A trusted plugin runs in the
   host's own rights and needs no declaration. */
#define STANDFIT_EXT_PROGRAMS "standfit.programs/1"
/* The most programs one plugin may declare. */
#define STANDFIT_MAX_PROGRAMS 16

typedef struct standfit_programs_ext {
    standfit_abi_header abi;
    /* declare_program: the plugin starts the program at `path`, an absolute path of at most 1,024
       bytes without control characters (a script's interpreter is a program of its own: declare
       it too). Returns STANDFIT_OK (also for a path declared before), or
       STANDFIT_ERR_INVALID_ARGUMENT for a path that is not absolute or too long, or beyond
       STANDFIT_MAX_PROGRAMS, with a warning naming the plugin; STANDFIT_ERR_NOT_IN_INIT after
       init. Memory: copied.
       Thread: [main-thread], inside init. */
    int32_t (*declare_program)(const standfit_host *host, const char *path);
} standfit_programs_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_PROGRAMS_H */
