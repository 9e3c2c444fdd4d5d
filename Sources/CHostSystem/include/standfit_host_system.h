/*
 * standfit_host_system.h — Linux calls the host needs that Swift's Glibc module does not show
 * (they are declared only under _GNU_SOURCE). Host-internal: plugins never see this header.
 */
#ifndef STANDFIT_HOST_SYSTEM_H
#define STANDFIT_HOST_SYSTEM_H

#include <stddef.h>
#include <sys/types.h>

/* Creates an anonymous, close-on-exec memory file that accepts seals (memfd_create with
   MFD_CLOEXEC | MFD_ALLOW_SEALING). Returns the descriptor, or -1 with errno set. */
int standfit_memfd_create(const char *name);

/* Seals `fd` against writing, growing, shrinking and further sealing. Returns 0, or -1 with
   errno set. */
int standfit_memfd_seal(int fd);

/* What the dynamic symbol at `address` is: 1 a function, 0 a data object or anything else,
   -1 when the dynamic linker knows no symbol there. */
int standfit_symbol_is_function(const void *address);

/* Makes a pipe whose two ends are close-on-exec (pipe2 with O_CLOEXEC), so that a child gets
   only the ends it is handed explicitly. Returns 0, or -1 with errno set. */
int standfit_pipe_cloexec(int fds[2]);

/* Has the kernel SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG), and kills
   it now when `parent` is already gone (it is no longer the parent). Returns 0, or -1 with errno
   set when prctl failed. */
int standfit_die_with_parent(pid_t parent);

#endif /* STANDFIT_HOST_SYSTEM_H */
