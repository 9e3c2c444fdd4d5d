/* Test fixture: the hostile plugin zoo, plugins that misbehave in every way the host must survive.
   Compiled once per variant, each with its own -DZOO_ID="\"name\"" so ids and types differ
   ("com.zoo.<name>", one action "com.zoo.<name>.run" that says "zoo <name> ran"). Then:
   -DZOO_INIT_FAULT=F / -DZOO_HANDLER_FAULT=F  dies in init / in the handler, F one of ZOO_CRASH
                        (SIGSEGV), ZOO_ABORT (SIGABRT), ZOO_TRAP (SIGILL on x86_64), ZOO_EXIT
                        (exit status 3) or ZOO_HANG (never returns);
   -DZOO_NULL_ENTRY     the entry returns NULL;
   -DZOO_DATA_ENTRY     standfit_plugin_entry_v1 is exported as the table itself, not a function;
   -DZOO_LATE_REGISTER  the handler calls register_action after init and reports the result;
   -DZOO_BAD_STATUS     the handler returns 42, which is no STANDFIT_STATUS_*;
   -DZOO_BAD_UTF8       the handler's message is not UTF-8;
   -DZOO_STDOUT         init and the handler print to stdout, which the host uses for its output;
   -DZOO_SLOPPY         loads and works, but init is slow (150 ms) and the action's title is long
                        and its icon unknown: what 'plugins check' warns about;
   -DZOO_FORGE_GARBAGE  init writes '{"begin":99}' to every descriptor from 3 on, as if it were the
                        scan helper answering;
   -DZOO_FORGE_RECORD   init writes a scan record of its own to every descriptor from 3 on, with a
                        type holding a newline and $(...) that registering would refuse;
   -DZOO_KILL_PARENT    init kills its parent process with SIGKILL;
   -DZOO_KILL_HOST      init kills the host (STANDFIT_HELPER_PARENT names it) with SIGKILL, once: it
                        leaves the file $ZOO_MARK behind so a second scan loads normally;
   -DZOO_KILL_GROUP     the handler sends SIGTERM to its whole process group, kill(0, SIGTERM);
   -DZOO_FORK_INIT / -DZOO_FORK_HANDLER  init / the handler forks a child that keeps stdout and
                        stderr open and sleeps 30 s; its pid goes to the file $ZOO_PIDFILE;
   -DZOO_ESCAPES        name, title, subtitle and message carry terminal escapes, CR, LF and a bidi
                        override;
   -DZOO_BIG_MESSAGE=N  the handler's message is N bytes of 'x' (N from $ZOO_BIG_MESSAGE, if set);
   -DZOO_PROVIDER       a dynamic provider with one item "Zoo item"; it crashes when $ZOO_PROVIDER_FAIL
                        is "crash" and fails when it is anything else; with $ZOO_ITEM_UNTIL (Unix
                        seconds) the item holds until then and its title counts the provider's calls;
   -DZOO_SNOOP          the handler tries what the sandbox forbids and reports each outcome: read the
                        file $ZOO_SECRET, write $ZOO_TARGET, SIGTERM its parent (the host), setsid,
                        clear its parent-death signal; and what it allows: write in its data
                        directory and in $TMPDIR;
   -DZOO_TRACE          the handler tries to trace, and to read the memory of, processes outside its
                        sandbox and reports each outcome: PTRACE_ATTACH, PTRACE_SEIZE,
                        process_vm_readv and /proc/PID/mem, on its parent (the host, or the warm
                        server) and on $ZOO_SHELL (the shell that started the command);
   -DZOO_GROUP          the handler tries to leave its process group and reports each outcome and
                        where it ended up: setpgid(0, 0), setpgid on a child it forks, and in that
                        child setpgid(0, 0) and setsid;
   -DZOO_PRY            the handler tries the host's files and another plugin's and reports each
                        outcome: read and write "notes" in com.zoo.plain's data directory (reached
                        through its own, "<data directory>/../com.zoo.plain"), list that directory
                        and add a file to it, read the host's state, registry cache and settings
                        (beneath $XDG_DATA_HOME, $XDG_CACHE_HOME and $XDG_CONFIG_HOME) and write the
                        settings; and what it allows: write and read back a file in its own data
                        directory;
   -DZOO_NETWORK        the handler uses IP and reports each outcome: a TCP socket bound to
                        127.0.0.1:0, a connection to it over which one byte goes; and, beside it,
                        a Unix socket;
   -DZOO_LOUD=N         the handler writes N lines of 1 KiB ("zoo loud line 001 on stdout ...."),
                        odd ones on stdout and even ones on stderr, with write(2), then answers;
   -DZOO_DEEP_JSON      the handler attaches valid JSON data nested 100,000 arrays deep;
   -DZOO_ESCAPE / -DZOO_ESCAPE_INIT  the handler (its message) / init (on stderr) tries to reach
                        beyond its call and reports each outcome: make a Unix socket (the warm
                        server's, the session bus), set up io_uring, stop being the reaper of what
                        it forks, make itself undumpable (hiding from the server's peer check),
                        and run $ZOO_HOST_COMMAND with /bin/sh (exit status and last output line,
                        or that the shell did not start);
   -DZOO_ENV_IN_PLACE   the handler reports $ZOO_IN_PLACE, then overwrites its first byte in place
                        (no setenv): the next call must see the command's value again;
   -DZOO_SLOW           the handler sleeps 300 ms before it answers;
   -DZOO_STRAY_ANSWER   the handler writes one line of its own on the worker's answer descriptor (3);
   -DZOO_TEMP_FILE      the handler makes a file in $TMPDIR with mkstemp, leaves it there, and reports
                        what $TMPDIR held before (a directory emptied between calls holds nothing);
   -DZOO_EXEC           the handler starts programs with posix_spawn and reports each outcome: /bin/true,
                        /bin/echo, and a copy of /bin/true it writes into $TMPDIR; with
                        -DZOO_DECLARE=S, init first declares program S (standfit.programs/1) and
                        reports the answer, with ZOO_DECLARE_BAD, also "relative/true";
   -DZOO_PLUGIN_ID=S / -DZOO_TYPE=S  the plugin's id / its action's type, instead of com.zoo.<name>
                        and com.zoo.<name>.run;
   -DZOO_TITLE=S        its action's title, instead of "Run <name>";
   -DZOO_PHRASES=S,…    its action's phrases (standfit.intents/1), in every language;
   -DZOO_NAME=S         its name, instead of "Zoo <name>". */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "standfit_plugin.h"

#ifndef ZOO_ID
#error "compile with -DZOO_ID='\"name\"'"
#endif

#ifndef ZOO_PLUGIN_ID
#define ZOO_PLUGIN_ID "com.zoo." ZOO_ID
#endif
#ifndef ZOO_TYPE
#define ZOO_TYPE "com.zoo." ZOO_ID ".run"
#endif
#ifdef ZOO_ESCAPES
#define ZOO_NAME "Zoo \xe2\x80\xae" "escapes"
#define ZOO_TITLE "Run \x1b]0;pwned\x07" "escapes\nfake line"
#define ZOO_SUBTITLE "\x1b[2J\rcleared"
#else
#ifndef ZOO_NAME
#define ZOO_NAME "Zoo " ZOO_ID
#endif
#ifndef ZOO_TITLE
#define ZOO_TITLE "Run " ZOO_ID
#endif
#define ZOO_SUBTITLE NULL
#endif

#define ZOO_CRASH 1
#define ZOO_ABORT 2
#define ZOO_TRAP 3
#define ZOO_EXIT 4
#define ZOO_HANG 5

#if defined(ZOO_INIT_FAULT) || defined(ZOO_HANDLER_FAULT)
static void fault(int kind) {
    switch (kind) {
    case ZOO_CRASH: {
        /* volatile, so the optimizer can neither see the NULL nor drop the store. */
        int *volatile nowhere = NULL;
        *nowhere = 1;
        break;
    }
    case ZOO_ABORT:
        abort();
    case ZOO_TRAP:
        __builtin_trap();
    case ZOO_EXIT:
        exit(3);
    case ZOO_HANG:
        for (;;) pause();
    }
}
#endif

#if defined(ZOO_FORGE_GARBAGE) || defined(ZOO_FORGE_RECORD)
static void forge(const char *line) {
    for (int fd = 3; fd < 64; fd++) (void)!write(fd, line, strlen(line));
}
#endif

#if defined(ZOO_FORK_INIT) || defined(ZOO_FORK_HANDLER)
/* A child that outlives the call and holds stdout and stderr open. */
static void fork_holder(void) {
    pid_t child = fork();
    if (child == 0) {
        sleep(30);
        _exit(0);
    }
    const char *file = getenv("ZOO_PIDFILE");
    if (file != NULL && child > 0) {
        FILE *out = fopen(file, "a");
        if (out != NULL) {
            fprintf(out, "%d\n", (int)child);
            fclose(out);
        }
    }
}
#endif

#ifdef ZOO_PROVIDER
static const standfit_host *provider_host;

/* With $ZOO_ITEM_UNTIL (Unix seconds) the item holds until then (standfit.item-lifetime/1), and
   its title counts the provider's calls, kept in the plugin's data directory. */
static int32_t provide_until(const standfit_item_sink *sink, const char *until) {
    const standfit_item_lifetime_ext *lifetime =
        provider_host->get_extension(provider_host, STANDFIT_EXT_ITEM_LIFETIME);
    const char *directory = provider_host->data_directory(provider_host);
    if (lifetime == NULL || directory == NULL) return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/asked", directory);
    int asked = 0;
    FILE *file = fopen(path, "r");
    if (file != NULL) {
        if (fscanf(file, "%d", &asked) != 1) asked = 0;
        fclose(file);
    }
    asked += 1;
    file = fopen(path, "w");
    if (file == NULL) return 1;
    fprintf(file, "%d\n", asked);
    fclose(file);
    char title[64];
    snprintf(title, sizeof title, "Zoo item, asked %d times", asked);
    standfit_item item = { STANDFIT_HEADER(standfit_item), ZOO_TYPE, title, NULL, NULL, NULL };
    return lifetime->add_until(sink, &item, strtoll(until, NULL, 10));
}

static int32_t provide(const standfit_item_sink *sink) {
    const char *fail = getenv("ZOO_PROVIDER_FAIL");
    if (fail != NULL && strcmp(fail, "crash") == 0) {
        int *volatile nowhere = NULL;
        *nowhere = 1;
    }
    if (fail != NULL) return 1;
    const char *until = getenv("ZOO_ITEM_UNTIL");
    if (until != NULL) return provide_until(sink, until);
    standfit_item item = { STANDFIT_HEADER(standfit_item), ZOO_TYPE, "Zoo item", NULL, NULL, NULL };
    return sink->add(sink, &item);
}

static const standfit_dynamic_provider provider = { STANDFIT_HEADER(standfit_dynamic_provider), provide };
#endif

#ifdef ZOO_SNOOP
#include <sys/prctl.h>
static const standfit_host *snoop_host;

/* "ok" or the error's name, for one attempt. */
static const char *outcome(int failed) {
    return failed ? (errno == EACCES ? "denied (EACCES)" : errno == EPERM ? "denied (EPERM)" : strerror(errno)) : "ok";
}

static int try_write(const char *path) {
    int fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600) : -1;
    if (fd < 0) return 1;
    (void)!write(fd, "x", 1);
    close(fd);
    return 0;
}
#endif

#if defined(ZOO_TRACE) || defined(ZOO_GROUP) || defined(ZOO_PRY) || defined(ZOO_NETWORK)
#include <stdarg.h>

/* Appends to `report`, which holds a string. */
static void say(char *report, size_t size, const char *format, ...) {
    size_t used = strlen(report);
    if (used + 1 >= size) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(report + used, size - used, format, arguments);
    va_end(arguments);
}

/* Appends "<what> <outcome>" to `report`: "allowed" when `result` is not -1, else the error
   `code` (the call's errno, taken at once). */
static void tell(char *report, size_t size, const char *what, long result, int code) {
    if (result != -1) say(report, size, "%s allowed", what);
    else if (code == EACCES || code == EPERM) say(report, size, "%s denied (%s)", what, code == EACCES ? "EACCES" : "EPERM");
    else say(report, size, "%s failed (%s)", what, strerror(code));
}
#endif

#ifdef ZOO_TRACE
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

/* Lets `target` go, had it been caught: this fixture tests each wall on its own, and a fallen
   one must not leave the host or the shell stopped. */
static void let_go(pid_t target) {
    ptrace(PTRACE_INTERRUPT, target, NULL, NULL);
    waitpid(target, NULL, __WALL);
    ptrace(PTRACE_DETACH, target, NULL, NULL);
}

/* Tries to trace process `target`, called `name`, and to read its memory; appends each outcome. */
static void pry_into(char *report, size_t size, const char *name, pid_t target) {
    say(report, size, "%s%s: ", report[0] ? "; " : "", name);
    long result = ptrace(PTRACE_ATTACH, target, NULL, NULL);
    tell(report, size, "ptrace attach", result, errno);
    if (result == 0) let_go(target);
    result = ptrace(PTRACE_SEIZE, target, NULL, NULL);
    tell(report, size, ", ptrace seize", result, errno);
    if (result == 0) let_go(target);
    char byte = 0;
    struct iovec local = { &byte, 1 }, remote = { report, 1 };
    result = syscall(SYS_process_vm_readv, target, &local, 1UL, &remote, 1UL, 0UL);
    tell(report, size, ", process_vm_readv", result, errno);
    char memory[64];
    snprintf(memory, sizeof memory, "/proc/%d/mem", (int)target);
    int fd = open(memory, O_RDONLY);
    tell(report, size, ", open /proc/PID/mem", fd, errno);
    if (fd >= 0) close(fd);
}
#endif

#ifdef ZOO_GROUP
#include <sys/wait.h>

/* Tries to leave the worker's process group every way there is, and appends each outcome and
   which group the process ended up in. */
static void leave_group(char *report, size_t size) {
    pid_t group = getpgrp();
    int result = setpgid(0, 0);
    tell(report, size, "setpgid(0, 0)", result, errno);
    say(report, size, ", %s", getpgrp() == group ? "group unchanged" : "a new group");
    int go[2], back[2];
    if (pipe(go) != 0 || pipe(back) != 0) {
        say(report, size, "; no pipe: %s", strerror(errno));
        return;
    }
    pid_t child = fork();
    if (child == 0) {
        /* Waits until the worker has tried to move it. */
        char byte, line[512] = "";
        close(go[1]);
        close(back[0]);
        (void)!read(go[0], &byte, 1);
        say(line, sizeof line, ", the child %s", getpgrp() == group ? "stays in the worker's group" : "left the worker's group");
        int own = setpgid(0, 0);
        tell(line, sizeof line, "; the child's setpgid(0, 0)", own, errno);
        say(line, sizeof line, ", it %s", getpgrp() == group ? "stays in the worker's group" : "left the worker's group");
        pid_t session = setsid();
        tell(line, sizeof line, "; the child's setsid", session, errno);
        (void)!write(back[1], line, strlen(line));
        _exit(0);
    }
    close(go[0]);
    close(back[1]);
    if (child < 0) {
        say(report, size, "; no child: %s", strerror(errno));
    } else {
        result = setpgid(child, child);
        tell(report, size, "; setpgid(child, child)", result, errno);
        (void)!write(go[1], "x", 1);
        char line[512];
        ssize_t count;
        while ((count = read(back[0], line, sizeof line - 1)) > 0) {
            line[count] = '\0';
            say(report, size, "%s", line);
        }
        waitpid(child, NULL, 0);
    }
    close(go[1]);
    close(back[0]);
}
#endif

#ifdef ZOO_PRY
static const standfit_host *pry_host;

/* Opens `path` with `flags` and reads or writes one byte; -1 with errno set when that failed. */
static int try_file(const char *path, int flags) {
    int fd = open(path, flags, 0600);
    if (fd < 0) return -1;
    char byte = 'x';
    ssize_t count = (flags & O_ACCMODE) == O_RDONLY ? read(fd, &byte, 1) : write(fd, &byte, 1);
    int code = errno;
    close(fd);
    errno = code;
    return count < 0 ? -1 : 0;
}

/* Tries another plugin's data and the host's files, then its own data; appends each outcome. */
static void pry_files(char *report, size_t size) {
    const char *data = pry_host->data_directory(pry_host);
    char other[1024], notes[1200], planted[1200], own[1200], state[1024], cache[1024], settings[1024];
    snprintf(other, sizeof other, "%s/../com.zoo.plain", data ? data : "/nonexistent");
    snprintf(notes, sizeof notes, "%s/notes", other);
    snprintf(planted, sizeof planted, "%s/planted", other);
    snprintf(own, sizeof own, "%s/pry", data ? data : "/nonexistent");
    snprintf(state, sizeof state, "%s/standfit/state.sqlite", getenv("XDG_DATA_HOME") ? getenv("XDG_DATA_HOME") : "/nonexistent");
    snprintf(cache, sizeof cache, "%s/standfit/registry.sqlite", getenv("XDG_CACHE_HOME") ? getenv("XDG_CACHE_HOME") : "/nonexistent");
    snprintf(settings, sizeof settings, "%s/standfit/config.json", getenv("XDG_CONFIG_HOME") ? getenv("XDG_CONFIG_HOME") : "/nonexistent");
    int result = try_file(notes, O_RDONLY);
    tell(report, size, "com.zoo.plain's notes: read", result, errno);
    result = try_file(notes, O_WRONLY | O_APPEND);
    tell(report, size, ", write", result, errno);
    DIR *listing = opendir(other);
    tell(report, size, "; com.zoo.plain's data directory: list", listing ? 0 : -1, errno);
    if (listing != NULL) closedir(listing);
    result = try_file(planted, O_WRONLY | O_CREAT | O_EXCL);
    tell(report, size, ", add a file", result, errno);
    result = try_file(state, O_RDONLY);
    tell(report, size, "; the host's state: read", result, errno);
    result = try_file(cache, O_RDONLY);
    tell(report, size, "; the host's registry cache: read", result, errno);
    result = try_file(settings, O_RDONLY);
    tell(report, size, "; the host's settings: read", result, errno);
    result = try_file(settings, O_WRONLY | O_APPEND);
    tell(report, size, ", write", result, errno);
    result = try_file(own, O_WRONLY | O_CREAT | O_TRUNC);
    tell(report, size, "; its own data directory: write", result, errno);
    result = try_file(own, O_RDONLY);
    tell(report, size, ", read", result, errno);
}
#endif

#ifdef ZOO_NETWORK
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* Makes a TCP connection over the loopback interface and sends one byte across; then tries a
   Unix socket. Appends each outcome. */
static void use_network(char *report, size_t size) {
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    tell(report, size, "TCP socket:", listener, errno);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t length = sizeof address;
    int result = bind(listener, (struct sockaddr *)&address, sizeof address);
    tell(report, size, "; bind to 127.0.0.1:0:", result, errno);
    result = listen(listener, 1);
    tell(report, size, "; listen:", result, errno);
    result = getsockname(listener, (struct sockaddr *)&address, &length);
    int client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    result = result == 0 && client >= 0 ? connect(client, (struct sockaddr *)&address, sizeof address) : -1;
    tell(report, size, "; connect to it:", result, errno);
    int server = accept(listener, NULL, NULL);
    tell(report, size, "; accept:", server, errno);
    char byte = 0;
    result = send(client, "x", 1, 0) == 1 && recv(server, &byte, 1, 0) == 1 && byte == 'x' ? 0 : -1;
    tell(report, size, "; a byte sent and received:", result, errno);
    if (server >= 0) close(server);
    if (client >= 0) close(client);
    if (listener >= 0) close(listener);
    int local = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    tell(report, size, "; Unix socket:", local, errno);
    if (local >= 0) close(local);
}
#endif

#if defined(ZOO_ESCAPE) || defined(ZOO_ESCAPE_INIT)
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static const char *attempt(int failed) {
    return failed ? (errno == EACCES ? "denied (EACCES)" : errno == EPERM ? "denied (EPERM)" : strerror(errno)) : "allowed";
}

/* Tries each way out and writes what happened into `report`. */
static void escape(char *report, size_t size) {
    int unix_socket = socket(AF_UNIX, SOCK_STREAM, 0);
    char socket_outcome[64];
    snprintf(socket_outcome, sizeof socket_outcome, "%s", attempt(unix_socket < 0));
    if (unix_socket >= 0) close(unix_socket);
    char ring_parameters[120] = { 0 };
    long ring = syscall(SYS_io_uring_setup, 1, ring_parameters);
    char ring_outcome[64];
    snprintf(ring_outcome, sizeof ring_outcome, "%s", attempt(ring < 0));
    if (ring >= 0) close((int)ring);
    char reaper_outcome[64];
    snprintf(reaper_outcome, sizeof reaper_outcome, "%s", attempt(prctl(PR_SET_CHILD_SUBREAPER, 0) != 0));
    char dumpable_outcome[64];
    snprintf(dumpable_outcome, sizeof dumpable_outcome, "%s", attempt(prctl(PR_SET_DUMPABLE, 0) != 0));
    /* Not left hidden: this fixture tests each wall on its own. */
    prctl(PR_SET_DUMPABLE, 1);
    char last[512] = "", line[512];
    int status = -1;
    const char *command = getenv("ZOO_HOST_COMMAND");
    FILE *host = command ? popen(command, "r") : NULL;
    if (host != NULL) {
        while (fgets(line, sizeof line, host) != NULL) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(last, sizeof last, "%s", line);
        }
        status = pclose(host);
    }
    char descriptor_outcome[64];
    snprintf(descriptor_outcome, sizeof descriptor_outcome, "%s", write(7, "x", 1) < 0 ? strerror(errno) : "written");
    char host_outcome[600];
    /* popen's errno says little (glibc gives ENOMEM for a shell the kernel refused to run). */
    if (command != NULL && host == NULL) snprintf(host_outcome, sizeof host_outcome, "the shell did not start");
    else snprintf(host_outcome, sizeof host_outcome, "exit %d: %s", status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1, last);
    snprintf(report, size, "descriptor 7: %s; unix socket: %s; io_uring: %s; stop reaping: %s; undumpable: %s; host command: %s",
             descriptor_outcome, socket_outcome, ring_outcome, reaper_outcome, dumpable_outcome, host_outcome);
}
#endif

#ifdef ZOO_EXEC
#include <spawn.h>
#include <sys/wait.h>
extern char **environ;

/* Starts `path` and says how that went. */
static void start(const char *path, char *outcome, size_t size) {
    char *arguments[] = { (char *)path, NULL };
    pid_t child;
    int error = posix_spawn(&child, path, NULL, NULL, arguments, environ);
    if (error != 0) {
        snprintf(outcome, size, "%s", error == EACCES ? "denied (EACCES)" : strerror(error));
        return;
    }
    int status = 0;
    waitpid(child, &status, 0);
    snprintf(outcome, size, "exit %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* Copies /bin/true to `target`, executable. */
static int copy_true(const char *target) {
    int from = open("/bin/true", O_RDONLY), to = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0700);
    char buffer[65536];
    ssize_t count;
    while (from >= 0 && to >= 0 && (count = read(from, buffer, sizeof buffer)) > 0) (void)!write(to, buffer, (size_t)count);
    int ok = from >= 0 && to >= 0;
    if (from >= 0) close(from);
    if (to >= 0) close(to);
    return ok;
}
static char declared[160] = "nothing declared";
#endif

#ifdef ZOO_LATE_REGISTER
/* The host table is valid for the life of the process, so keeping it is allowed; using it to
   register from a handler is not. */
static const standfit_host *kept_host;
#endif

static int32_t run(const standfit_invocation *ctx) {
#ifdef ZOO_HANDLER_FAULT
    fault(ZOO_HANDLER_FAULT);
#endif
#if defined(ZOO_LATE_REGISTER)
    static const standfit_action late = { STANDFIT_HEADER(standfit_action), "com.zoo." ZOO_ID ".late",
                                          "Late " ZOO_ID, NULL, NULL, NULL, 0, STANDFIT_HANDLER(run) };
    char message[128];
    snprintf(message, sizeof message, "register_action after init returned %d",
             (int)kept_host->register_action(kept_host, &late));
    ctx->set_message(ctx, message);
    return STANDFIT_STATUS_HANDLED;
#elif defined(ZOO_BAD_STATUS)
    (void)ctx;
    return 42;
#elif defined(ZOO_BAD_UTF8)
    ctx->set_message(ctx, "\xff\xfe not UTF-8");
    return STANDFIT_STATUS_HANDLED;
#elif defined(ZOO_BIG_MESSAGE)
    size_t size = ZOO_BIG_MESSAGE;
    if (getenv("ZOO_BIG_MESSAGE") != NULL) size = (size_t)strtoull(getenv("ZOO_BIG_MESSAGE"), NULL, 10);
    char *message = malloc(size + 1);
    memset(message, 'x', size);
    message[size] = '\0';
    ctx->set_message(ctx, message);
    free(message);
    return STANDFIT_STATUS_HANDLED;
#else
#ifdef ZOO_STDOUT
    printf("zoo noise on stdout in the handler\n");
    fflush(stdout);
#endif
#ifdef ZOO_KILL_GROUP
    kill(0, SIGTERM);
    sleep(1);
#endif
#ifdef ZOO_FORK_HANDLER
    fork_holder();
#endif
#ifdef ZOO_ESCAPES
    ctx->set_message(ctx, "zoo \x1b[31mred\x1b[0m\rran \xc2\x9b" "2J");
#elif defined(ZOO_DEEP_JSON)
    enum { depth = 100000 };
    char *json = malloc(2 * depth + 1);
    memset(json, '[', depth);
    memset(json + depth, ']', depth);
    json[2 * depth] = '\0';
    ctx->set_data_json(ctx, json);
    free(json);
    ctx->set_message(ctx, "zoo " ZOO_ID " ran");
#elif defined(ZOO_ESCAPE)
    char report[1024];
    escape(report, sizeof report);
    ctx->set_message(ctx, report);
#elif defined(ZOO_ENV_IN_PLACE)
    char *value = getenv("ZOO_IN_PLACE");
    char message[256];
    snprintf(message, sizeof message, "ZOO_IN_PLACE was %s", value ? value : "unset");
    if (value != NULL && value[0] != '\0') value[0] = 'X';
    ctx->set_message(ctx, message);
#elif defined(ZOO_SLOW)
    usleep(300 * 1000);
    ctx->set_message(ctx, "zoo " ZOO_ID " ran");
#elif defined(ZOO_STRAY_ANSWER)
    static const char stray[] = "{\"reply\":{\"status\":0,\"message\":\"an answer the host never asked for\"},\"provided\":{}}\n";
    (void)!write(3, stray, sizeof stray - 1);
    ctx->set_message(ctx, "zoo " ZOO_ID " ran");
#elif defined(ZOO_EXEC)
    char copy[1024], first[64], second[64], third[64], message[1024];
    snprintf(copy, sizeof copy, "%s/true", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    start("/bin/true", first, sizeof first);
    start("/bin/echo", second, sizeof second);
    if (copy_true(copy)) start(copy, third, sizeof third); else snprintf(third, sizeof third, "not written");
    snprintf(message, sizeof message, "%s; /bin/true: %s; /bin/echo: %s; a copy in TMPDIR: %s", declared, first, second, third);
    ctx->set_message(ctx, message);
#elif defined(ZOO_TEMP_FILE)
    char listing[512] = "";
    const char *temporary = getenv("TMPDIR");
    DIR *directory = temporary ? opendir(temporary) : NULL;
    if (directory != NULL) {
        struct dirent *entry;
        while ((entry = readdir(directory)) != NULL) {
            if (entry->d_name[0] == '.') continue;
            strncat(listing, " ", sizeof listing - strlen(listing) - 1);
            strncat(listing, entry->d_name, sizeof listing - strlen(listing) - 1);
        }
        closedir(directory);
    }
    char kept[1024] = "";
    snprintf(kept, sizeof kept, "%s/zoo-XXXXXX", temporary ? temporary : "/nonexistent");
    int scratch = mkstemp(kept);
    char message[1024];
    snprintf(message, sizeof message, "TMPDIR %s; mkstemp: %s; held before:%s", temporary ? "set" : "unset",
             scratch >= 0 ? "ok" : strerror(errno), listing[0] ? listing : " nothing");
    if (scratch >= 0) close(scratch);
    ctx->set_message(ctx, message);
#elif defined(ZOO_TRACE)
    char report[1024] = "";
    pry_into(report, sizeof report, "the host", getppid());
    const char *shell = getenv("ZOO_SHELL");
    if (shell != NULL) pry_into(report, sizeof report, "the shell", (pid_t)atoi(shell));
    ctx->set_message(ctx, report);
#elif defined(ZOO_GROUP)
    char report[1024] = "";
    leave_group(report, sizeof report);
    ctx->set_message(ctx, report);
#elif defined(ZOO_PRY)
    char report[1024] = "";
    pry_files(report, sizeof report);
    ctx->set_message(ctx, report);
#elif defined(ZOO_NETWORK)
    char report[1024] = "";
    use_network(report, sizeof report);
    ctx->set_message(ctx, report);
#elif defined(ZOO_LOUD)
    for (int line = 1; line <= ZOO_LOUD; line++) {
        /* One write(2) of 1 KiB, less than PIPE_BUF: never cut, never mixed with another. */
        char text[1024];
        int length = snprintf(text, sizeof text, "zoo loud line %03d on %s ", line, line % 2 ? "stdout" : "stderr");
        memset(text + length, '.', sizeof text - 1 - (size_t)length);
        text[sizeof text - 1] = '\n';
        (void)!write(line % 2 ? STDOUT_FILENO : STDERR_FILENO, text, sizeof text);
    }
    ctx->set_message(ctx, "zoo " ZOO_ID " ran");
#elif defined(ZOO_SNOOP)
    char report[2048], data_file[1024], temp_file[1024];
    const char *data = snoop_host->data_directory(snoop_host);
    snprintf(data_file, sizeof data_file, "%s/snoop", data ? data : "/nonexistent");
    snprintf(temp_file, sizeof temp_file, "%s/snoop", getenv("TMPDIR") ? getenv("TMPDIR") : "/nonexistent");
    const char *secret = getenv("ZOO_SECRET");
    int fd = secret ? open(secret, O_RDONLY) : -1;
    const char *read_secret = outcome(fd < 0);
    if (fd >= 0) close(fd);
    char r1[64], r2[64], r3[64], r4[64], r5[64], r6[64], r7[64];
    snprintf(r1, sizeof r1, "%s", read_secret);
    snprintf(r2, sizeof r2, "%s", outcome(try_write(getenv("ZOO_TARGET"))));
    snprintf(r3, sizeof r3, "%s", outcome(kill(getppid(), SIGTERM) != 0));
    snprintf(r4, sizeof r4, "%s", outcome(setsid() < 0));
    snprintf(r5, sizeof r5, "%s", outcome(prctl(PR_SET_PDEATHSIG, 0) != 0));
    snprintf(r6, sizeof r6, "%s", outcome(try_write(data_file)));
    snprintf(r7, sizeof r7, "%s", outcome(try_write(temp_file)));
    snprintf(report, sizeof report, "read secret: %s; write target: %s; signal host: %s; setsid: %s; "
             "clear parent-death signal: %s; write data directory: %s; write TMPDIR: %s", r1, r2, r3, r4, r5, r6, r7);
    ctx->set_message(ctx, report);
#else
    ctx->set_message(ctx, "zoo " ZOO_ID " ran");
#endif
    return STANDFIT_STATUS_HANDLED;
#endif
}

#ifdef ZOO_SLOPPY
static const standfit_action action = { STANDFIT_HEADER(standfit_action), "com.zoo." ZOO_ID ".run",
                                        "Run the sloppy zoo plugin's only action", NULL, "no.such.icon",
                                        NULL, 0, STANDFIT_HANDLER(run) };
#else
static const standfit_action action = { STANDFIT_HEADER(standfit_action), ZOO_TYPE,
                                        ZOO_TITLE, ZOO_SUBTITLE, NULL, NULL, 0, STANDFIT_HANDLER(run) };
#endif

static int32_t init(const standfit_host *host) {
#ifdef ZOO_INIT_FAULT
    fault(ZOO_INIT_FAULT);
#endif
#ifdef ZOO_LATE_REGISTER
    kept_host = host;
#endif
#ifdef ZOO_SNOOP
    snoop_host = host;
#endif
#ifdef ZOO_PRY
    pry_host = host;
#endif
#ifdef ZOO_SLOPPY
    usleep(150 * 1000);
#endif
#if defined(ZOO_EXEC) && defined(ZOO_DECLARE)
    const standfit_programs_ext *programs = host->get_extension(host, STANDFIT_EXT_PROGRAMS);
    if (programs != NULL) {
        int32_t answer = programs->declare_program(host, ZOO_DECLARE);
#ifdef ZOO_DECLARE_BAD
        int32_t bad = programs->declare_program(host, "relative/true");
        snprintf(declared, sizeof declared, "declared %s: %d, relative/true: %d", ZOO_DECLARE, (int)answer, (int)bad);
#else
        snprintf(declared, sizeof declared, "declared %s: %d", ZOO_DECLARE, (int)answer);
#endif
    }
#endif
#ifdef ZOO_ESCAPE_INIT
    char report[1024];
    escape(report, sizeof report);
    fprintf(stderr, "zoo escape in init: %s\n", report);
    fflush(stderr);
#endif
#ifdef ZOO_STDOUT
    printf("zoo noise on stdout during init\n");
    fflush(stdout);
#endif
#ifdef ZOO_FORGE_GARBAGE
    forge("{\"begin\":99}\n");
#endif
#ifdef ZOO_FORGE_RECORD
    forge("{\"loaded\":{\"_0\":{\"id\":\"" ZOO_PLUGIN_ID "\",\"name\":\"Forged\",\"version\":\"1\",\"abiMajor\":1,"
          "\"abiMinor\":0,\"actions\":[{\"type\":\"com.zoo.forged\\n$(touch /tmp/forged)\",\"title\":\"Forged\","
          "\"parameters\":[],\"phrases\":[],\"suggestible\":true}],\"staticItems\":[],\"hasProvider\":false,\"entities\":[],"
          "\"warnings\":[],\"initMilliseconds\":0,\"programs\":[]}}}\n");
#endif
#ifdef ZOO_KILL_PARENT
    if (kill(getppid(), SIGKILL) == 0) sleep(1);
#endif
#ifdef ZOO_KILL_HOST
    const char *mark = getenv("ZOO_MARK");
    if (mark != NULL && access(mark, F_OK) != 0 && getenv("STANDFIT_HELPER_PARENT") != NULL) {
        FILE *out = fopen(mark, "w");
        if (out != NULL) fclose(out);
        if (kill((pid_t)atoi(getenv("STANDFIT_HELPER_PARENT")), SIGKILL) == 0) sleep(1);
    }
#endif
#ifdef ZOO_FORK_INIT
    fork_holder();
#endif
#ifdef ZOO_PROVIDER
    provider_host = host;
    host->register_dynamic_provider(host, &provider);
#endif
#ifdef ZOO_ESCAPES
    static const standfit_item item = { STANDFIT_HEADER(standfit_item), ZOO_TYPE, ZOO_TITLE, ZOO_SUBTITLE, NULL, NULL };
    host->register_static_item(host, &item);
#endif
    host->register_action(host, &action);
#ifdef ZOO_PHRASES
    const standfit_intents_ext *intents = host->get_extension(host, STANDFIT_EXT_INTENTS);
    if (intents != NULL) {
        static const char *const phrases[] = {ZOO_PHRASES};
        for (size_t i = 0; i < sizeof phrases / sizeof phrases[0]; i++) intents->register_phrase(host, ZOO_TYPE, NULL, phrases[i]);
    }
#endif
    return STANDFIT_OK;
}

#ifdef ZOO_DATA_ENTRY
/* The mistake of exporting the table instead of a function returning it: dlsym finds the symbol,
   and calling it jumps into read-only data. */
STANDFIT_EXPORT const standfit_plugin_entry standfit_plugin_entry_v1 = {
    STANDFIT_HEADER(standfit_plugin_entry), ZOO_PLUGIN_ID, ZOO_NAME, "0.1.0", init, NULL,
};
#else
static const standfit_plugin_entry entry = {
    STANDFIT_HEADER(standfit_plugin_entry), ZOO_PLUGIN_ID, ZOO_NAME, "0.1.0", init, NULL,
};

STANDFIT_EXPORT const standfit_plugin_entry *standfit_plugin_entry_v1(void) {
#ifdef ZOO_NULL_ENTRY
    (void)entry; /* a complete table exists; the entry refuses to hand it over anyway */
    return NULL;
#else
    return &entry;
#endif
}
#endif
