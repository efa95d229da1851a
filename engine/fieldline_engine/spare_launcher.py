"""A standby spare's launcher: `python -S -I <engine>/fieldline_engine/spare_launcher.py SOCKET`.

The server spawns this instead of `python -m fieldline_engine standby` when the fork server runs
(forkserver.py, docs/compute.md): it imports only the standard library (≈ 10–20 ms of CPU, not ≈ 1 s),
passes its stdin, stdout and stderr to the fork server, which forks a warmed-up child onto them, and
then ends exactly as that child ends (its exit code, or killed by the same signal), so the server
supervises it as it would the engine itself. When the fork server is not there (not started yet, died,
restarting) it becomes a full standby process instead (`exec python -m fieldline_engine standby`, the same
protocol on the same pipes), so a job never fails because of the fork server.

Run as a script with `-S -I` (no site, no PYTHONPATH): it must not import fieldline_engine.

The server starts spares through the compiled twin of this file (engine/launcher/spare_launcher.c: the same
protocol in ≈ 1 ms of CPU instead of this interpreter's ≈ 20–30 ms) when it is built; this one is used where
no C compiler built it, or with ENGINE_SPARE_LAUNCHER=python. A change to the protocol changes both.
"""

import os
import signal
import socket
import sys


def main(socket_path: str) -> None:
    conn = _connect(socket_path)
    if conn is None:
        _become_standby()
    try:
        socket.send_fds(conn, [b"spawn"], [0, 1, 2])
        first = _read_line(conn)
    except OSError:
        first = None
    if first is None or not first.startswith("pid "):
        conn.close()
        _become_standby()  # the fork server went away before forking: this process still has its pipes
    # Only the child holds the job's pipes now: the server sees their end when the job's process ends.
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    try:
        report = _read_line(conn)
    except OSError:
        report = None
    if report is None:
        _outlive(int(first[4:]))
    _end_like(report)


def _connect(path: str) -> socket.socket | None:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:
        conn.close()
        return None
    return conn


def _read_line(conn: socket.socket) -> str | None:
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(64)
        if not chunk:
            return None
        data += chunk
    return data.decode("ascii").strip()


def _outlive(child: int) -> None:
    """The fork server ended before the child: wait for the child to end (it watches this process and the
    server, and runs its job to the end). Its status went with the fork server; the server judges the job by
    its final protocol line, and only without one by this exit code (1: it ended unexpectedly)."""
    import select

    try:
        child_fd = os.pidfd_open(child)
    except OSError:
        os._exit(1)
    select.select([child_fd], [], [])
    os._exit(1)


def _end_like(report: str) -> None:
    """Exit as the child did."""
    if report.startswith("exit "):
        os._exit(int(report[5:]))
    sig = int(report[7:]) if report.startswith("signal ") else signal.SIGKILL
    if sig != signal.SIGKILL:
        signal.signal(sig, signal.SIG_DFL)
    os.kill(os.getpid(), sig)
    os._exit(128 + sig)


def _become_standby() -> None:
    os.execv(sys.executable, [sys.executable, "-m", "fieldline_engine", "standby"])


if __name__ == "__main__":
    main(sys.argv[1])
