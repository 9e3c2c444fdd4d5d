#define _GNU_SOURCE
#include "standfit_warm_wire.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define STANDFIT_WIRE_MAX_FDS 8

int standfit_wire_send(int socket_fd, const void *data, size_t length, const int *fds, int fd_count) {
    const char *bytes = data;
    size_t sent = 0;
    if (fd_count < 0 || fd_count > STANDFIT_WIRE_MAX_FDS) { errno = EINVAL; return -1; }
    while (sent < length) {
        struct iovec io = { .iov_base = (void *)(bytes + sent), .iov_len = length - sent };
        struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1 };
        union {
            struct cmsghdr header;
            char space[CMSG_SPACE(sizeof(int) * STANDFIT_WIRE_MAX_FDS)];
        } control;
        if (sent == 0 && fd_count > 0) {
            memset(&control, 0, sizeof control);
            message.msg_control = control.space;
            message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)fd_count);
            struct cmsghdr *header = CMSG_FIRSTHDR(&message);
            header->cmsg_level = SOL_SOCKET;
            header->cmsg_type = SCM_RIGHTS;
            header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)fd_count);
            memcpy(CMSG_DATA(header), fds, sizeof(int) * (size_t)fd_count);
        }
        ssize_t count = sendmsg(socket_fd, &message, MSG_NOSIGNAL);
        if (count < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        sent += (size_t)count;
    }
    return 0;
}

ssize_t standfit_wire_receive(int socket_fd, void *buffer, size_t capacity, int *fds, int max_fds, int *fd_count) {
    struct iovec io = { .iov_base = buffer, .iov_len = capacity };
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int) * STANDFIT_WIRE_MAX_FDS)];
    } control;
    struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1,
                              .msg_control = control.space, .msg_controllen = sizeof control.space };
    *fd_count = 0;
    ssize_t count;
    do {
        count = recvmsg(socket_fd, &message, MSG_CMSG_CLOEXEC);
    } while (count < 0 && errno == EINTR);
    if (count < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t n = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int received[STANDFIT_WIRE_MAX_FDS];
        if (n > STANDFIT_WIRE_MAX_FDS) n = STANDFIT_WIRE_MAX_FDS;
        memcpy(received, CMSG_DATA(header), n * sizeof(int));
        for (size_t i = 0; i < n; i++) {
            if (*fd_count < max_fds) fds[(*fd_count)++] = received[i];
            else close(received[i]);
        }
    }
    return count;
}

int standfit_wire_peer(int socket_fd, uid_t *uid, pid_t *pid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(socket_fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    *pid = credentials.pid;
    return 0;
}

int standfit_wire_peer_groups(int socket_fd, gid_t *gid, gid_t *groups, int capacity) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(socket_fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *gid = credentials.gid;
    socklen_t size = (socklen_t)(capacity * (int)sizeof(gid_t));
    if (getsockopt(socket_fd, SOL_SOCKET, SO_PEERGROUPS, groups, &size) != 0) return -1;
    return (int)(size / sizeof(gid_t));
}

/* Between fork and exec only async-signal-safe calls: the caller may have threads. */
pid_t standfit_wire_spawn_daemon(const char *path, char *const argv[], char *const envp[]) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    pid_t middle = fork();
    if (middle < 0) {
        int saved = errno;
        close(report[0]); close(report[1]);
        errno = saved;
        return -1;
    }
    if (middle == 0) {
        if (setsid() < 0) _exit(127);
        pid_t daemon = fork();
        if (daemon < 0) _exit(127);
        if (daemon > 0) {
            (void)!write(report[1], &daemon, sizeof daemon);
            _exit(0);
        }
        int null = open("/dev/null", O_RDWR);
        if (null < 0) _exit(127);
        dup2(null, 0); dup2(null, 1); dup2(null, 2);
        /* Every inherited descriptor above 2 is closed: the caller's pipes must not stay open. */
        if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
            for (int fd = 3; fd < 4096; fd++) close(fd);
        }
        if (chdir("/") != 0) _exit(127);
        execve(path, argv, envp);
        _exit(127);
    }
    close(report[1]);
    pid_t daemon = -1;
    ssize_t got;
    do { got = read(report[0], &daemon, sizeof daemon); } while (got < 0 && errno == EINTR);
    close(report[0]);
    int status;
    while (waitpid(middle, &status, 0) < 0 && errno == EINTR) {}
    if (got != (ssize_t)sizeof daemon) { errno = ECHILD; return -1; }
    return daemon;
}

int standfit_wire_accept(int listener) {
    int connection;
    do {
        connection = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    } while (connection < 0 && errno == EINTR);
    return connection;
}

int standfit_wire_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
}
