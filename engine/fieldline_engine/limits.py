"""Resource limits the engine applies to itself before touching untrusted input."""

import contextlib
import os
import resource


def apply_memory_limit_from_env() -> int | None:
    """Caps the address space at FIELDLINE_MEMORY_LIMIT_MB (the server sets it per job)."""
    raw = os.environ.get("FIELDLINE_MEMORY_LIMIT_MB", "")
    if not raw.strip():
        return None
    limit_mb = int(raw)
    if limit_mb <= 0:
        return None
    limit = limit_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return limit_mb


def address_space_limit_mb() -> int | None:
    """The address-space cap in force (RLIMIT_AS), in MB, or None when unlimited."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft // (1024 * 1024)


def thread_count() -> int:
    """Threads for NGSolve's TaskManager: FIELDLINE_THREADS, else one per available core."""
    raw = os.environ.get("FIELDLINE_THREADS", "")
    if raw.strip():
        return max(1, int(raw))
    return max(1, len(os.sched_getaffinity(0)))


def mesh_thread_count() -> int:
    """Threads for gmsh's meshers: FIELDLINE_MESH_THREADS, else one. gmsh meshes the same model differently
    from run to run with more than one thread (measured: a bracket STEP at 8 mm gave 1,808–1,858
    tetrahedra over six runs with two threads, the identical mesh with one), so the same upload and options
    would give a new mesh, and a peak stress a few % apart, on every remesh — a study's points and a
    re-run would differ by noise. One thread costs little here: the meshing bench's wall time was within
    15 % of its CPU time with two threads (bench/meshing), and jobs run side by side on the cores."""
    raw = os.environ.get("FIELDLINE_MESH_THREADS", "")
    if raw.strip():
        return max(1, int(raw))
    return 1


def limit_blas_threads() -> None:
    """One BLAS thread unless the operator says otherwise (OPENBLAS_NUM_THREADS), set before NGSolve loads.

    The sparse direct solvers call OpenBLAS from inside a factorization; its spinning worker threads
    make a factorization 10–20× slower when the cores are shared with other jobs (measured: UMFPACK on a
    22k-unknown Maxwell system, 0.7 s with one thread vs 15 s with the default on a loaded 2-core host).
    """
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


# Below this many unknowns NGSolve's threads cost more than they save (its TaskManager spins, which on a
# busy machine turns milliseconds into seconds), so small systems run on one thread.
THREADED_MIN_DOFS = 30_000


def parallel(ndof: int):
    """`with parallel(n):` — NGSolve's TaskManager for large systems, one thread for small ones."""
    import ngsolve as ng

    return ng.TaskManager() if ndof >= THREADED_MIN_DOFS else _one_thread()


@contextlib.contextmanager
def _one_thread():
    """Some NGSolve operations run outside a TaskManager start one of their own with every thread allowed
    (the sparse Cholesky factor does): on a 2-core machine with the other core busy, waking its worker cost
    12–30 ms of CPU per factorization of a few hundred unknowns that takes 0.1 ms on one thread (measured on
    bench/adaptive's L-shape passes). Inside a one-thread TaskManager they stay on this thread."""
    import ngsolve as ng

    # The count ng.SetNumThreads set; ng.GetNumThreads() is the running TaskManager's, 1 when none runs.
    threads = int(ng.ngsglobals.numthreads)
    if threads <= 1 or ng.GetNumThreads() > 1:  # one thread anyway, or inside a running TaskManager
        yield
    else:
        ng.SetNumThreads(1)
        try:
            with ng.TaskManager():
                yield
        finally:
            ng.SetNumThreads(threads)


def watch_parent_from_env() -> None:
    """Exits when the server process that started us dies (FIELDLINE_PARENT_PID).

    The server kills the engine's process group on timeout or cancel, but a server killed with
    SIGKILL cannot; without this an orphaned solve would keep burning a core nobody is paid for.
    """
    raw = os.environ.get("FIELDLINE_PARENT_PID", "")
    if not raw.strip().isdigit():
        return
    expected = int(raw)
    from fieldline_engine.core import ranks

    if ranks.launched_size() > 1:
        _watch_server_process(expected)
        return
    watch_parent(expected)


def watch_parent(expected: int) -> None:
    """Exits (137) as soon as this process's parent is no longer `expected`: the server for a job's engine,
    the fork server for a spare forked from it (forkserver.py), which itself watches the server."""
    if os.getppid() != expected:
        os._exit(137)

    import threading
    import time

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != expected:
                os._exit(137)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _watch_server_process(pid: int) -> None:
    """Under mpiexec a rank's parent is the launcher's proxy, not the server: ranks on the server's machine
    (FIELDLINE_PARENT_HOST) watch that the server process still exists, and the launcher ends the other
    ranks when one exits. Ranks on other machines are ended by mpiexec itself."""
    import socket
    import threading
    import time

    if os.environ.get("FIELDLINE_PARENT_HOST") != socket.gethostname():
        return

    def alive() -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    if not alive():
        os._exit(137)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if not alive():
                os._exit(137)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()
