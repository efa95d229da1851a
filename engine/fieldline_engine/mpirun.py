"""The engine's MPI launcher: `python -m fieldline_engine.mpirun -np N [--hostfile FILE] <command> [--job DIR]`
runs `python -m fieldline_engine <command>` on N ranks with the mpiexec of the `mpich` wheel (docs/distributed.md).

On one machine it uses hydra's fork launcher (no ssh needed, and none is installed in the engine's image);
with a hostfile hydra starts the ranks on the listed machines over ssh, so the engine's venv and the job
directory must exist at the same paths there. The launcher replaces this process (exec), so the server's
process group, time limit and cancel reach mpiexec and, through it, every rank.
"""

import argparse
import os
import shutil
import sys
from pathlib import Path


def mpiexec_path() -> str:
    """mpiexec beside this interpreter (the venv's, from the mpich wheel), else the one on PATH."""
    beside = Path(sys.executable).parent / "mpiexec"
    if beside.is_file():
        return str(beside)
    found = shutil.which("mpiexec")
    if found is None:
        raise SystemExit("fieldline_engine.mpirun: no mpiexec (pip install the engine's mpich dependency)")
    return found


def mpiexec_command(ranks: int, engine_args: list[str], hostfile: str | None = None) -> list[str]:
    if ranks < 1:
        raise SystemExit("fieldline_engine.mpirun: -np must be at least 1")
    where = ["-f", hostfile] if hostfile else ["-launcher", "fork"]
    # -genvall: every rank gets this environment (memory limit, threads, PYTHONPATH, parent pid).
    return [
        mpiexec_path(),
        *where,
        "-genvall",
        "-n",
        str(ranks),
        sys.executable,
        "-m",
        "fieldline_engine",
        *engine_args,
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="fieldline_engine.mpirun")
    parser.add_argument("-np", "-n", dest="ranks", type=int, required=True, help="MPI ranks")
    parser.add_argument("--hostfile", default=os.environ.get("FIELDLINE_MPI_HOSTFILE") or None)
    args, engine_args = parser.parse_known_args(argv)
    command = mpiexec_command(args.ranks, engine_args, args.hostfile)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
