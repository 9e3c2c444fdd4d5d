#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "bus_private.h"

/* Tells the server that asynchronous request `q` (a Notify, GetCapabilities or Activate)
   failed with `error`: its answer event, carrying `why`. Other requests have no answer event. */
static void fail_request(standfit_bus *bus, const request *q, int error, const char *why) {
    standfit_bus_event event = { .token = q->token, .error = error, .name = why };
    switch (q->kind) {
    case REQUEST_NOTIFY: event.kind = STANDFIT_BUS_NOTIFIED; break;
    case REQUEST_CAPABILITIES: event.kind = STANDFIT_BUS_CAPABILITIES; break;
    case REQUEST_ACTIVATE: case REQUEST_CALL: case REQUEST_ENVIRONMENT: event.kind = STANDFIT_BUS_CALLED; break;
    default: return;
    }
    bus_deliver(bus, &event);
}

/* Carries out what the server queued, on the bus thread. */
static void drain(standfit_bus *bus) {
    pthread_mutex_lock(&bus->lock);
    request *q = bus->first;
    bus->first = bus->last = NULL;
    pthread_mutex_unlock(&bus->lock);
    while (q != NULL) {
        request *next = q->next;
        int r = 0;
        switch (q->kind) {
        case REQUEST_REPLY:
            if (q->error_name == NULL) {
                p_sd_bus_reply_method_return(q->call, "");
            } else {
                sd_bus_error e = SD_BUS_ERROR_MAKE_CONST(q->error_name, q->message);
                p_sd_bus_reply_method_error(q->call, &e);
            }
            p_sd_bus_message_unref(q->call);
            break;
        case REQUEST_NOTIFY:
            r = bus_send_notify(bus, q);
            break;
        case REQUEST_REPLY_MATCHES:
        case REQUEST_REPLY_CONFIG:
        case REQUEST_REPLY_RUNNER_ACTIONS:
        case REQUEST_REPLY_RESULTS:
        case REQUEST_REPLY_METAS:
            r = q->kind == REQUEST_REPLY_RESULTS || q->kind == REQUEST_REPLY_METAS ? bus_send_search_reply(q)
                                                                                    : bus_send_runner_reply(q);
            if (r < 0) {
                sd_bus_error e = SD_BUS_ERROR_MAKE_CONST("org.freedesktop.DBus.Error.Failed", strerror(-r));
                p_sd_bus_reply_method_error(q->call, &e);
            }
            p_sd_bus_message_unref(q->call);
            break;
        case REQUEST_CLOSE:
            r = bus_send_close(bus, q);
            break;
        case REQUEST_ACTIVATE:
            r = bus_send_activate(bus, q);
            break;
        case REQUEST_ENVIRONMENT:
            r = bus_send_environment(bus, q);
            break;
        case REQUEST_CALL:
            r = bus_send_call(bus, q);
            break;
        case REQUEST_CAPABILITIES:
            r = bus_send_capabilities(bus, q);
            break;
        }
        if (r < 0) fail_request(bus, q, r, strerror(-r));
        bus_free_request(q);
        q = next;
    }
}

static void *bus_thread(void *argument) {
    standfit_bus *bus = argument;
    int lost = 0;
    for (;;) {
        drain(bus);
        int r;
        while ((r = p_sd_bus_process(bus->bus, NULL)) > 0) {}
        if (r < 0) { lost = r; break; }
        pthread_mutex_lock(&bus->lock);
        int stopping = bus->stopping;
        int queued = bus->first != NULL;
        pthread_mutex_unlock(&bus->lock);
        if (stopping) {
            /* Answers and CloseNotification calls queued before the stop are handed to sd-bus,
               which writes each at once; one a bus that stopped reading could not take is dropped
               when the connection closes, never waited for. */
            drain(bus);
            break;
        }
        if (queued) continue;
        struct pollfd fds[2] = {
            { .fd = p_sd_bus_get_fd(bus->bus), .events = (short)p_sd_bus_get_events(bus->bus) },
            { .fd = bus->wake, .events = POLLIN },
        };
        uint64_t until = UINT64_MAX;
        int timeout = -1;
        if (p_sd_bus_get_timeout(bus->bus, &until) > 0 && until != UINT64_MAX) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            uint64_t now_usec = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
            timeout = until <= now_usec ? 0 : (int)((until - now_usec + 999) / 1000);
        }
        if (poll(fds, 2, timeout) < 0 && errno != EINTR) { lost = -errno; break; }
        if (fds[1].revents != 0) {
            uint64_t count;
            ssize_t ignored = read(bus->wake, &count, sizeof count);
            (void)ignored;
        }
    }
    pthread_mutex_lock(&bus->lock);
    bus->ended = 1;
    pthread_mutex_unlock(&bus->lock);
    if (lost < 0) {
        standfit_bus_event event = { .kind = STANDFIT_BUS_LOST, .error = lost, .name = strerror(-lost) };
        bus_deliver(bus, &event);
    }
    return NULL;
}

standfit_bus *standfit_bus_start(const char *address, const char *application_id, const char *object_path, const char *runner_path,
                                 const char *search_path,
                                 standfit_bus_handler handler, void *context,
                                 int *error, char *why, size_t why_size) {
    if (!bus_load_libsystemd()) {
        *error = -ENOENT;
        const char *reason = dlerror();
        snprintf(why, why_size, "libsystemd.so.0 (sd-bus) cannot be loaded: %s", reason ? reason : "not found");
        return NULL;
    }
    sd_bus *connection = NULL;
    int r = bus_open(address, &connection);
    if (r < 0) {
        *error = r;
        if (r == -EPERM) snprintf(why, why_size, "the bus at %s is not run by this user (uid %u), so it is not joined", address, (unsigned)getuid());
        else if (r == -ETIMEDOUT) snprintf(why, why_size, "the bus at %s did not answer within 5 s, so it is not joined", address);
        else snprintf(why, why_size, "no session bus (%s)", strerror(-r));
        return NULL;
    }
    standfit_bus *bus = calloc(1, sizeof *bus);
    if (bus == NULL) {
        p_sd_bus_close_unref(connection);
        *error = -ENOMEM;
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    bus->bus = connection;
    bus->handler = handler;
    bus->context = context;
    pthread_mutex_init(&bus->lock, NULL);
    bus->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (bus->wake < 0) {
        r = -errno;
        snprintf(why, why_size, "cannot make an eventfd (%s)", strerror(-r));
        goto fail;
    }
    if (application_id != NULL &&
        (r = p_sd_bus_add_object_vtable(connection, NULL, object_path, "org.freedesktop.Application",
                                        bus_application_vtable, bus)) < 0) {
        snprintf(why, why_size, "cannot serve %s (%s)", object_path, strerror(-r));
        goto fail;
    }
    if (application_id != NULL && runner_path != NULL &&
        (r = p_sd_bus_add_object_vtable(connection, NULL, runner_path, "org.kde.krunner1", bus_runner_vtable, bus)) < 0) {
        snprintf(why, why_size, "cannot serve %s (%s)", runner_path, strerror(-r));
        goto fail;
    }
    if (application_id != NULL && search_path != NULL &&
        (r = p_sd_bus_add_object_vtable(connection, NULL, search_path, "org.gnome.Shell.SearchProvider2", bus_search_vtable,
                                        bus)) < 0) {
        snprintf(why, why_size, "cannot serve %s (%s)", search_path, strerror(-r));
        goto fail;
    }
    if ((r = bus_listen_for_notifications(bus)) < 0) {
        snprintf(why, why_size, "cannot listen for notification signals (%s)", strerror(-r));
        goto fail;
    }
    r = application_id == NULL ? 0
        : p_sd_bus_request_name(connection, application_id, SD_BUS_NAME_REPLACE_EXISTING | SD_BUS_NAME_ALLOW_REPLACEMENT);
    if (r < 0 && r != -EALREADY) {
        snprintf(why, why_size, r == -EEXIST ? "another process owns %s and does not let it go"
                                             : "the bus refused the name %s (%s)", application_id, strerror(-r));
        goto fail;
    }
    return bus;
fail:
    *error = r;
    p_sd_bus_close_unref(connection);
    if (bus->wake >= 0) close(bus->wake);
    pthread_mutex_destroy(&bus->lock);
    free(bus);
    return NULL;
}

void standfit_bus_run(standfit_bus *bus) {
    if (pthread_create(&bus->thread, NULL, bus_thread, bus) != 0) {
        /* No thread: the connection is as good as lost. */
        pthread_mutex_lock(&bus->lock);
        bus->ended = 1;
        pthread_mutex_unlock(&bus->lock);
        return;
    }
    pthread_mutex_lock(&bus->lock);
    bus->running = 1;
    pthread_mutex_unlock(&bus->lock);
}

void bus_enqueue(standfit_bus *bus, request *q) {
    pthread_mutex_lock(&bus->lock);
    if (bus->ended) {
        /* No bus thread to carry it out: a call is released (its caller gets NoReply from the bus),
           and an asynchronous request fails at once. The connection itself is freed by stop. */
        if (q->call != NULL) p_sd_bus_message_unref(q->call);
        pthread_mutex_unlock(&bus->lock);
        fail_request(bus, q, -ENOTCONN, "the connection to the session bus has ended");
        bus_free_request(q);
        return;
    }
    if (bus->last != NULL) bus->last->next = q; else bus->first = q;
    bus->last = q;
    pthread_mutex_unlock(&bus->lock);
    uint64_t one = 1;
    ssize_t ignored = write(bus->wake, &one, sizeof one);
    (void)ignored;
}

void standfit_bus_reply(standfit_bus *bus, void *call, const char *error_name, const char *message) {
    request *q = bus_new_request(REQUEST_REPLY, call);
    if (q == NULL) return;
    q->error_name = bus_copy(error_name);
    q->message = bus_copy(message);
    bus_enqueue(bus, q);
}

void standfit_bus_stop(standfit_bus *bus) {
    pthread_mutex_lock(&bus->lock);
    bus->stopping = 1;
    pthread_mutex_unlock(&bus->lock);
    uint64_t one = 1;
    ssize_t ignored = write(bus->wake, &one, sizeof one);
    (void)ignored;
    pthread_mutex_lock(&bus->lock);
    int running = bus->running;
    pthread_mutex_unlock(&bus->lock);
    if (running) pthread_join(bus->thread, NULL);
    pthread_mutex_lock(&bus->lock);
    bus->ended = 1;
    request *q = bus->first;
    bus->first = bus->last = NULL;
    /* Every message holds a reference on the connection that is not atomic: releases happen
       under the lock, as enqueue's do. */
    while (q != NULL) {
        request *next = q->next;
        if (q->call != NULL) p_sd_bus_message_unref(q->call);
        bus_free_request(q);
        q = next;
    }
    /* Closing the connection releases the name; calls still held by the server are released
       when it answers them (enqueue), after which the connection's memory goes. The struct
       itself is kept: an answer may still arrive from another thread. Closed without a flush:
       sd-bus writes a message as it is sent and every call here waits for its answer, so
       nothing the host needs is queued; a flush would wait without a deadline on a bus that
       stopped reading. */
    p_sd_bus_close_unref(bus->bus);
    pthread_mutex_unlock(&bus->lock);
}
