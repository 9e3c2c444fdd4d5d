#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <seccomp.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "standfit_host_system.h"

/* Rationale: no maintained C library wraps Landlock (it is three system calls, and the
   kernel's own documentation gives this sequence); seccomp goes through libseccomp. The
   structure and the access rights newer than the system headers are declared here, with the
   values of the kernel's uapi header, so that the host uses what the running kernel offers. */
struct standfit_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net; /* ABI 4 */
    uint64_t scoped;             /* ABI 6 */
};

#define FS_TRUNCATE (1ULL << 14)  /* ABI 3 */
#define FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SCOPE_SIGNAL (1ULL << 1)

int standfit_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

static uint64_t handled_fs(int abi) {
    uint64_t rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
                      LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                      LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                      LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                      LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) rights |= FS_TRUNCATE;
    if (abi >= 5) rights |= FS_IOCTL_DEV;
    return rights;
}

/* The rights that apply to a file (not a directory). */
static uint64_t file_rights(int abi) {
    uint64_t rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE;
    if (abi >= 3) rights |= FS_TRUNCATE;
    if (abi >= 5) rights |= FS_IOCTL_DEV;
    return rights;
}

static int add_rule(int ruleset, const char *path, uint64_t rights, int abi) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0; /* a path this machine does not have grants nothing */
    struct stat info;
    if (fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode)) rights &= file_rights(abi);
    struct landlock_path_beneath_attr rule = { .allowed_access = rights, .parent_fd = fd };
    int status = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    int code = errno;
    close(fd);
    errno = code;
    return status;
}

int standfit_landlock_restrict(const char *const *read_paths, int read_count,
                               const char *const *write_paths, int write_count) {
    int abi = standfit_landlock_abi();
    if (abi <= 0) return 0;
    struct standfit_ruleset_attr attributes = { .handled_access_fs = handled_fs(abi) };
    size_t size = sizeof attributes.handled_access_fs;
    if (abi >= 6) {
        attributes.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
        size = sizeof attributes;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
    if (ruleset < 0) return -1;
    uint64_t read = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
    if (abi >= 5) read |= FS_IOCTL_DEV;
    for (int i = 0; i < read_count; i++) {
        if (add_rule(ruleset, read_paths[i], read, abi) != 0) goto failed;
    }
    for (int i = 0; i < write_count; i++) {
        if (add_rule(ruleset, write_paths[i], attributes.handled_access_fs, abi) != 0) goto failed;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) goto failed;
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) goto failed;
    close(ruleset);
    return abi;
failed: {
        int code = errno;
        close(ruleset);
        errno = code;
        return -1;
    }
}

int standfit_seccomp_restrict(void) {
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (filter == NULL) return -EINVAL;
    int status = 0;
    /* Leaving the process group or session the host kills as a whole. */
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setsid), 0);
    /* setpgid succeeds without effect, so a plugin that starts a program with Foundation's
       Process (which asks for a new group) still works, and the program stays in the group. */
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(0), SCMP_SYS(setpgid), 0);
    /* Outliving the host: changing the signal that comes when the parent dies, or giving up
       being the reaper of what the plugin forks (a warm worker kills its descendants after each
       call by walking its children; an orphan that went to init would escape that walk). */
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
                                                SCMP_A0(SCMP_CMP_EQ, PR_SET_PDEATHSIG));
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
                                                SCMP_A0(SCMP_CMP_EQ, PR_SET_CHILD_SUBREAPER));
    /* Hiding from the host: a process that is not dumpable hides /proc/PID/exe, by which the
       server knows a peer that descends from a plugin's process (and refuses it). */
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
                                                SCMP_A0(SCMP_CMP_EQ, PR_SET_DUMPABLE));
    /* The user's services: the warm server's socket, the session bus, the user's systemd and
       every other Unix socket, pathname or abstract (Landlock has no right for connecting to a
       pathname socket). Socket pairs stay: they reach nothing but each other. io_uring goes
       too: its socket and connect operations would pass beside this filter. */
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                                                SCMP_A0(SCMP_CMP_EQ, AF_UNIX));
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(io_uring_setup), 0);
    /* Signals with a forged sender (the host trusts si_pid of kill(2) only). */
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(rt_sigqueueinfo), 0);
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(rt_tgsigqueueinfo), 0);
    /* Reaching into other processes. */
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ptrace), 0);
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(process_vm_readv), 0);
    status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(process_vm_writev), 0);
    status = status ? status : seccomp_load(filter);
    seccomp_release(filter);
    return status;
}
