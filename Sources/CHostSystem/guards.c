#define _GNU_SOURCE
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "standfit_host_system.h"

/* The host's guards around plugin code: the scan guard (a signal that ends the host during a
   scan removes the scan's marker, unless the scanned plugin's helper sent it) and the call guard
   (trusted code run in the host's process that crashes or exits is named in one sentence). */

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
