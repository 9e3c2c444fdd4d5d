/*
 * standfit_ext_plugin_file.h — the "standfit.plugin-file/1" extension of the standfit-host plugin ABI, version 1.
 * Part of standfit_plugin.h, which includes it: include that one.
 */
#ifndef STANDFIT_EXT_PLUGIN_FILE_H
#define STANDFIT_EXT_PLUGIN_FILE_H

#include "standfit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "standfit.plugin-file/1": where the plugin's shared object is installed. A plugin finds the
   resources installed beside it from here; dladdr and /proc/self/maps cannot tell, since the
   host loads a plugin the user pinned from a sealed in-memory copy of its bytes. */
#define STANDFIT_EXT_PLUGIN_FILE "standfit.plugin-file/1"

typedef struct standfit_plugin_file_ext {
    standfit_abi_header abi;
    /* path: the absolute path of the plugin's .so, symlinks resolved.
       Memory: host-owned, lives for the process. */
    const char *path;
} standfit_plugin_file_ext;

#ifdef __cplusplus
}
#endif

#endif /* STANDFIT_EXT_PLUGIN_FILE_H */
