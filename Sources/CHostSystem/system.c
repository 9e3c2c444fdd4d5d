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
#include <sys/vfs.h>
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

const char *standfit_toolchain_clang(void) {
#ifdef __clang_version__
    return __clang_version__;
#else
    return "";
#endif
}

int standfit_file_system_type(const char *path, int64_t *type) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    *type = (int64_t)info.f_type;
    return 0;
}
