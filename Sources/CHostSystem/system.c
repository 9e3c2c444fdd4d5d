#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <errno.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <poll.h>
#include <sched.h>
#include <linux/close_range.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

#include "standfit_host_system.h"

int standfit_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int standfit_memfd_seal(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
}

int standfit_symbol_is_function(const void *address) {
    Dl_info info;
    const ElfW(Sym) *symbol = NULL;
    if (dladdr1(address, &info, (void **)&symbol, RTLD_DL_SYMENT) == 0 || symbol == NULL) return -1;
    int type = ELF64_ST_TYPE(symbol->st_info);
    return type == STT_FUNC || type == STT_GNU_IFUNC ? 1 : 0;
}

int standfit_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int standfit_die_with_parent(pid_t parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    /* The parent may have died before the prctl: then this process was reparented already. */
    if (getppid() != parent) kill(getpid(), SIGKILL);
    return 0;
}

int standfit_spawnattr_setsid(posix_spawnattr_t *attributes) {
    short flags = 0;
    int status = posix_spawnattr_getflags(attributes, &flags);
    if (status != 0) return status;
    return posix_spawnattr_setflags(attributes, flags | POSIX_SPAWN_SETSID);
}

int standfit_spawn_file_actions_closefrom(posix_spawn_file_actions_t *actions, int first) {
    return posix_spawn_file_actions_addclosefrom_np(actions, first);
}

int standfit_child_ended(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return -1;
    return info.si_pid == pid ? 1 : 0;
}

int standfit_wait_ended(pid_t pid, int timeout_ms) {
    int ended = standfit_child_ended(pid);
    if (ended != 0 || timeout_ms <= 0) return ended;
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0) {
        struct pollfd poller = { .fd = fd, .events = POLLIN, .revents = 0 };
        int ready;
        while ((ready = poll(&poller, 1, timeout_ms)) < 0 && errno == EINTR) {}
        close(fd);
        return ready > 0 ? standfit_child_ended(pid) : 0;
    }
    struct timespec pause = { .tv_sec = 0, .tv_nsec = 1000000 };
    for (int waited = 0; waited < timeout_ms; waited++) {
        nanosleep(&pause, NULL);
        ended = standfit_child_ended(pid);
        if (ended != 0) return ended;
    }
    return 0;
}

int standfit_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

static char guard_path[PATH_MAX];
static volatile sig_atomic_t guard_session = -1;
static const int guarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction guard_saved[sizeof guarded_signals / sizeof guarded_signals[0]];
static int guard_armed;

static void guard_handler(int number, siginfo_t *info, void *context) {
    (void)context;
    int from_helper = 0;
    /* Only kill(2) sets si_pid truthfully; sigqueue lets the sender write any pid. */
    if (info != NULL && info->si_code == SI_USER && info->si_pid > 0) {
        /* getsid is a plain system call; it is safe here. */
        pid_t session = getsid(info->si_pid);
        from_helper = session >= 0 && session == guard_session;
    }
    if (!from_helper && guard_path[0] != '\0') unlink(guard_path);
    for (size_t i = 0; i < sizeof guarded_signals / sizeof guarded_signals[0]; i++)
        if (guarded_signals[i] == number) sigaction(number, &guard_saved[i], NULL);
    raise(number);
}

int standfit_scan_guard_arm(const char *marker_path, pid_t helper_session) {
    size_t length = strlen(marker_path);
    if (length >= sizeof guard_path) return -1;
    memcpy(guard_path, marker_path, length + 1);
    guard_session = helper_session;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = guard_handler;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof guarded_signals / sizeof guarded_signals[0]; i++)
        sigaction(guarded_signals[i], &action, guard_armed ? NULL : &guard_saved[i]);
    guard_armed = 1;
    return 0;
}

void standfit_scan_guard_disarm(void) {
    if (!guard_armed) return;
    for (size_t i = 0; i < sizeof guarded_signals / sizeof guarded_signals[0]; i++)
        sigaction(guarded_signals[i], &guard_saved[i], NULL);
    guard_armed = 0;
    guard_path[0] = '\0';
    guard_session = -1;
}

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
#define CRASH_SIGNAL_COUNT (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction crash_saved[CRASH_SIGNAL_COUNT];
static const char *volatile call_prefix;
static const char *volatile call_suffix;
static const char *volatile call_exit_sentence;
static int call_keep_backtrace;
static int call_exit_status = 4;
static int call_guard_installed;

static void write_all(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(2, text, length);
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static const char *crash_signal_name(int number) {
    switch (number) {
    case SIGSEGV: return "SIGSEGV (segmentation fault)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGFPE: return "SIGFPE (floating-point exception)";
    case SIGABRT: return "SIGABRT (aborted)";
    case SIGTRAP: return "SIGTRAP (trace/breakpoint trap)";
    default: return "a signal";
    }
}

static void crash_handler(int number, siginfo_t *info, void *context) {
    (void)context;
    const char *prefix = call_prefix, *suffix = call_suffix;
    if (prefix != NULL && suffix != NULL) {
        write_all(prefix);
        write_all(crash_signal_name(number));
        write_all(suffix);
        if (!call_keep_backtrace) _exit(call_exit_status);
    }
    /* Not in plugin code, or a backtrace is wanted: hand the signal to whoever had it before,
       and let the faulting instruction run again (or abort() raise again). A signal another
       process sent (si_code <= 0) does not come again by itself: raise it. */
    for (size_t i = 0; i < CRASH_SIGNAL_COUNT; i++)
        if (crash_signals[i] == number) sigaction(number, &crash_saved[i], NULL);
    if (info != NULL && info->si_code <= 0) raise(number);
}

static void exit_handler(void) {
    const char *sentence = call_exit_sentence;
    if (sentence == NULL) return;
    write_all(sentence);
    _exit(call_exit_status);
}

void standfit_call_guard_install(int keep_backtrace, int exit_status) {
    if (call_guard_installed) return;
    call_guard_installed = 1;
    call_keep_backtrace = keep_backtrace;
    call_exit_status = exit_status;
    /* A stack overflow can only be reported from another stack. */
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
        stack_t alternate = { .ss_sp = malloc(1 << 16), .ss_flags = 0, .ss_size = 1 << 16 };
        if (alternate.ss_sp != NULL) sigaltstack(&alternate, NULL);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = crash_handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < CRASH_SIGNAL_COUNT; i++) sigaction(crash_signals[i], &action, &crash_saved[i]);
    atexit(exit_handler);
}

void standfit_call_guard_enter(const char *crash_prefix, const char *crash_suffix, const char *exit_sentence) {
    call_prefix = crash_prefix;
    call_suffix = crash_suffix;
    call_exit_sentence = exit_sentence;
}

void standfit_call_guard_leave(void) {
    call_exit_sentence = NULL;
    call_suffix = NULL;
    call_prefix = NULL;
}

int standfit_clear_environment(void) {
    return clearenv();
}

FILE *standfit_stdout(void) {
    return stdout;
}

int standfit_cloexec_from(int first) {
#ifdef CLOSE_RANGE_CLOEXEC
    if (syscall(SYS_close_range, (unsigned)first, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return 0;
#endif
    DIR *descriptors = opendir("/proc/self/fd");
    if (descriptors == NULL) return -1;
    int own = dirfd(descriptors);
    struct dirent *entry;
    while ((entry = readdir(descriptors)) != NULL) {
        int fd = atoi(entry->d_name);
        if (fd >= first && fd != own) fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
    }
    closedir(descriptors);
    return 0;
}

uint64_t standfit_environment_fingerprint(void) {
    /* FNV-1a over every entry's bytes, each ended by its NUL: a change in place (a plugin that
       writes into a string getenv returned) changes it as surely as setenv does. */
    uint64_t hash = 1469598103934665603ULL;
    for (char **entry = environ; entry != NULL && *entry != NULL; entry++) {
        for (const unsigned char *byte = (const unsigned char *)*entry;; byte++) {
            hash = (hash ^ *byte) * 1099511628211ULL;
            if (*byte == 0) break;
        }
    }
    return hash;
}

int standfit_thread_own_fs(void) {
    return unshare(CLONE_FS);
}

int standfit_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

/* Sends SIGKILL to each pid listed in /proc/self/task/<tid>/children; returns how many, or -1. */
static int kill_children(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) return -1;
    int killed = 0;
    struct dirent *task;
    while ((task = readdir(tasks)) != NULL) {
        if (task->d_name[0] == '.') continue;
        char path[96];
        snprintf(path, sizeof path, "/proc/self/task/%s/children", task->d_name);
        FILE *list = fopen(path, "re");
        if (list == NULL) continue;
        long pid;
        while (fscanf(list, "%ld", &pid) == 1) {
            if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0) killed++;
        }
        fclose(list);
    }
    closedir(tasks);
    return killed;
}

int standfit_kill_descendants(int rounds) {
    int total = 0;
    for (int round = 0; round < rounds; round++) {
        int killed = kill_children();
        if (killed < 0) return round == 0 ? -1 : total;
        if (killed == 0) break;
        total += killed;
        /* Reap them; their own children come to this subreaper and are killed next round. */
        int status;
        for (int i = 0; i < killed; i++) {
            if (waitpid(-1, &status, 0) < 0 && errno != EINTR) break;
        }
    }
    int status;
    while (waitpid(-1, &status, WNOHANG) > 0) {}
    return total;
}
