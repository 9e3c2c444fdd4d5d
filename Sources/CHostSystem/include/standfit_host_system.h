/*
 * standfit_host_system.h — Linux calls the host needs that Swift's Glibc module does not show
 * (they are declared only under _GNU_SOURCE). Host-internal: plugins never see this header.
 */
#ifndef STANDFIT_HOST_SYSTEM_H
#define STANDFIT_HOST_SYSTEM_H

#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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

/* Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER), so that a
   process a plugin forks stays below it even when its own parent ends. Returns 0 or -1. */
int standfit_become_subreaper(void);

/* Kills every descendant of this process with SIGKILL and reaps them: its children (read from
   /proc/self/task/<tid>/children), then the orphans that come to it as a subreaper, until none is
   left or `rounds` rounds have passed. Returns how many were killed, or -1 when /proc cannot be
   read. */
int standfit_kill_descendants(int rounds);

/* Has a child spawned with `attributes` start a new session (POSIX_SPAWN_SETSID), so that it
   leads its own session and process group: the host kills that group when it is done with it,
   and the child's `kill(0, …)` reaches only its own group, never the caller's. Returns 0, or an
   error number. */
int standfit_spawnattr_setsid(posix_spawnattr_t *attributes);

/* Has a child spawned with `actions` close every descriptor from `first` on before it starts
   (posix_spawn_file_actions_addclosefrom_np), so that it gets only the descriptors handed to it,
   whatever its parent inherited. Returns 0, or an error number. */
int standfit_spawn_file_actions_closefrom(posix_spawn_file_actions_t *actions, int first);

/* Whether child `pid` has ended, without reaping it (waitid with WNOHANG | WNOWAIT): 1 ended,
   0 still running, -1 with errno set. An ended child stays a zombie until it is reaped, so its
   pid, and the process group it leads, cannot be reused while the host kills what is left of
   that group. */
int standfit_child_ended(pid_t pid);

/* Waits up to `timeout_ms` for child `pid` to end, without reaping it: 1 when it ended, 0 when
   the time ran out, -1 with errno set. Sleeps in poll(2) on a pidfd (Linux 5.3), so it returns as
   soon as the child ends; where pidfd_open is missing it looks every millisecond. */
int standfit_wait_ended(pid_t pid, int timeout_ms);

/* A pidfd for `pid` (pidfd_open, Linux 5.3): readable once the process ended. -1 with errno set
   where the kernel has none. */
int standfit_pidfd_open(pid_t pid);

/* The type of the file system `path` is on (statfs's f_type) in *type: 0, or -1 with errno set. */
int standfit_file_system_type(const char *path, int64_t *type);

/* While the host scans plugins, a file records which plugin is being scanned; a host that dies
   during a scan leaves it behind, and the next command quarantines that plugin. A host stopped
   by a signal from anyone else (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT) must not blame the plugin:
   this installs handlers for those signals that remove `marker_path` and then let the signal
   take its default course, unless the signal was sent by a process of session `helper_session`
   (the scan helper's, where plugin code runs). Returns 0, or -1 when `marker_path` is too long. */
int standfit_scan_guard_arm(const char *marker_path, pid_t helper_session);

/* Puts the default handlers back for the signals `standfit_scan_guard_arm` took. */
void standfit_scan_guard_disarm(void);

/* The guard around trusted plugin code run in the host's own process. A crash (SIGSEGV, SIGBUS,
   SIGILL, SIGFPE, SIGABRT, SIGTRAP, a stack overflow included) or a call of exit() inside that
   code must still end in one sentence naming the plugin and a documented exit status.

   standfit_call_guard_install: once, before the first guarded call; installs the signal
   handlers (on an alternate stack) and the exit handler. With `keep_backtrace`, a crash is
   passed on to the handler that was there before (Swift's backtracer) after the sentence;
   without, the process ends at once with `exit_status`.
   standfit_call_guard_enter: the sentence parts for the call about to run: on a crash, the host
   writes `crash_prefix`, the signal's name and `crash_suffix` to stderr; on exit(),
   `exit_sentence`. The strings must stay valid until standfit_call_guard_leave. Two stores,
   no system call: cheap enough for every call. */
void standfit_call_guard_install(int keep_backtrace, int exit_status);
void standfit_call_guard_enter(const char *crash_prefix, const char *crash_suffix, const char *exit_sentence);
void standfit_call_guard_leave(void);

/* The sandbox for untrusted plugin code (sandbox.c).

   standfit_landlock_abi: the Landlock ABI version the running kernel offers, 0 when none.
   standfit_landlock_restrict: restricts this process and every process it starts, for good:
   files and directories beneath `read_paths` may be read (libraries mapped), beneath
   `write_paths` also written, made and removed, the files `exec_paths` read and executed, and
   nothing may be executed but those; with ABI 6 or later, no
   signal reaches a process outside this sandbox, nor an abstract Unix socket of one (Landlock
   also stops ptrace of any process outside it). Paths that do not exist are skipped. Returns
   the ABI applied, 0 when the kernel has no Landlock (nothing changed), or -1 with errno set.
   standfit_seccomp_restrict: with libseccomp, refuses (EPERM) setsid (leaving the session the
   host kills), prctl(PR_SET_PDEATHSIG) and prctl(PR_SET_CHILD_SUBREAPER) (outliving the host or
   the call), prctl(PR_SET_DUMPABLE) (hiding from the server's peer check), rt_sigqueueinfo and
   rt_tgsigqueueinfo (signals with a forged sender), ptrace, process_vm_readv/writev and
   io_uring_setup; socket(AF_UNIX, …) fails with EACCES (no user service is reachable: not the
   warm server, not the session bus); setpgid succeeds without effect (the process stays in its
   group); without `allow_exec`, execve and execveat fail with EACCES (on a kernel without
   Landlock, too). Returns 0, or a negative error number.
   standfit_elf_interpreter: the dynamic loader the ELF executable at `path` names (PT_INTERP),
   copied into `buffer`; 1 when it names one, 0 when it names none (static, or no ELF file: a
   script's interpreter is the kernel's to find), -1 when it cannot be read. */
int standfit_landlock_abi(void);
int standfit_landlock_restrict(const char *const *read_paths, int read_count,
                               const char *const *write_paths, int write_count,
                               const char *const *exec_paths, int exec_count);
int standfit_seccomp_restrict(int allow_exec);
int standfit_elf_interpreter(const char *path, char *buffer, size_t size);

/* C's stdout stream (Swift 6 cannot name the `stdout` global safely). */
FILE *standfit_stdout(void);

/* Marks every open descriptor from `first` on close-on-exec, so that nothing the process
   inherited reaches the processes it starts. Returns 0, or -1. */
int standfit_cloexec_from(int first);

/* A fingerprint of this process's environment: a hash of every entry's bytes, in order; equal
   fingerprints mean the environment reads the same (whether changed by setenv, putenv, unsetenv
   or by writing into an entry in place). */
uint64_t standfit_environment_fingerprint(void);

/* Gives the calling thread a working directory and umask of its own (unshare(CLONE_FS)), so
   that the warm server's requests, each served on its own thread, can each enter the client's
   directory and take its umask. Returns 0, or -1 with errno set. */
int standfit_thread_own_fs(void);

/* Empties this process's environment (clearenv), so that the warm server can take on a
   request's environment whole. Returns 0, or -1. */
int standfit_clear_environment(void);

/* The C compiler of the toolchain the host was built with (__clang_version__): the Swift
   toolchain's own clang, whose version names that toolchain's LLVM commit. */
const char *standfit_toolchain_clang(void);

#endif /* STANDFIT_HOST_SYSTEM_H */
