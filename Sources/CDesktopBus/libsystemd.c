#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

int bus_open(const char *address, sd_bus **out) {
    if (address == NULL || address[0] == '\0') return -ENOENT;
    sd_bus *bus = NULL;
    int r = p_sd_bus_new(&bus);
    if (r < 0) return r;
    if ((r = p_sd_bus_set_address(bus, address)) < 0 || (r = p_sd_bus_set_bus_client(bus, 1)) < 0 ||
        (r = p_sd_bus_start(bus)) < 0) {
        p_sd_bus_flush_close_unref(bus);
        return r;
    }
    *out = bus;
    return 0;
}
