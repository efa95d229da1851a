"""The MPI world a job runs in (docs/distributed.md): one process unless the engine was started by
mpiexec with more than one rank. mpi4py is imported only then, so a one-process run never loads MPI."""

import os
import socket
from functools import lru_cache

# What the launchers put in each rank's environment: MPICH's hydra (PMI) and Open MPI.
_SIZE_VARIABLES = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE")


def launched_size() -> int:
    """Ranks mpiexec started, from the environment (1 when not under mpiexec)."""
    for name in _SIZE_VARIABLES:
        raw = os.environ.get(name, "").strip()
        if raw.isdigit():
            return max(1, int(raw))
    return 1


@lru_cache(maxsize=1)
def world():
    """mpi4py's COMM_WORLD when there is more than one rank, else None."""
    if launched_size() <= 1:
        return None
    from mpi4py import MPI

    return MPI.COMM_WORLD


def rank() -> int:
    comm = world()
    return 0 if comm is None else comm.Get_rank()


def size() -> int:
    comm = world()
    return 1 if comm is None else comm.Get_size()


def is_root() -> bool:
    return rank() == 0


# A failure in set-up (bad input) happens on every rank alike: the others wait this long before ending
# the job so that rank 0 has written the error the server shows.
ABORT_GRACE_SECONDS = 3.0


def abort_after_failure(code: int = 1) -> None:
    """Ends every rank after this one failed: a rank that failed alone would leave the others waiting in a
    collective forever. Rank 0 has reported the failure by now; the others give it time to."""
    comm = world()
    if comm is None:
        return
    if comm.Get_rank() != 0:
        import time

        time.sleep(ABORT_GRACE_SECONDS)
    comm.Abort(code)


def host() -> str:
    return socket.gethostname()
