#define _GNU_SOURCE
#include <elf.h>
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
                               const char *const *write_paths, int write_count,
                               const char *const *exec_paths, int exec_count) {
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
    /* Executing is granted only on the files named for it: not on the system's directories,
       and not where the plugin can write (it would write a program and run it). Mapping a
       library needs no execute right. */
    uint64_t read = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
    if (abi >= 5) read |= FS_IOCTL_DEV;
    for (int i = 0; i < read_count; i++) {
        if (add_rule(ruleset, read_paths[i], read, abi) != 0) goto failed;
    }
    for (int i = 0; i < write_count; i++) {
        if (add_rule(ruleset, write_paths[i], attributes.handled_access_fs & ~LANDLOCK_ACCESS_FS_EXECUTE, abi) != 0) goto failed;
    }
    for (int i = 0; i < exec_count; i++) {
        if (add_rule(ruleset, exec_paths[i], LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE, abi) != 0) goto failed;
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

int standfit_seccomp_restrict(int allow_exec) {
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
    /* Starting programs, for a plugin that declared none (Landlock then names the files a
       plugin that declared some may execute). */
    if (!allow_exec) {
        status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(execve), 0);
        status = status ? status : seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(execveat), 0);
    }
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

/* Rationale: one program header read with the records <elf.h> declares; libelf would be a
   library every worker loads for it. */
int standfit_elf_interpreter(const char *path, char *buffer, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int found = 0;
    Elf64_Ehdr header;
    if (pread(fd, &header, sizeof header, 0) == (ssize_t)sizeof header && memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
        header.e_ident[EI_CLASS] == ELFCLASS64 && header.e_phentsize == sizeof(Elf64_Phdr) && header.e_phnum < 512) {
        for (int i = 0; i < header.e_phnum && !found; i++) {
            Elf64_Phdr program;
            if (pread(fd, &program, sizeof program, (off_t)(header.e_phoff + (uint64_t)i * sizeof program)) != (ssize_t)sizeof program) break;
            if (program.p_type != PT_INTERP) continue;
            if (program.p_filesz == 0 || program.p_filesz > size) break;
            if (pread(fd, buffer, program.p_filesz, (off_t)program.p_offset) != (ssize_t)program.p_filesz) break;
            buffer[program.p_filesz - 1] = 0;
            found = 1;
        }
    }
    close(fd);
    return found;
}
