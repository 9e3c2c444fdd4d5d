/* Compile-time checks of the ABI's layout. The layout of ABI 1 is frozen: if one of these fails,
   a change to standfit_plugin.h broke every plugin built so far. (x86_64 and aarch64 Linux.) */
#include "standfit_plugin.h"

_Static_assert(sizeof(standfit_abi_header) == 12, "standfit_abi_header layout changed");
_Static_assert(offsetof(standfit_param, name) == 16, "standfit_param layout changed");
_Static_assert(sizeof(standfit_param) == 48, "standfit_param layout changed");
_Static_assert(offsetof(standfit_action, handler) == 64, "standfit_action layout changed");
_Static_assert(offsetof(standfit_host, get_extension) == 72, "standfit_host layout changed");
_Static_assert(offsetof(standfit_plugin_entry, get_extension) == 48, "entry layout changed");
