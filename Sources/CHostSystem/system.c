#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <sys/prctl.h>
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

int standfit_child_ended(pid_t pid) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return -1;
    return info.si_pid == pid ? 1 : 0;
}

static char guard_path[PATH_MAX];
static volatile sig_atomic_t guard_session = -1;
static const int guarded_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void guard_handler(int number, siginfo_t *info, void *context) {
    (void)context;
    int from_helper = 0;
    if (info != NULL && (info->si_code == SI_USER || info->si_code == SI_QUEUE) && info->si_pid > 0) {
        /* getsid is a plain system call; it is safe here. */
        pid_t session = getsid(info->si_pid);
        from_helper = session >= 0 && session == guard_session;
    }
    if (!from_helper && guard_path[0] != '\0') unlink(guard_path);
    signal(number, SIG_DFL);
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
    action.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof guarded_signals / sizeof guarded_signals[0]; i++)
        sigaction(guarded_signals[i], &action, NULL);
    return 0;
}

void standfit_scan_guard_disarm(void) {
    for (size_t i = 0; i < sizeof guarded_signals / sizeof guarded_signals[0]; i++)
        signal(guarded_signals[i], SIG_DFL);
    guard_path[0] = '\0';
    guard_session = -1;
}
