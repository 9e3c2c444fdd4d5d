#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bus_private.h"

/* libsystemd, opened with dlopen when the server first starts its bus (cold commands never
   load it), and a client connection to a bus by its address. */

#define DEFINE(name) __typeof__(name) *p_##name;
SD_FUNCTIONS(DEFINE)
#undef DEFINE
const unsigned *p_vtable_format;

static pthread_once_t loaded_once = PTHREAD_ONCE_INIT;
static int loaded = 0;

static void load_libsystemd(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define RESOLVE(name) p_##name = (__typeof__(name) *)dlsym(library, #name); if (p_##name == NULL) return;
    SD_FUNCTIONS(RESOLVE)
#undef RESOLVE
    p_vtable_format = dlsym(library, "sd_bus_object_vtable_format");
    if (p_vtable_format == NULL) return;
    bus_build_application_vtable();
    bus_build_runner_vtable();
    bus_build_search_vtable();
    loaded = 1;
}

int bus_load_libsystemd(void) {
    pthread_once(&loaded_once, load_libsystemd);
    return loaded;
}

/* How long a call on the bus may take (the name request, a notification's): a bus that accepts
   and never answers must not hold a request, or a server's stop, for sd-bus's default 25 s. */
enum { BUS_CALL_TIMEOUT_USEC = 5 * 1000 * 1000 };

int bus_open(const char *address, sd_bus **out) {
    if (address == NULL || address[0] == '\0') return -ENOENT;
    sd_bus *bus = NULL;
    int r = p_sd_bus_new(&bus);
    if (r < 0) return r;
    if ((r = p_sd_bus_set_address(bus, address)) < 0 || (r = p_sd_bus_set_bus_client(bus, 1)) < 0 ||
        (r = p_sd_bus_set_method_call_timeout(bus, BUS_CALL_TIMEOUT_USEC)) < 0 || (r = p_sd_bus_start(bus)) < 0) {
        p_sd_bus_close_unref(bus);
        return r;
    }
    /* Only a bus of this user's: the process at the other end of the socket (the bus daemon) runs
       as this user. Another user's bus would carry this user's actions to that user's callers,
       and theirs here. Checked on the connected socket as soon as it is connected, before the
       connection is greeted or any call is made on it. */
    struct ucred peer;
    socklen_t length = sizeof peer;
    int fd = p_sd_bus_get_fd(bus);
    if (fd < 0 || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 || peer.uid != getuid()) {
        p_sd_bus_close_unref(bus);
        return -EPERM;
    }
    /* Authenticated and greeted within the same bound: sd-bus's own wait for that is 90 s. Closed
       without a flush on every failure here: a flush waits for a peer that may never read. */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t deadline = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000 + BUS_CALL_TIMEOUT_USEC;
    while ((r = p_sd_bus_is_ready(bus)) == 0) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t at = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
        if (at >= deadline) { r = -ETIMEDOUT; break; }
        if ((r = p_sd_bus_process(bus, NULL)) < 0) break;
        if (r > 0) continue;
        if ((r = p_sd_bus_wait(bus, deadline - at)) < 0) break;
    }
    if (r < 0) {
        p_sd_bus_close_unref(bus);
        return r;
    }
    *out = bus;
    return 0;
}
