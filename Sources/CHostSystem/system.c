#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
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
