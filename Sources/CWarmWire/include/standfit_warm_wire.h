/*
 * standfit_warm_wire.h — the socket calls the warm instance needs that Swift cannot write
 * itself: passing descriptors (SCM_RIGHTS, whose CMSG_* macros Swift does not import), the
 * peer's credentials (SO_PEERCRED, a _GNU_SOURCE struct), and starting the server as a daemon
 * (fork, which Swift marks unavailable). Shared by the thin client, which links no Foundation,
 * and the full host. Host-internal: plugins never see this header.
 */
#ifndef STANDFIT_WARM_WIRE_H
#define STANDFIT_WARM_WIRE_H

#include <stddef.h>
#include <sys/types.h>

/* Sends `length` bytes of `data` on the connected Unix socket `socket_fd`, with `fd_count`
   descriptors from `fds` attached (SCM_RIGHTS) to the first byte. Retries on EINTR and on short
   writes. Returns 0, or -1 with errno set. */
int standfit_wire_send(int socket_fd, const void *data, size_t length, const int *fds, int fd_count);

/* Receives up to `capacity` bytes into `buffer`, and up to `max_fds` descriptors into `fds`
   (made close-on-exec; `*fd_count` says how many; descriptors beyond `max_fds` are closed).
   Returns the number of bytes (0 at end of stream), or -1 with errno set. */
ssize_t standfit_wire_receive(int socket_fd, void *buffer, size_t capacity, int *fds, int max_fds, int *fd_count);

/* The user id and process id of the process at the other end of Unix socket `socket_fd`, as the
   kernel recorded them when it connected (SO_PEERCRED). Returns 0, or -1 with errno set. */
int standfit_wire_peer(int socket_fd, uid_t *uid, pid_t *pid);

/* The group id and supplementary groups of the process at the other end of Unix socket
   `socket_fd`, as the kernel recorded them when it connected (SO_PEERCRED, SO_PEERGROUPS): the
   gid in `*gid`, up to `capacity` groups in `groups`. Returns how many groups, or -1 with errno
   set (ERANGE: more than `capacity`). */
int standfit_wire_peer_groups(int socket_fd, gid_t *gid, gid_t *groups, int capacity);

/* Starts `path` with `argv` and `envp` as a daemon: fork, setsid, fork again (so it leads no
   session and can never take a controlling terminal), every descriptor above 2 closed, stdin,
   stdout and stderr on /dev/null, working directory `/`; the middle process exits at once and is
   reaped here. Returns the daemon's pid as the middle process saw it, or -1 with errno set. */
pid_t standfit_wire_spawn_daemon(const char *path, char *const argv[], char *const envp[]);

/* A pipe whose ends are close-on-exec and non-blocking (pipe2, declared only under _GNU_SOURCE).
   Returns 0, or -1 with errno set. */
int standfit_wire_pipe(int fds[2]);

/* Accepts a connection on `listener`, close-on-exec from the start (accept4), so that a helper
   another thread starts meanwhile never inherits it. The descriptor, or -1 with errno set. */
int standfit_wire_accept(int listener);

#endif
