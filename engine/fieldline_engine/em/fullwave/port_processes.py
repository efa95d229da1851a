"""A frequency's port solves on the iterative path shared by forked processes (issue 19).

GMRES + BDDC uses two threads poorly: the one-triangle matrix product and the wirebasket substitutions are
serial loops, so a 0.35 M-unknown solve ran 1.57 cores on 2 threads. The ports' solves are independent,
though, and after assembly everything they need (matrix, BDDC, right-hand sides) is read-only: forked
processes share it copy-on-write, so each extra process costs only its own Krylov basis and work vectors
(not a second operator as an MPI rank does), and each solves its ports on its share of the threads.
The parent solves the first share itself, then collects the others' solution vectors and residuals, so S
is formed exactly as by one process (the same arithmetic, bit for bit).

FIELDLINE_PORT_PROCESSES=0 turns it off (one process solves the ports in turn, on all its threads).
"""

import contextlib
import ctypes
import os
import pickle
import signal
import warnings
from collections.abc import Callable
from typing import Any

import ngsolve as ng

from fieldline_engine.errors import EngineError

# Below this size forking and piping the vectors back cost more than the threads lose.
MIN_DOFS = 30_000
_PR_SET_PDEATHSIG = 1


def port_processes(ports: int, ndof: int, threads: int | None = None) -> int:
    """Processes to share `ports` solves among: one per thread, at most one per port; 1 = no fork."""
    raw = os.environ.get("FIELDLINE_PORT_PROCESSES", "").strip().lower()
    if raw in ("0", "1", "off", "false", "no") or ndof < MIN_DOFS:
        return 1
    from fieldline_engine.core import ranks

    if ranks.size() > 1:  # MPI ranks already share the ports (distributed.py)
        return 1
    threads = configured_threads() if threads is None else threads
    return max(1, min(threads, ports))


def configured_threads() -> int:
    """The TaskManager's thread count (ng.SetNumThreads); GetNumThreads says 1 outside a TaskManager."""
    with ng.TaskManager():
        return ng.GetNumThreads()


def deal(ports: list[int], processes: int) -> list[list[int]]:
    """Port shares, round robin: share 0 is the parent's."""
    return [ports[k::processes] for k in range(processes) if ports[k::processes]]


def solve_shared(
    ports: list[int], processes: int, solve_one: Callable[[int], Any], records: list
) -> tuple[list[Any], list[dict[str, Any]]]:
    """`solve_one(port)` for every port, the shares after the first in forked children. Returns the results
    in `ports` order and, per child, its ports, CPU seconds and peak resident memory. Children's entries in
    `records` (the iterative solver's SolveRecords) are appended to the parent's list in port order."""
    shares = deal(ports, processes)
    threads = configured_threads()
    per_process = max(1, threads // len(shares))
    first_record = len(records)
    pending: list[tuple[int, int, list[int]]] = []
    results: dict[int, Any] = {}
    child_info: list[dict[str, Any]] = []
    ng.SetNumThreads(per_process)
    try:
        for share in shares[1:]:
            pending.append((*_fork(share, per_process, solve_one, records), share))
        for p in shares[0]:
            results[p] = solve_one(p)
        while pending:
            pid, fd, share = pending.pop(0)
            payload, status, usage = _collect(pid, fd)
            if payload is None:  # killed (SIGKILL: the kernel's out-of-memory killer) or crashed
                what = f"the process solving port {', '.join(str(p + 1) for p in share)}"
                if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
                    raise MemoryError(f"{what} was killed")
                raise RuntimeError(f"{what} ended without a result ({_describe_status(status)})")
            if payload["ok"] is not True:
                kind, *rest = payload["error"]
                if kind == "engine":
                    raise EngineError(*rest)
                if kind == "memory":
                    raise MemoryError(rest[0])
                raise RuntimeError(f"port solve process failed: {rest[0]}")
            results.update(payload["results"])
            records.extend(payload["records"])
            child_info.append(
                {
                    "ports": [p + 1 for p in share],
                    "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
                    "peak_resident_mb": round(usage.ru_maxrss / 1024, 1),
                }
            )
    finally:
        ng.SetNumThreads(threads)
        for pid, fd, _share in pending:  # only after a failure: stop and reap the rest
            _kill(pid, fd)
    records[first_record:] = sorted(records[first_record:], key=lambda r: r.port)
    return [results[p] for p in ports], child_info


def _fork(share: list[int], threads: int, solve_one, records: list) -> tuple[int, int]:
    read_fd, write_fd = os.pipe()
    parent = os.getpid()
    with warnings.catch_warnings():  # Python warns on fork with threads alive; ours only sleep or wait
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: solve, send, exit without running the parent's cleanup
        os.close(read_fd)
        try:
            _die_with_parent(parent)
            ng.SetNumThreads(threads)
            before = len(records)
            results = {p: solve_one(p) for p in share}
            payload: dict[str, Any] = {"ok": True, "results": results, "records": records[before:]}
        except EngineError as exc:
            payload = {"ok": False, "error": ("engine", exc.code, exc.message)}
        except MemoryError as exc:
            payload = {"ok": False, "error": ("memory", str(exc))}
        except BaseException as exc:  # noqa: BLE001 - anything else is reported by the parent
            payload = {"ok": False, "error": ("other", repr(exc))}
        try:
            with os.fdopen(write_fd, "wb") as pipe:
                pickle.dump(payload, pipe, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            os._exit(0)
    os.close(write_fd)
    return pid, read_fd


def _collect(pid: int, fd: int):
    """The child's pickled payload (None if it died first), its exit status and its resource usage."""
    with os.fdopen(fd, "rb") as pipe:
        data = pipe.read()
    _, status, usage = os.wait4(pid, 0)
    try:
        payload = pickle.loads(data) if data else None
    except (pickle.UnpicklingError, EOFError):
        payload = None
    return payload, status, usage


def _kill(pid: int, fd: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    with contextlib.suppress(OSError):
        os.close(fd)


def _die_with_parent(parent: int) -> None:
    """A child left behind by a killed parent (a cancelled job) would keep a core busy: end with it."""
    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the line above
        os._exit(1)


def _describe_status(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return f"killed by signal {sig}"
    return f"exit status {os.WEXITSTATUS(status)}"
