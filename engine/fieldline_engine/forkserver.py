"""`python -m fieldline_engine forkserver --socket PATH`: one warmed-up engine process that forks a ready
standby spare per job (the zygote approach; docs/compute.md "Fork server").

A standby process (standby.py) spares a job the ≈ 0.5 s of imports and warm-up, but every spare still
burns that CPU (≈ 1 CPU-second and 170 MB each) on the same cores the jobs run on. The fork server pays it
once per server or worker: it imports and warms up (core/warm_up.py), listens on a Unix socket in the
server's private 0700 directory and says {"event":"ready"}. A spare is still a process the server spawns
(the compiled launcher engine/launcher/spare_launcher.c, or spare_launcher.py where none is built), so the
server keeps a real child with its own process group, exit code and pipes: the launcher passes its
stdin/stdout/stderr over the socket (SCM_RIGHTS), the fork server forks a child onto them, and the launcher exits with the child's status, which the fork server
sends back. The child behaves exactly as a standby process after its warm-up: {"event":"ready"}, one job
line on stdin, its memory limit and environment, the job.

Wire protocol on one connection (lines, ASCII): the launcher sends b"spawn" with its fds 0, 1, 2; the fork
server answers "pid N" once the child exists, then "exit CODE" or "signal NUM" when it has ended. End of
file from the launcher (the server killed its process group: timeout, cancel, shutdown) kills the child's
process group at once.

Fork safety: the fork server runs no thread besides the main one when it forks (checked before each fork
through /proc/self/task; the server starts the engine with OMP_NUM_THREADS=OPENBLAS_NUM_THREADS=1, the
warm-up starts no NGSolve TaskManager, and the server-pid watch here is a select() timeout, not a thread),
so no lock can be held by a thread that does not exist in the child. It is single-threaded and forks from
its event loop, not from inside any library call. Each child restarts what it needs: the watch (its
launcher's pidfd and the server's pid, instead of the parent watch: its parent is the fork server, whose
end must not end a job under way), NumPy's global random state (Python's `random` reseeds itself at fork).
"""

import contextlib
import gc
import os
import selectors
import signal
import socket
import struct
import sys

from fieldline_engine import protocol

_LISTEN_BACKLOG = 64
_WATCH_SECONDS = 0.5


class ForkSafetyError(RuntimeError):
    pass


def serve(socket_path: str, run_command) -> int:
    """Warm up, listen, fork a spare per connection until the server that started us is gone."""
    server_pid = _server_pid()
    try:
        return _serve(socket_path, run_command, server_pid)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(socket_path)
        # The directory is the server's (it made it, and restarts a fork server in it): removed here only once
        # the server is gone — it would have removed it itself, unless it was killed — on every way out,
        # including the server dying before we were ready.
        if server_pid is None or os.getppid() != server_pid:
            with contextlib.suppress(OSError):
                os.rmdir(os.path.dirname(os.path.abspath(socket_path)))


def _serve(socket_path: str, run_command, server_pid: int | None) -> int:
    from fieldline_engine.standby import warm

    if server_pid is not None and os.getppid() != server_pid:
        return 137  # the server that started us is gone already
    if not warm():
        return 3
    check_single_threaded()
    gc.collect()
    gc.freeze()  # the warm-up's objects stay out of the children's collections: fewer pages copied on write
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    os.chmod(socket_path, 0o600)
    listener.listen(_LISTEN_BACKLOG)
    server = _ForkServer(listener, run_command)
    protocol.ready()
    return server.loop()


def check_single_threaded() -> None:
    threads = os.listdir("/proc/self/task")
    if len(threads) != 1:
        raise ForkSafetyError(f"the fork server must fork with one thread, it has {len(threads)}")


class _ForkServer:
    def __init__(self, listener: socket.socket, run_command):
        self.listener = listener
        self.run_command = run_command
        self.selector = selectors.DefaultSelector()
        self.selector.register(listener, selectors.EVENT_READ, ("accept", None))
        # child pid → its launcher's connection (None once the launcher is gone) and its pidfd
        self.children: dict[int, tuple[socket.socket | None, int]] = {}
        # Watched from the event loop, not by limits.py's thread: the fork server forks with one thread.
        self.server_pid = _server_pid()

    def loop(self) -> int:
        while True:
            if self.server_pid is not None and os.getppid() != self.server_pid:
                self._kill_all()
                return 137
            for key, _events in self.selector.select(timeout=_WATCH_SECONDS):
                kind, pid = key.data
                if kind == "accept":
                    self._accept()
                elif kind == "launcher":
                    self._launcher_readable(pid)
                else:
                    self._reap(pid)

    def _accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        try:
            conn.settimeout(5.0)
            message, fds, _flags, _addr = socket.recv_fds(conn, 16, 3)
        except OSError:
            conn.close()
            return
        if message != b"spawn" or len(fds) != 3:
            for fd in fds:
                os.close(fd)
            conn.close()
            return
        launcher = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[0]
        check_single_threaded()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            self._become_spare(conn, fds, launcher)  # never returns
        for fd in fds:
            os.close(fd)
        # Here too, so a kill right after the fork cannot miss the child's group (an error: it did so already).
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)
        pidfd = os.pidfd_open(pid)
        conn.setblocking(True)
        self.children[pid] = (conn, pidfd)
        self.selector.register(pidfd, selectors.EVENT_READ, ("exit", pid))
        try:
            conn.sendall(f"pid {pid}\n".encode())
        except OSError:
            self._launcher_gone(pid)
            return
        self.selector.register(conn, selectors.EVENT_READ, ("launcher", pid))

    def _launcher_readable(self, pid: int) -> None:
        conn, _pidfd = self.children[pid]
        try:
            data = conn.recv(64) if conn else b""
        except OSError:
            data = b""
        if not data:
            self._launcher_gone(pid)

    def _launcher_gone(self, pid: int) -> None:
        """The server killed the launcher's process group (timeout, cancel, shutdown): the job's too."""
        conn, pidfd = self.children[pid]
        if conn is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(conn)
            conn.close()
            self.children[pid] = (None, pidfd)
        _kill_group(pid)

    def _reap(self, pid: int) -> None:
        conn, pidfd = self.children.pop(pid)
        self.selector.unregister(pidfd)
        os.close(pidfd)
        _, status = os.waitpid(pid, 0)
        if conn is None:
            return
        self.selector.unregister(conn)
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        report = f"signal {sig}\n" if sig is not None else f"exit {os.waitstatus_to_exitcode(status)}\n"
        with contextlib.suppress(OSError):
            conn.sendall(report.encode())
        conn.close()

    def _kill_all(self) -> None:
        for pid in self.children:
            _kill_group(pid)

    def _become_spare(self, conn: socket.socket, fds: list[int], launcher: int) -> None:
        """In the forked child: leave the fork server behind and be a standby process after its warm-up."""
        code = 1
        try:
            os.setpgid(0, 0)  # the server's kills reach it through the fork server, by this group
            self.selector.close()
            self.listener.close()
            conn.close()
            for other_conn, pidfd in self.children.values():
                if other_conn is not None:
                    other_conn.close()
                os.close(pidfd)
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
                os.close(fd)
            protocol.rebind_after_fork()
            _reseed()
            from fieldline_engine.standby import run_one

            _watch_launcher_and_server(launcher, self.server_pid)
            code = run_one(self.run_command)
        except BaseException:  # noqa: BLE001 - a child never returns into the fork server's loop
            import traceback

            traceback.print_exc(file=sys.stderr)
        finally:
            _exit(code)


def _watch_launcher_and_server(launcher: int, server: int | None) -> None:
    """A forked spare exits (137) when its launcher ends (the server killed its group) or the server is
    gone — not when the fork server is: a job under way outlives it, and the fork server also kills the
    spare's group when its launcher goes, which reaches what the job itself started."""
    import select
    import threading

    try:
        launcher_fd = os.pidfd_open(launcher)
    except OSError:
        os._exit(137)
    poller = select.poll()
    poller.register(launcher_fd, select.POLLIN)

    def server_alive() -> bool:
        if server is None:
            return True
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def watch() -> None:
        while not poller.poll(_WATCH_SECONDS * 1000) and server_alive():
            pass
        os._exit(137)

    threading.Thread(target=watch, name="launcher-watch", daemon=True).start()


def _server_pid() -> int | None:
    raw = os.environ.get("FIELDLINE_PARENT_PID", "")
    return int(raw) if raw.strip().isdigit() else None


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _reseed() -> None:
    """Python's `random` reseeds itself in a forked child; NumPy's global state does not."""
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed()


def _exit(code: int) -> None:
    """As __main__.py ends a job's process: every line flushed, no interpreter teardown."""
    import ctypes

    try:
        sys.stdout.flush()
        sys.stderr.flush()
        ctypes.CDLL(None).fflush(None)
    finally:
        os._exit(code)
