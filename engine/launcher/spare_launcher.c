/*
 * A forked spare's launcher, compiled: `spare-launcher SOCKET -- FALLBACK...` (docs/compute.md, "The
 * engine fork server"). The same protocol as fieldline_engine/spare_launcher.py, in ≈ 1 ms of CPU instead
 * of a Python interpreter's ≈ 20–30 ms per job.
 *
 * The server spawns this as a job's engine process (its own process group, pipes on fds 0–2), so it keeps
 * a real child to signal and wait on. It connects to the fork server's Unix socket and passes its stdin,
 * stdout and stderr with SCM_RIGHTS ("spawn"); the fork server forks a warmed-up child onto them and answers
 * "pid N". From then on only the child holds the job's pipes (fds 0–2 here go to /dev/null), and this
 * process ends exactly as the child ends: "exit CODE" → the same exit code, "signal N" → killed by the same
 * signal. Killing this process's group (timeout, cancel, shutdown) closes the connection, on which the
 * fork server kills the child's group at once; the child also watches this process's pidfd.
 *
 * When the fork server cannot be reached (not started yet, dead, restarting) or goes away before it
 * forked, this process execs FALLBACK (the server passes `[unshare -n] python -m fieldline_engine standby`:
 * a full standby process, the same protocol on the same pipes), so a job never fails because of the fork
 * server. When the fork server goes away after it forked, the exit status went with it: this process waits
 * for the child to end and exits 1 (the server judges the job by its final protocol line).
 *
 * Built by scripts/build-launcher.mjs (`npm start`, `npm test`, the Dockerfile) into
 * engine/launcher/build/spare-launcher-<hash of this file>; without a C compiler the server uses the Python
 * launcher. Linux only (pidfd_open, SCM_RIGHTS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434 /* the same number on every architecture (Linux 5.3) */
#endif

static char **fallback;

/* Become a full standby process on the same pipes; never returns. */
static void become_standby(void) {
  if (fallback == NULL || fallback[0] == NULL) {
    fputs("spare-launcher: no fork server and no fallback command\n", stderr);
    _exit(127);
  }
  execvp(fallback[0], fallback);
  fprintf(stderr, "spare-launcher: cannot exec %s: %s\n", fallback[0], strerror(errno));
  _exit(127);
}

static int connect_to(const char *path) {
  struct sockaddr_un addr;
  size_t len = strlen(path);
  if (len == 0 || len >= sizeof(addr.sun_path)) return -1;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  memset(&addr, 0, sizeof(addr));
  addr.sun_family = AF_UNIX;
  memcpy(addr.sun_path, path, len);
  int rc;
  do rc = connect(fd, (struct sockaddr *)&addr, sizeof(addr));
  while (rc < 0 && errno == EINTR);
  if (rc < 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/* "spawn" with fds 0, 1, 2 in one message (the fork server reads it with one recvmsg). */
static int send_spawn(int conn) {
  int fds[3] = {0, 1, 2};
  char control[CMSG_SPACE(sizeof(fds))];
  memset(control, 0, sizeof(control));
  struct iovec iov = {.iov_base = "spawn", .iov_len = 5};
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
                       .msg_controllen = sizeof(control)};
  struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN(sizeof(fds));
  memcpy(CMSG_DATA(cmsg), fds, sizeof(fds));
  ssize_t sent;
  do sent = sendmsg(conn, &msg, MSG_NOSIGNAL); /* EPIPE, not SIGPIPE, if the fork server is gone */
  while (sent < 0 && errno == EINTR);
  return sent == 5 ? 0 : -1;
}

/* Lines from the connection; bytes after a line's newline are kept for the next one. */
static char pending[256];
static size_t pending_len;

/* The next line without its newline into `line`, or -1 at end of file, on an error or an overlong line. */
static int read_line(int conn, char *line, size_t size) {
  for (;;) {
    char *newline = memchr(pending, '\n', pending_len);
    if (newline != NULL) {
      size_t n = (size_t)(newline - pending);
      if (n >= size) return -1;
      memcpy(line, pending, n);
      line[n] = '\0';
      pending_len -= n + 1;
      memmove(pending, newline + 1, pending_len);
      return 0;
    }
    if (pending_len == sizeof(pending)) return -1;
    ssize_t got = read(conn, pending + pending_len, sizeof(pending) - pending_len);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    pending_len += (size_t)got;
  }
}

/* A decimal number after `prefix`, or -1. */
static long number_after(const char *line, const char *prefix) {
  size_t n = strlen(prefix);
  if (strncmp(line, prefix, n) != 0 || line[n] == '\0') return -1;
  char *end;
  errno = 0;
  long value = strtol(line + n, &end, 10);
  if (errno != 0 || *end != '\0' || value < 0) return -1;
  return value;
}

/* The fork server ended before the child: wait for the child (it runs its job to the end), exit 1. */
static void outlive(pid_t child) {
  int pidfd = (int)syscall(SYS_pidfd_open, child, 0);
  if (pidfd < 0) _exit(1);
  struct pollfd watch = {.fd = pidfd, .events = POLLIN};
  while (poll(&watch, 1, -1) < 0 && errno == EINTR) {
  }
  _exit(1);
}

/* Exit as the child did: its code, or killed by its signal (anything unreadable: SIGKILL). */
static void end_like(const char *report) {
  long code = number_after(report, "exit ");
  if (code >= 0) _exit((int)(code & 0xff));
  long sig = number_after(report, "signal ");
  if (sig <= 0 || sig >= NSIG) sig = SIGKILL;
  signal((int)sig, SIG_DFL);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, (int)sig);
  sigprocmask(SIG_UNBLOCK, &only, NULL);
  kill(getpid(), (int)sig);
  _exit(128 + (int)sig); /* a signal whose default is to be ignored */
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs("usage: spare-launcher SOCKET [-- FALLBACK...]\n", stderr);
    return 2;
  }
  if (argc > 3 && strcmp(argv[2], "--") == 0) fallback = argv + 3;
  int conn = connect_to(argv[1]);
  if (conn < 0) become_standby();
  char first[64];
  if (send_spawn(conn) < 0 || read_line(conn, first, sizeof(first)) < 0) {
    close(conn);
    become_standby(); /* gone before forking: this process still holds the job's pipes */
  }
  long child = number_after(first, "pid ");
  if (child <= 0) {
    close(conn);
    become_standby();
  }
  /* Only the child holds the job's pipes now: the server sees their end when the job's process ends. */
  int devnull = open("/dev/null", O_RDWR);
  if (devnull >= 0) {
    for (int fd = 0; fd <= 2; fd++) dup2(devnull, fd);
    if (devnull > 2) close(devnull);
  }
  char report[64];
  if (read_line(conn, report, sizeof(report)) < 0) outlive((pid_t)child);
  end_like(report);
  return 1;
}
