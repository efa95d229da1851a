"""Command line: python -m fieldline_engine <command> [--job DIR], or `standby` (standby.py), or
`forkserver --socket PATH` (forkserver.py)."""

import argparse
import errno
import importlib
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fieldline_engine import protocol
from fieldline_engine.core import ranks
from fieldline_engine.errors import EngineError
from fieldline_engine.limits import apply_memory_limit_from_env, limit_blas_threads, watch_parent_from_env
from fieldline_engine.standby import serve_one

limit_blas_threads()  # before any numeric library is imported


def _health(_job: Path | None) -> dict[str, Any]:
    from fieldline_engine.commands.health import health_report

    return health_report()


def _solve(job: Path | None) -> dict[str, Any]:
    from fieldline_engine.commands.solve import run_solve

    return run_solve(_require_job(job))


def _mesh(job: Path | None) -> dict[str, Any]:
    from fieldline_engine.commands.mesh import run_mesh

    return run_mesh(_require_job(job))


def _convert(job: Path | None) -> dict[str, Any]:
    from fieldline_engine.commands.convert import run_convert

    return run_convert(_require_job(job))


COMMANDS: dict[str, Callable[[Path | None], dict[str, Any]]] = {
    "health": _health,
    "solve": _solve,
    "mesh": _mesh,
    "convert": _convert,
}


def _run_plugin(command: str, job: Path | None) -> None:
    """FIELDLINE_ENGINE_PLUGIN names a module whose before_command(command, job_dir) runs first. Only tests
    set it (the server's ENGINE_TEST_HOOKS → fieldline_engine.testing.hooks); production runs none."""
    name = os.environ.get("FIELDLINE_ENGINE_PLUGIN")
    if name:
        importlib.import_module(name).before_command(command, job)


def _require_job(job: Path | None) -> Path:
    if job is None:
        raise EngineError("usage", "this command needs --job DIR")
    if not (job / "job.json").is_file():
        raise EngineError("invalid_input", f"no job.json in {job}")
    return job


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fieldline_engine")
    parser.add_argument("command", choices=sorted([*COMMANDS, "standby", "forkserver"]))
    parser.add_argument("--job", type=Path, default=None, help="job directory holding job.json")
    parser.add_argument("--socket", default=None, help="forkserver: the Unix socket to listen on")
    args = parser.parse_args(argv)
    protocol.redirect_library_output()
    run_taken_job = lambda command, job: _run(argparse.Namespace(command=command, job=job), watch=False)  # noqa: E731
    if args.command == "standby":
        # Started before its job, warmed up; the job arrives on stdin (standby.py).
        watch_parent_from_env()
        code = serve_one(run_taken_job)
    elif args.command == "forkserver":
        # Warmed up once; forks a standby spare per launcher that connects (forkserver.py).
        from fieldline_engine.forkserver import serve

        if not args.socket:
            parser.error("forkserver needs --socket PATH")
        code = serve(args.socket, run_taken_job)
    else:
        code = _run(args)
    if code != 0:
        ranks.abort_after_failure(code)
    return code


def _run(args: argparse.Namespace, watch: bool = True) -> int:
    try:
        apply_memory_limit_from_env()
        if not ranks.is_root():
            protocol.silence()  # under mpiexec only rank 0 speaks the protocol (docs/distributed.md)
        if watch:
            watch_parent_from_env()
        _run_plugin(args.command, args.job)
        result = COMMANDS[args.command](args.job)
        protocol.done(result)
        return 0
    except EngineError as exc:
        protocol.error(exc.code, exc.message)
        return 1
    except MemoryError:
        protocol.error(
            "memory_limit", "The job ran out of memory. Use a coarser mesh or a lower element order."
        )
        return 1
    except (ImportError, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            # The machine's fault, not the model's: said plainly, and not charged (a platform failure).
            protocol.error(
                "disk_full",
                "The worker's disk is full, so the job could not write its files. "
                "Nothing was charged; please submit it again.",
            )
            return 1
        # Under RLIMIT_AS a library that cannot map its code fails to import, not with MemoryError.
        if "failed to map segment" in str(exc) or "Cannot allocate memory" in str(exc):
            protocol.error("memory_limit", "The job ran out of memory while loading its libraries.")
            return 1
        traceback.print_exc(file=sys.stderr)
        protocol.error("engine_error", f"Internal solver error: {type(exc).__name__}: {exc}")
        return 1
    except Exception as exc:  # noqa: BLE001 - the server must always get a final event
        traceback.print_exc(file=sys.stderr)
        protocol.error("engine_error", f"Internal solver error: {type(exc).__name__}: {exc}")
        return 1
